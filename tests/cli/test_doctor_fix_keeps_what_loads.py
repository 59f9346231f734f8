"""A fix of stale plugin references never changes what the gateway loads.

Every recorded plugin state (`tests/data/upstream/plugin_states.json`, the gateway's verdicts from
openclaw 2026.4.12 in `plugin-states-openclaw-2026.4.12.json`) is laid out, `doctor --fix
plugin-references` runs on it, and every plugin's load verdict must be the same after as before:
a reference the gateway reads as a plugin that is there (`Lobster`, ` Brave `, `kimi-coding`,
`openai-codex`) is not stale, and an allow list is never emptied (the gateway reads `[]` as no allow
list, every plugin loading).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from install_support import make_install
from verdict_cases import lay_out

from tests.conftest import Run
from vora_cli.core.json5 import parser
from vora_cli.core.plugins.bundled import canonical_id
from vora_cli.core.plugins.verdict import load_verdict

DATA = Path(__file__).resolve().parents[1] / "data" / "upstream"
CASES = {case["id"]: case for case in json.loads((DATA / "plugin_states.json").read_text())["cases"]}
STATES = json.loads((DATA / "plugin-states-openclaw-2026.4.12.json").read_text())["states"]
# Ids a verdict is asked of beyond what the config names: the bundled plugins that are on by default.
ALWAYS = ("browser", "device-pair", "phone-control", "memory-core", "openai", "google", "lobster", "brave")


def _verdicts(state: Path, home: Path, ids: set[str]) -> dict[str, str]:
    discovery = make_install(state, home=home).plugins
    settings = discovery.settings
    assert settings is not None
    plugins = {f"{p.id}@{p.origin}": p for p in (*discovery.listed, *discovery.shadowed)}
    plugins.update({f"{p.id}@{p.origin}": p for p in map(discovery.find, ids) if p is not None})
    return {key: load_verdict(plugin, settings).to_dict()["status"] for key, plugin in plugins.items()}


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_a_reference_fix_changes_no_load_verdict(case_id: str, tmp_path: Path, home: Path,
                                                 vora: Callable[..., Run]) -> None:
    state = tmp_path / "state"
    lay_out(CASES[case_id], state, home)
    ids = {*ALWAYS, *CASES[case_id].get("watch", []), *STATES[case_id].get("plugins", {})}
    before = _verdicts(state, home, ids)
    fixed = vora("--state-dir", str(state), "doctor", "--fix", "plugin-references", "--yes", "--json")
    assert fixed.exit_code in (0, 1), fixed.stderr
    assert _verdicts(state, home, ids) == before


ALIASES = {"Lobster": "lobster", " Brave ": "brave", "DIFFS": "diffs", "kimi-coding": "kimi", "Kimi-Coding": "kimi",
           "openai-codex": "openai", "minimax-portal": "minimax", "minimax-portal-auth": "minimax",
           "google-gemini-cli": "google", "byteplus-plan": "byteplus", "OpenAI": "openai", "memory-core": "memory-core",
           "my-Tool": "my-Tool", " other ": "other", "": ""}


def test_ids_are_read_as_the_gateway_reads_them() -> None:
    # the gateway's normalizePluginId (openclaw 2026.4.12): bundled ids and aliases in any case, trimmed;
    # any other id trimmed and kept in its case
    assert {name: canonical_id(name) for name in ALIASES} == ALIASES


def _plugins(state_dir: Path) -> dict:
    return parser.loads((state_dir / "vora.json").read_text()).get("plugins", {})


def test_doctor_keeps_bundled_plugins_named_another_way(state_dir: Path, vora: Callable[..., Run]) -> None:
    config = {"plugins": {"allow": ["Lobster", "Diffs", "memory-core", "kimi-coding", "minimax-portal", "OpenAI",
                                    " Brave ", "gone-plugin"],
                          "entries": {"Lobster": {"enabled": True}, "Diffs": {"enabled": True},
                                      "openai-codex": {"enabled": False}, "Gone-Too": {"enabled": True}},
                          "deny": ["gone-three"]}}
    (state_dir / "vora.json").write_text(json.dumps(config, indent=2))
    check = vora("doctor", "--json", "--only", "plugin-references").json()["checks"][0]
    assert check["details"] == ["plugins.entries names Gone-Too, which is not installed",
                                "plugins.allow lists gone-plugin, which is not installed",
                                "plugins.deny lists gone-three, which is not installed"]
    assert vora("doctor", "--fix", "plugin-references", "--yes").exit_code == 0
    plugins = _plugins(state_dir)
    assert plugins["allow"] == config["plugins"]["allow"][:-1]
    assert list(plugins["entries"]) == ["Lobster", "Diffs", "openai-codex"]
    assert "deny" not in plugins or plugins["deny"] == []
    listed = {row["id"] for row in vora("plugins", "list", "--json").json()["plugins"]}
    assert {"lobster", "diffs", "kimi", "minimax", "openai", "brave"} <= listed


@pytest.mark.parametrize("allow", [["gone-plugin"], ["gone-a", "gone-b"], ["gone-a", "  ", 7]])
def test_doctor_never_empties_an_allow_list(allow: list, state_dir: Path, tmp_path: Path,
                                            vora: Callable[..., Run]) -> None:
    from plugins_support import make_plugin

    make_plugin(state_dir / "extensions" / "tool-a", "tool-a")
    (state_dir / "vora.json").write_text(json.dumps({"plugins": {"allow": allow, "deny": ["gone-c"]}}))
    check = vora("doctor", "--json", "--only", "plugin-references").json()["checks"][0]
    assert check["status"] == "warn"
    assert "every plugin would load" in check["details"][-1]
    assert check["fix"]["description"].endswith("; plugins.allow is left as it is")
    fixed = vora("doctor", "--fix", "--yes", "--json")
    assert fixed.exit_code in (0, 1), fixed.stderr
    assert _plugins(state_dir)["allow"] == allow  # the deny item went; the allow list is as it was
    assert "deny" not in _plugins(state_dir) or _plugins(state_dir)["deny"] == []
    audit = vora("security", "audit", "--json")
    steps = [f.get("fix") or f.get("remediation") or "" for f in audit.json().get("findings", [])
             if "allow names a plugin" in f.get("title", "")]
    assert steps and all("every plugin load" in json.dumps(step) for step in steps)
