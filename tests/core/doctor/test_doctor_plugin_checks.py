"""The plugin checks of the doctor, on the core: the slot chain broken at each link, manifests,
stale references, folder permissions (the fix through `vora doctor`: tests/cli/doctor/test_fix.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from doctor_helpers import STALE_PLUGIN_CONFIG, check, make_state, make_state_plugin


def config_with(slots: str = "", plugins_extra: str = "") -> str:
    return f"{{\n  plugins: {{\n    slots: {{ {slots} }},\n{plugins_extra}  }},\n}}\n"


# -- the slot chain, one fixture per link ------------------------------------------------------


def test_slot_built_in_defaults_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path, "{}\n")
    ce = check(state, "slot-context-engine")
    mem = check(state, "slot-memory")
    assert (ce.status, ce.message) == ("pass", "contextEngine: legacy (built in)")
    assert (mem.status, mem.message) == ("pass", "memory: memory-core (built in)")


def test_slot_memory_none_is_a_choice(tmp_path: Path) -> None:
    state = make_state(tmp_path, config_with('memory: "None"'))
    result = check(state, "slot-memory")
    assert result.status == "pass" and "memory disabled by choice" in result.message


def test_slot_whole_chain_passes(tmp_path: Path) -> None:
    state = make_state(tmp_path, config_with('contextEngine: "my-engine"'))
    make_state_plugin(state, "my-engine")
    result = check(state, "slot-context-engine")
    assert result.status == "pass", result.message
    assert result.message.endswith(
        ": its files check out (vora doctor --live asks the running gateway whether it loaded it)")
    assert result.fix is None


def test_slot_link_2_not_installed_with_did_you_mean(tmp_path: Path) -> None:
    state = make_state(tmp_path, config_with('contextEngine: "my-engin"'))
    make_state_plugin(state, "my-engine")
    result = check(state, "slot-context-engine")
    assert result.status == "error"
    assert "my-engin is not installed (did you mean my-engine?)" in result.message
    assert result.fix is not None and result.fix.command == "vora config set plugins.slots.contextEngine my-engine"
    assert result.fix.description == "select my-engine, which is installed"
    assert result.fix.alternatives == ("vora plugins install SOURCE", "vora config set plugins.slots.contextEngine legacy")
    assert result.details == ()  # the message says it all: no "first broken link: installed"
    assert "running gateway" not in result.message  # a failure line ends with what is wrong


def test_slot_memory_not_installed_without_a_near_id(tmp_path: Path) -> None:
    state = make_state(tmp_path, config_with('memory: "vector-store"'))
    result = check(state, "slot-memory")
    assert result.status == "error"
    assert result.details == ()
    assert result.fix is not None and result.fix.command == "vora plugins install SOURCE"
    assert result.fix.description == (
        "install vector-store (SOURCE: its folder, archive or npm spec), or select the built-in memory-core")
    assert result.fix.alternatives == ("vora config set plugins.slots.memory memory-core",)


def test_slot_link_3_invalid_manifest(tmp_path: Path) -> None:
    state = make_state(tmp_path, config_with('contextEngine: "my-engine"'))
    make_state_plugin(state, "my-engine", manifest='{ id: "my-engine", kind: "context-engine" }\n')
    result = check(state, "slot-context-engine")
    assert result.status == "error" and result.details == ()
    assert result.fix is not None and result.fix.command == "vora plugins inspect my-engine"


def test_slot_link_4_wrong_kind(tmp_path: Path) -> None:
    state = make_state(tmp_path, config_with('memory: "my-engine"'))
    make_state_plugin(state, "my-engine", kind="context-engine")
    result = check(state, "slot-memory")
    assert result.status == "error"
    assert "is not a memory plugin" in result.message
    manifest = state / "extensions" / "my-engine" / "vora.plugin.json"
    assert result.fix is not None and result.fix.command == f"$EDITOR {manifest}"
    assert result.fix.description == f'add "kind": "memory" to {manifest}, or select the built-in memory-core'
    assert result.fix.alternatives == ("vora config set plugins.slots.memory memory-core",)


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ('    entries: { "my-engine": { enabled: false } },\n',
         'disabled in config: plugins.entries["my-engine"].enabled is false'),
        ('    deny: ["my-engine"],\n', "blocked by denylist: plugins.deny"),
        ("    enabled: false,\n", "plugins disabled: plugins.enabled is false"),
    ],
)
def test_slot_link_5_disabled_names_the_reason(tmp_path: Path, extra: str, reason: str) -> None:
    state = make_state(tmp_path, config_with('contextEngine: "my-engine"', extra))
    make_state_plugin(state, "my-engine")
    result = check(state, "slot-context-engine")
    assert result.status == "error" and result.details == ()
    assert reason in result.message
    assert result.fix is not None and result.fix.command == "vora plugins enable my-engine"


def test_slot_link_6_unbuilt_linked_plugin(tmp_path: Path) -> None:
    state = make_state(tmp_path, config_with('contextEngine: "dev-engine"', '    load: { paths: ["../src/dev-engine"] },\n'))
    make_state_plugin(state, "dev-engine", built=False, folder=tmp_path / "src" / "dev-engine")
    result = check(state, "slot-context-engine")
    assert result.status == "error"
    assert "./dist/index.js" in result.message
    assert result.fix is not None and result.fix.command == f"npm run build --prefix {tmp_path / 'src' / 'dev-engine'}"


def test_slot_link_7_no_static_registration_is_a_warn(tmp_path: Path) -> None:
    state = make_state(tmp_path, config_with('contextEngine: "my-engine"'))
    make_state_plugin(state, "my-engine", registers="")
    result = check(state, "slot-context-engine")
    assert result.status == "warn" and result.details == ()
    entry = state / "extensions" / "my-engine" / "dist" / "index.js"
    assert result.fix is not None and result.fix.command == f"$EDITOR {entry}"
    assert result.fix.description == f'call api.registerContextEngine("my-engine", ...) in {entry}'


# -- plugin-manifests --------------------------------------------------------------------------


def test_plugin_manifests_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path, "{}\n")
    make_state_plugin(state, "a")
    make_state_plugin(state, "b", kind="memory")
    result = check(state, "plugin-manifests")
    assert (result.status, result.message) == ("pass", "2 plugins found, every manifest valid")


@pytest.mark.parametrize("broken", ["no-schema", "bad-kind", "unbuilt"])
def test_plugin_manifests_error(tmp_path: Path, broken: str) -> None:
    state = make_state(tmp_path, "{}\n")
    if broken == "no-schema":
        make_state_plugin(state, "a", manifest='{ id: "a" }\n')
    elif broken == "bad-kind":
        make_state_plugin(state, "a", manifest='{ id: "a", kind: "router", configSchema: {} }\n')
    else:
        make_state_plugin(state, "a", built=False)
    result = check(state, "plugin-manifests")
    assert result.status == "error", result.message
    assert result.fix is not None and result.fix.command == "vora plugins inspect a"


# -- plugin-permissions ------------------------------------------------------------------------


def test_plugin_permissions(tmp_path: Path) -> None:
    state = make_state(tmp_path, "{}\n")
    root = make_state_plugin(state, "a")
    assert check(state, "plugin-permissions").status == "pass"
    os.chmod(root, 0o777)
    result = check(state, "plugin-permissions")
    assert result.status == "warn"
    assert result.fix is not None and result.fix.command == f"chmod go-w {root}"


def test_plugin_references_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path, '{ plugins: { allow: ["keep"], entries: { keep: {} } } }\n')
    make_state_plugin(state, "keep")
    assert check(state, "plugin-references").status == "pass"


def test_plugin_references_warn_lists_each_stale_reference(tmp_path: Path) -> None:
    state = make_state(tmp_path, STALE_PLUGIN_CONFIG)
    make_state_plugin(state, "keep")
    result = check(state, "plugin-references")
    assert result.status == "warn"
    assert set(result.details) == {
        "plugins.entries names gone-a, which is not installed",
        "plugins.allow lists gone-b, which is not installed",
        "plugins.allow lists gone-a, which is not installed",
        "plugins.deny lists gone-c, which is not installed",
        "plugins.load.paths has ./dev/missing-plugin, which does not exist",
    }
    assert result.fix is not None and result.fix.kind == "config"
