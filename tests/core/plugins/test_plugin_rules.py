"""The plugin rules on the core: ids and their folder names, what a source argument is (a folder, npm,
neither), which plugins are enabled and why, the slot chain's first broken link, npm's compat ranges."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from install_support import make_install
from plugins_support import make_plugin

from vora_cli.core.errors import VoraError
from vora_cli.core.plugins import npm
from vora_cli.core.plugins.discovery import decide_enabled, discover_plugins
from vora_cli.core.plugins.ids import folder_name_for_id, id_problem
from vora_cli.core.plugins.settings import plugins_settings
from vora_cli.core.plugins.slots import check_slot
from vora_cli.core.plugins.sources import SOURCE_DIR, SOURCE_NPM, resolve_source

# -- ids and folder names -----------------------------------------------------------------------

def test_scoped_id_folder_name_is_hashed_exactly_as_the_spec_says() -> None:
    digest = hashlib.sha256(b"@acme/my.engine").hexdigest()[:10]
    assert folder_name_for_id("@acme/my.engine") == f"@acmemy.engine-{digest}"
    assert folder_name_for_id("my-engine") == "my-engine"


@pytest.mark.parametrize("bad", ["", "a/b", "a\\b", ".", "..", "@scope", "@scope/", "@/name", "@a/b/c", "@a/..", " x"])
def test_invalid_ids(bad: str) -> None:
    assert id_problem(bad) is not None


@pytest.mark.parametrize("good", ["my-engine", "lossless-claw", "@acme/engine", "x.y", "123"])
def test_valid_ids(good: str) -> None:
    assert id_problem(good) is None


def test_npm_spec_forms() -> None:
    assert npm.parse_npm_spec("@acme/engine@1.2.3").ref == "1.2.3"
    assert npm.parse_npm_spec("lossless-claw@next").ref == "next"
    assert npm.parse_npm_spec("lossless-claw").ref is None


# -- what a source argument is --------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["@acme/engine", "@acme/engine@1.2.3", "plain-name", "name@1.0.0"])
def test_an_existing_folder_wins_over_the_npm_reading(spec: str, tmp_path: Path) -> None:
    make_plugin(tmp_path / spec, "x")
    resolved = resolve_source(spec, cwd=tmp_path, home=tmp_path)
    assert (resolved.type, resolved.path) == (SOURCE_DIR, tmp_path / spec)


@pytest.mark.parametrize("spec", ["@acme/engine", "@acme/engine@1.2.3", "@a.b/c-d@latest", "plain", "p@2.0.0-rc.1"])
def test_a_missing_path_that_is_an_npm_spec_is_npm(spec: str, tmp_path: Path) -> None:
    resolved = resolve_source(spec, cwd=tmp_path, home=tmp_path)
    assert resolved.type == SOURCE_NPM
    assert resolved.npm is not None and resolved.npm.raw == spec


@pytest.mark.parametrize("spec", ["./@acme/engine", "~/x/engine", "/abs/engine", "file:@acme/engine",
                                  "sub/dir", "engine-1.0.0.tgz", "@acme/engine.zip"])
def test_what_is_written_as_a_path_is_never_sent_to_npm(spec: str, tmp_path: Path) -> None:
    with pytest.raises(VoraError) as caught:
        resolve_source(spec, cwd=tmp_path, home=tmp_path)
    assert caught.value.code == "not_found"


@pytest.mark.parametrize("spec", ["foo@^1.2.0", "a b", "UPPER CASE", "foo@>=1"])
def test_neither_path_nor_spec_is_a_usage_error(spec: str, tmp_path: Path) -> None:
    with pytest.raises(VoraError) as caught:
        resolve_source(spec, cwd=tmp_path, home=tmp_path)
    assert caught.value.code == "usage"


# -- enabled or not, and the slots ------------------------------------------------------------------

@pytest.mark.parametrize("plugins, origin, enabled, reason", [
    ({"enabled": False}, "installed", False, "plugins disabled: plugins.enabled is false"),
    ({"deny": ["p"], "entries": {"p": {"enabled": True}}}, "installed", False, "blocked by denylist: plugins.deny"),
    ({"entries": {"p": {"enabled": False}}, "slots": {"contextEngine": "p"}}, "installed", False,
     'disabled in config: plugins.entries["p"].enabled is false'),
    ({}, "workspace", False,
     'workspace plugin (disabled by default): enable it in plugins.entries["p"] or plugins.allow'),
    ({"allow": ["q"]}, "installed", False, "not in allowlist: plugins.allow"),
    ({"allow": []}, "installed", True, "installed plugins are enabled by default"),
    ({"slots": {"memory": "p"}}, "linked", True, "selected memory slot: plugins.slots.memory"),
    ({"slots": {"contextEngine": "p"}, "allow": ["q"]}, "installed", True,
     "selected context engine slot: plugins.slots.contextEngine"),
    ({"entries": {"p": {"enabled": True}}}, "workspace", True, 'enabled in config: plugins.entries["p"].enabled is true'),
])
def test_enable_decision_rules(plugins: dict, origin: str, enabled: bool, reason: str) -> None:
    decision = decide_enabled("p", origin, plugins_settings({"plugins": plugins}))
    assert (decision.enabled, decision.reason) == (enabled, reason)


def test_slot_checks_name_the_first_broken_link(tmp_path: Path, state_dir: Path) -> None:
    paths = make_install(state_dir).paths

    def check(slot: str, config: dict) -> tuple[bool, str | None]:
        result = check_slot(slot, discover_plugins(paths, config))
        return result.ok, result.broken

    ext = state_dir / "extensions"
    make_plugin(ext / "good", "good")
    make_plugin(ext / "mem", "mem", kind="memory")
    make_plugin(ext / "unbuilt", "unbuilt", built=False)
    make_plugin(ext / "liar", "liar", engine_id="someone-else")
    assert check("contextEngine", {}) == (True, None)
    assert check("memory", {"plugins": {"slots": {"memory": "NONE"}}}) == (True, None)
    assert check("contextEngine", {"plugins": {"slots": {"contextEngine": "missing"}}}) == (False, "installed")
    assert check("contextEngine", {"plugins": {"slots": {"contextEngine": "mem"}}}) == (False, "kind")
    assert check("memory", {"plugins": {"slots": {"memory": "mem"}}}) == (True, None)
    assert check("contextEngine", {"plugins": {"slots": {"contextEngine": "good"}, "deny": ["good"]}}) == (
        False, "enabled")
    assert check("contextEngine", {"plugins": {"slots": {"contextEngine": "unbuilt"}}}) == (False, "entries")
    assert check("contextEngine", {"plugins": {"slots": {"contextEngine": "liar"}}}) == (False, "registers")
    assert check("contextEngine", {"plugins": {"slots": {"contextEngine": "good"}}}) == (True, None)
    (ext / "broken").mkdir()
    (ext / "broken" / "vora.plugin.json").write_text("{ id: 'broken' ")
    assert check("contextEngine", {"plugins": {"slots": {"contextEngine": "broken"}}}) == (False, "valid")
