"""The gateway's bundled plugins are there: listed when the config names them, never a stale reference.

A config the gateway itself writes names its own plugins (openclaw 2026.4.12 ships 98 of them, recorded in
`vora_cli/core/plugins/bundled.json`): channels, tools, model providers, memory backends. `doctor --fix`
removing those references would disable what the operator enabled (an allow list losing a channel blocks
it), so every check, list and fix asks the bundled table too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run
from vora_cli.core.json5 import parser
from vora_cli.core.plugins.bundled import bundled_ids, bundled_plugin, bundled_version

# Bundled plugins of every kind, named the ways real configs name them.
GATEWAY_WRITTEN = """// written by the gateway's onboarding, then edited
{
  plugins: {
    entries: {
      telegram: { enabled: true },           // a channel
      firecrawl: { enabled: true },          // a tool
      "amazon-bedrock": { enabled: true },   // a model provider
      "memory-lancedb": { enabled: false, config: { embedding: { apiKey: "sk-test-000000000000" } } },  // memory
      elevenlabs: {},                        // speech
      "gone-plugin": { enabled: true },
    },
    allow: ["telegram", "feishu", "firecrawl", "duckduckgo", "amazon-bedrock", "memory-lancedb", "gone-too"],
    deny: ["tavily", "gone-three"],
  },
  channels: { zalo: { botToken: "x" } },
}
"""
BUNDLED_NAMED = {"telegram", "feishu", "firecrawl", "duckduckgo", "amazon-bedrock", "memory-lancedb", "elevenlabs",
                 "tavily", "zalo"}


def _plugins(state_dir: Path) -> dict:
    return parser.loads((state_dir / "vora.json").read_text()).get("plugins", {})


@pytest.fixture
def gateway_written(state_dir: Path) -> Path:
    (state_dir / "vora.json").write_text(GATEWAY_WRITTEN)
    return state_dir


def test_the_table_is_the_releases(gateway_written: Path) -> None:
    table = {pid: bundled_plugin(pid) for pid in bundled_ids()}
    assert bundled_version() == "openclaw 2026.4.12" and len(table) == 98
    kinds = {pid: table[pid].provides for pid in ("telegram", "brave", "anthropic", "memory-lancedb", "elevenlabs")}  # type: ignore[union-attr]
    assert kinds == {"telegram": ("channel",), "brave": ("tool",), "anthropic": ("provider",),
                     "memory-lancedb": ("memory",), "elevenlabs": ("media",)}
    from vora_cli.core.config.gateway import bundled_plugin_schemas

    schemas = bundled_plugin_schemas()
    assert set(table) == set(schemas)  # the same release's config schema names the same ids
    # a plugin that requires nothing accepts unset settings (so its schema need not be read to say so)
    from vora_cli.core.config.gateway import ajv_issues

    for pid, plugin in table.items():
        assert bool(ajv_issues(schemas[pid], {}, (), "plugin-schema")) is bool(plugin.requires), pid  # type: ignore[union-attr]


def test_doctor_fix_keeps_every_reference_to_a_bundled_plugin(gateway_written: Path, vora: Callable[..., Run]) -> None:
    report = vora("doctor", "--json", "--only", "plugin-references,plugin-settings").json()
    checks = {c["id"]: c for c in report["checks"]}
    stale = checks["plugin-references"]["details"]
    assert stale == ["plugins.entries names gone-plugin, which is not installed",
                     "plugins.allow lists gone-too, which is not installed",
                     "plugins.deny lists gone-three, which is not installed"]
    assert checks["plugin-settings"]["status"] == "pass"  # memory-lancedb's settings belong to a plugin that is there
    fixed = vora("doctor", "--fix", "--yes")
    assert fixed.exit_code in (0, 1), fixed.stderr
    plugins = _plugins(gateway_written)
    assert set(plugins["entries"]) == {"telegram", "firecrawl", "amazon-bedrock", "memory-lancedb", "elevenlabs"}
    assert plugins["allow"] == ["telegram", "feishu", "firecrawl", "duckduckgo", "amazon-bedrock", "memory-lancedb"]
    assert plugins["deny"] == ["tavily"]
    assert plugins["entries"]["memory-lancedb"]["config"]["embedding"]["apiKey"] == "sk-test-000000000000"
    again = vora("doctor", "--json", "--only", "plugin-references").json()
    assert again["checks"][0]["status"] == "pass"


def test_the_security_audit_does_not_call_a_bundled_plugin_missing(gateway_written: Path, vora: Callable[..., Run]) -> None:
    audit = vora("security", "audit", "--json").json()
    named = [f for f in audit["findings"] if f["title"] == "plugins.allow names a plugin that is not installed"]
    assert [f["detail"].split('"')[1] for f in named] == ["gone-too"]


def test_list_shows_the_bundled_plugins_the_config_names(gateway_written: Path, vora: Callable[..., Run]) -> None:
    rows = {row["id"]: row for row in vora("plugins", "list", "--json").json()["plugins"]}
    assert set(rows) == BUNDLED_NAMED
    assert {row["origin"] for row in rows.values()} == {"bundled"}
    assert (rows["telegram"]["status"], rows["telegram"]["reason"]) == (
        "enabled", 'enabled in config: plugins.entries["telegram"].enabled is true')
    assert (rows["feishu"]["status"], rows["feishu"]["reason"]) == ("disabled", "bundled (disabled by default)")
    assert (rows["zalo"]["status"], rows["zalo"]["reason"]) == ("enabled", "channel configured: channels.zalo")
    assert rows["tavily"]["reason"] == "blocked by denylist: plugins.deny"
    assert rows["memory-lancedb"]["kind"] == ["memory"] and rows["memory-lancedb"]["path"] is None
    assert rows["telegram"]["version"] == "2026.4.12"
    table = vora("plugins", "list")
    assert "telegram" in table.stdout and "(bundled with the gateway)" in table.stdout
    enabled = {row["id"] for row in vora("plugins", "list", "--enabled", "--json").json()["plugins"]}
    # elevenlabs: an entry with no settings does not get past a non-empty allow list that lacks it
    assert enabled == {"telegram", "firecrawl", "amazon-bedrock", "zalo"}
    assert rows["elevenlabs"]["reason"] == "not in allowlist: plugins.allow"


def test_inspect_enable_and_disable_find_bundled_plugins(gateway_written: Path, vora: Callable[..., Run]) -> None:
    data = vora("plugins", "inspect", "brave", "--json").json()  # named nowhere, still there
    assert (data["origin"], data["status"], data["bundled"]["provides"]) == ("bundled", "disabled", ["tool"])
    assert data["problems"] == []
    assert vora("plugins", "enable", "brave").exit_code == 0
    assert _plugins(gateway_written)["entries"]["brave"] == {"enabled": True}
    assert vora("plugins", "disable", "telegram").exit_code == 0
    assert _plugins(gateway_written)["entries"]["telegram"] == {"enabled": False}
    missing = vora("plugins", "enable", "telegramm")
    assert missing.exit_code == 1 and "did you mean 'telegram'?" in missing.stderr


def test_uninstalling_a_bundled_plugin_is_refused_with_the_way_to_turn_it_off(gateway_written: Path,
                                                                               vora: Callable[..., Run]) -> None:
    before = (gateway_written / "vora.json").read_bytes()
    run = vora("plugins", "uninstall", "firecrawl", "--yes")
    assert run.exit_code == 1
    assert run.stderr.splitlines() == ["error: firecrawl is bundled with the gateway: there is nothing of it to uninstall",
                                       "hint: to turn it off: vora plugins disable firecrawl"]
    assert (gateway_written / "vora.json").read_bytes() == before


def test_a_memory_slot_naming_a_bundled_memory_plugin_is_checked_not_missing(state_dir: Path,
                                                                            vora: Callable[..., Run]) -> None:
    config = {"plugins": {"slots": {"memory": "memory-lancedb"},
                          "entries": {"memory-lancedb": {"config": {"embedding": {"apiKey": "sk-test-1"}}}}}}
    (state_dir / "vora.json").write_text(json.dumps(config))
    check = vora("doctor", "--json", "--only", "slot-memory").json()["checks"][0]
    assert (check["status"], check["message"]) == ("pass", "memory: memory-lancedb (bundled with the gateway, "
                                                   "selected memory slot: plugins.slots.memory): its files check out "
                                                   "(vora doctor --live asks the running gateway whether it loaded it)")
