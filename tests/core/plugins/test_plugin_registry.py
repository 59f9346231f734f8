"""The gateway's plugin registry as vora repeats it (core/plugins/registry.py), where the recorded
answers of the gateway (`tests/core/config/test_gateway_verdicts.py`) cannot reach: the workspace's
extensions dir (vora's `.vora`, the gateway's `.openclaw`), ownership, positions, the facts it
hands the verdict, and how a config write asks for them. The commands' side is
`tests/cli/config/test_validate.py`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from install_support import make_install

from vora_cli.core.config.gateway import (
    GatewayIssue,
    PluginFacts,
    RegistryDiagnostic,
    gateway_verdict,
    touched_issues,
)
from vora_cli.core.config.migrations import migrate_legacy
from vora_cli.core.config.readback import GatewayCheck, gateway_refusals
from vora_cli.core.plugins.discovery import discover_plugins
from vora_cli.core.plugins.facts import facts_of, plugin_facts
from vora_cli.core.plugins.registry import gateway_registry

INDEX = "export default {};\n"


def plugin(folder: Path, manifest: str | None = '{ id: "%s", configSchema: {} }', name: str = "openclaw.plugin.json",
           ) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.js").write_text(INDEX)
    if manifest is not None:
        (folder / name).write_text(manifest.replace("%s", folder.name) if "%s" in manifest else manifest)
    return folder


def said(state: Path, config: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    install = make_install(state)
    return [(d.level, d.plugin_id, d.message)
            for d in gateway_registry(discover_plugins(install.paths, config), install.paths).diagnostics]


def test_the_workspace_extensions_dir_is_read_between_the_load_paths_and_the_installed_ones(tmp_path: Path) -> None:
    state = tmp_path / "state"
    workspace = tmp_path / "ws"
    plugin(workspace / ".vora" / "extensions" / "ws-broken", manifest=None)
    plugin(state / "extensions" / "installed-broken", manifest=None)
    config = {"agents": {"defaults": {"workspace": str(workspace)}}, "plugins": {"load": {"paths": ["/gone"]}}}
    assert said(state, config) == [
        ("error", None, "plugin path not found: /gone"),
        ("error", None, f"plugin manifest not found: {workspace}/.vora/extensions/ws-broken/openclaw.plugin.json"),
        ("error", None, f"plugin manifest not found: {state}/extensions/installed-broken/openclaw.plugin.json"),
    ]


def test_a_workspace_copy_of_an_installed_id_is_the_one_that_stays(tmp_path: Path) -> None:
    state = tmp_path / "state"
    workspace = tmp_path / "ws"
    plugin(workspace / ".vora" / "extensions" / "twin")
    plugin(state / "extensions" / "twin")
    config = {"agents": {"defaults": {"workspace": str(workspace)}}}
    assert said(state, config) == [("warn", "twin", "duplicate plugin id detected; global plugin will be overridden "
                                    f"by workspace plugin ({state}/extensions/twin/index.js)")]


def test_the_vora_manifest_name_is_read_first(tmp_path: Path) -> None:
    state = tmp_path / "state"
    both = plugin(state / "extensions" / "both", manifest="[1]")  # the upstream name: no object
    (both / "vora.plugin.json").write_text('{ id: "both", configSchema: {} }')
    plugin(state / "extensions" / "vora-only", name="vora.plugin.json")
    install = make_install(state)
    registry = gateway_registry(discover_plugins(install.paths, {}), install.paths)
    assert registry.diagnostics == ()
    assert [r.id for r in registry.records] == ["both", "vora-only"]


def test_a_plugin_owned_by_another_user_is_refused_with_a_warning(tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("only root can hand a folder to another user")
    state = tmp_path / "state"
    folder = plugin(state / "extensions" / "theirs")
    os.chown(folder, 4242, 4242)
    assert said(state, {}) == [("warn", None, f"blocked plugin candidate: suspicious ownership ({folder}, "
                                "uid=4242, expected uid=0 or root)")]


def test_a_plugin_whose_id_is_a_bundled_plugins_is_named_without_the_bundled_file(tmp_path: Path) -> None:
    state = tmp_path / "state"
    linked = plugin(tmp_path / "mine", manifest='{ id: "memory-core", configSchema: {} }')
    assert said(state, {"plugins": {"load": {"paths": [str(linked)]}}}) == [
        ("warn", "memory-core", "duplicate plugin id detected; bundled plugin will be overridden by config plugin "
                                "(the gateway's bundled memory-core)")]


def test_the_verdict_points_at_the_load_path_that_raised_a_problem() -> None:
    facts = PluginFacts(diagnostics=(RegistryDiagnostic("error", "plugin path not found: /x", load_index=2),
                                     RegistryDiagnostic("warn", "duplicate plugin id detected; …", "dup", 0)))
    verdict = gateway_verdict(migrate_legacy({"plugins": {"load": {"paths": ["a", "b", "/x"]}}}), facts)
    assert verdict.issues == (GatewayIssue(("plugins", "load", "paths"), "plugin: plugin path not found: /x",
                                           rule="plugins", where=("plugins", "load", "paths", 2)),)
    assert verdict.issues[0].at == ("plugins", "load", "paths", 2)
    assert [(w.gateway_path, w.message, w.at) for w in verdict.warnings] == [
        ("plugins.entries.dup", "plugin dup: duplicate plugin id detected; …", ("plugins", "entries", "dup"))]


def test_the_registry_speaks_first_and_only_when_the_gateway_loads_it() -> None:
    facts = PluginFacts(diagnostics=(RegistryDiagnostic("error", "plugin manifest requires id"),))
    assert gateway_verdict(migrate_legacy({"gateway": {"port": 1}}), facts).valid
    assert gateway_verdict(migrate_legacy({"channels": {}}), facts).valid
    issues = gateway_verdict(migrate_legacy({"channels": {"nochannel": {}}}), facts).issues
    assert [i.message for i in issues] == ["plugin: plugin manifest requires id", "unknown channel id: nochannel"]


def test_a_config_write_sees_the_registry_only_for_the_plugins_it_touches() -> None:
    facts = PluginFacts(diagnostics=(RegistryDiagnostic("error", "plugin path not found: /x", load_index=0),))
    tree = {"plugins": {"load": {"paths": ["/x"]}}, "channels": {"telegram": {}}}
    done = migrate_legacy(tree)
    assert [i.message for i in touched_issues(done, ["plugins"], facts)] == ["plugin: plugin path not found: /x"]
    assert [i.message for i in touched_issues(done, ["channels"], facts)] == []


def test_the_config_before_a_write_is_asked_again_only_when_the_registry_speaks(tmp_path: Path) -> None:
    state = tmp_path / "state"
    install = make_install(state)
    asked: list[Any] = []

    def facts(config: Any) -> PluginFacts:
        asked.append(config)
        return plugin_facts(install.paths, config)

    check = GatewayCheck(plugin_facts=facts)
    before: dict[str, Any] = {"plugins": {}}
    clean = {"plugins": {"entries": {}}}
    assert gateway_refusals(migrate_legacy(before), migrate_legacy(clean), ["plugins"], check) == [] and asked == [clean]
    asked.clear()
    broken = {"plugins": {"load": {"paths": ["/gone"]}}}
    assert [i.message for i in gateway_refusals(migrate_legacy(before), migrate_legacy(broken), ["plugins"], check)] == [
        "plugin: plugin path not found: /gone"]
    assert asked == [broken, before]
    assert gateway_refusals(migrate_legacy(broken), migrate_legacy({"plugins": {"load": {"paths": ["/gone"]}, "entries": {}}}),
                            ["plugins"], check) == []


def test_the_verdict_knows_the_plugins_the_registry_holds_not_those_vora_reads(tmp_path: Path) -> None:
    state = tmp_path / "state"
    plugin(state / "extensions" / "any-kind", manifest='{ id: "any-kind", kind: "tools", configSchema: {} }')
    unbuilt = state / "extensions" / "unbuilt"
    unbuilt.mkdir(parents=True)
    (unbuilt / "package.json").write_text('{"name": "unbuilt", "openclaw": {"extensions": ["./dist/index.js"]}}')
    (unbuilt / "openclaw.plugin.json").write_text('{ id: "unbuilt", configSchema: {} }')
    install = make_install(state)
    discovery = discover_plugins(install.paths, {})
    assert {p.id for p in discovery.plugins} >= {"any-kind", "unbuilt"}  # vora's own reader sees both
    facts = facts_of(discovery, install.paths)
    assert [(p.id, p.kind) for p in facts.plugins] == [("any-kind", ("tools",))]
    assert "unbuilt" not in facts.known_ids and "memory-core" in facts.known_ids
