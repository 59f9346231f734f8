"""`plugins list` status is the gateway's load verdict: enabled, disabled with its reason, or error with its problem.

The expected answers are the gateway's own `plugins list --json` on each state of
`tests/data/upstream/plugin_states.json` (openclaw 2026.4.12, recorded by `scripts/gen_plugin_states.py`):
memory plugins the slot selects or not, both kinds, allow lists and slots, entries, deny, workspace
plugins, links and the copies they shadow, required settings, and the bundled plugins the config
names (channels, tools, providers, memory).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from install_support import make_install
from verdict_cases import lay_out

from vora_cli.core.plugins.discovery import DiscoveredPlugin
from vora_cli.core.plugins.report import plugin_rows, shadowed_rows
from vora_cli.core.plugins.verdict import load_verdict

DATA = Path(__file__).resolve().parents[2] / "data" / "upstream"
CASES = {case["id"]: case for case in json.loads((DATA / "plugin_states.json").read_text())["cases"]}
RECORDED = json.loads((DATA / "plugin-states-openclaw-2026.4.12.json").read_text())
STATES = RECORDED["states"]
# The gateway's names of where a plugin was found, as vora names them.
ORIGINS = {"config": "linked", "workspace": "workspace", "global": "installed", "bundled": "bundled"}
STATUS = {"loaded": "enabled", "disabled": "disabled", "error": "error"}
# The gateway's plugin report turns `plugins.enabled` on before it lists (its `withBundledPluginEnablementCompat`);
# its loader then loads nothing. vora says what the loader does.
REPORT_ONLY = {"plugins-disabled"}
# The gateway's list first runs its setup auto-enable (`applyPluginAutoEnable`), which turns on provider plugins
# by its own setup rules; vora does not model it (docs/plugins.md), so those verdicts ("enabled by effective
# config") are not compared. The list pins where that happens.
AUTO_ENABLED = {("alias-case-and-provider", "google"), ("alias-case-and-provider", "kimi"),
                ("alias-case-and-provider", "minimax"), ("alias-case-and-provider", "openai"),
                ("alias-entries-merge", "openai")}


def _gateway_words(rule: str) -> str:
    for vora, gateway in (("linked", "config"), ("installed", "global")):
        rule = rule.replace(f"overridden by {vora} plugin", f"overridden by {gateway} plugin")
    return rule


def _vora(tmp_path: Path, case_id: str) -> dict[str, tuple[DiscoveredPlugin, dict[str, Any]]]:
    state, home = tmp_path / "state", tmp_path / "home"
    lay_out(CASES[case_id], state, home)
    install = make_install(state, home=home)
    discovery = install.plugins
    settings = discovery.settings
    assert settings is not None
    found = {}
    watched = [discovery.find(pid) for pid in CASES[case_id].get("watch", [])]  # bundled, named or not
    for plugin in (*discovery.listed, *discovery.shadowed, *(p for p in watched if p is not None)):
        row = {**load_verdict(plugin, settings).to_dict(), "origin": plugin.origin}
        found[f"{plugin.id}@{plugin.origin}"] = (plugin, row)
    return found


def test_the_states_are_the_gateways() -> None:
    assert RECORDED["version"] == "openclaw 2026.4.12"
    assert set(STATES) == set(CASES)


@pytest.mark.parametrize("case_id", sorted(cid for cid in STATES if not STATES[cid].get("failed")))
def test_each_plugin_has_the_gateways_status_and_reason(tmp_path: Path, case_id: str) -> None:
    vora = _vora(tmp_path, case_id)
    for plugin_id, answer in STATES[case_id]["plugins"].items():
        key = f"{plugin_id}@{ORIGINS[answer['origin']]}"
        assert key in vora, f"{case_id}: vora does not list {key}"
        plugin, row = vora[key]
        if answer["activationReason"] == "enabled by effective config":
            assert (case_id, plugin_id) in AUTO_ENABLED
            continue
        if case_id in REPORT_ONLY:
            assert row["status"] == "disabled" and plugin.decision.rule == "plugins disabled"
            continue
        assert row["status"] == STATUS[answer["status"]], f"{case_id}: {key}: {row} vs {answer}"
        assert _gateway_words(plugin.decision.rule) == (answer["activationReason"] or ""), f"{case_id}: {key}"


def test_only_the_known_plugins_are_auto_enabled() -> None:
    found = {(cid, pid) for cid, state in STATES.items() for pid, answer in state.get("plugins", {}).items()
             if answer["activationReason"] == "enabled by effective config"}
    assert found == AUTO_ENABLED


def test_a_plugin_whose_entry_file_is_missing_is_an_error_not_enabled(tmp_path: Path) -> None:
    # the gateway does not find it at all (its list has no row for it), and doctor reports it
    assert "unbuilt-a" not in STATES["unbuilt"]["plugins"]
    _plugin, row = _vora(tmp_path, "unbuilt")["unbuilt-a@installed"]
    assert row["status"] == "error"
    assert row["problem"] == ("entry file not found: ./dist/index.js: the gateway does not find the plugin "
                              "(not built yet?)")


def test_settings_the_validator_refuses_are_an_error_with_the_gateways_words(tmp_path: Path) -> None:
    # the gateway refuses the whole config (its list fails: "Config invalid"); vora names the plugin's problem
    answer = STATES["required-config-missing"]
    assert answer["failed"] and answer["error"] == "Config invalid"
    assert answer["problems"] == ["plugins.entries.keyed-a.config.apiKey: invalid config: must have required "
                                  "property 'apiKey'"]
    _plugin, row = _vora(tmp_path, "required-config-missing")["keyed-a@installed"]
    assert row == {"status": "error", "reason": 'enabled in config: plugins.entries["keyed-a"].enabled is true',
                   "problem": "invalid config: apiKey: must have required property 'apiKey'", "origin": "installed"}


def test_bundled_plugins_the_config_names_are_listed_with_their_kinds(tmp_path: Path) -> None:
    vora = _vora(tmp_path, "bundled-named")
    assert {key for key in vora if key.endswith("@bundled")} == {
        f"{pid}@bundled" for pid in ("telegram", "brave", "anthropic", "duckduckgo", "discord", "memory-lancedb", "exa")}
    provides = {key.split("@")[0]: plugin.bundled.provides for key, (plugin, _row) in vora.items() if plugin.bundled}
    assert provides["telegram"] == ("channel",) and provides["brave"] == ("tool",)
    assert provides["anthropic"] == ("provider",) and provides["memory-lancedb"] == ("memory",)
    assert vora["memory-lancedb@bundled"][0].kind == ("memory",)


def test_rows_of_plugins_list(tmp_path: Path) -> None:
    state, home = tmp_path / "state", tmp_path / "home"
    lay_out(CASES["bundled-shadowed"], state, home)
    discovery = make_install(state, home=home).plugins
    rows = {(row["id"], row["origin"]): row for row in plugin_rows(discovery)}
    assert rows[("brave", "bundled")]["path"] is None and rows[("brave", "bundled")]["status"] == "enabled"
    assert rows[("brave", "installed")]["status"] == "disabled"
    assert rows[("brave", "installed")]["reason"] == "overridden by bundled plugin"
    assert [row["id"] for row in plugin_rows(discovery, enabled_only=True)] == ["brave"]
    assert shadowed_rows(discovery) == []
