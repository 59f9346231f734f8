"""`vora plugins list/inspect/enable/disable/use/uninstall/update/init`, discovery and slots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plugins_support import CONFIG_TEXT, make_plugin, tar_of, write_config

from vora_cli.core.config.loading import load_config
from vora_cli.core.json5 import parser as json5_parser
from vora_cli.core.paths import resolve_paths
from vora_cli.core.plugins import npm
from vora_cli.core.plugins.discovery import discover_plugins
from vora_cli.core.plugins.settings import SLOT_KEYS
from vora_cli.core.plugins.slots import check_slot


def config_of(state_dir: Path) -> dict:
    return json5_parser.loads((state_dir / "vora.json").read_text())


def installed(tmp_path: Path, state_dir: Path, vora, plugin_id: str = "my-engine", **kw: object) -> Path:
    plugin = make_plugin(tmp_path / "src" / plugin_id.replace("/", "_"), plugin_id, **kw)  # type: ignore[arg-type]
    result = vora("plugins", "install", str(plugin))
    assert result.exit_code == 0, result.stderr
    return plugin


# -- the seeds' flow: init -> install -l -> use -> slot check ---------------------------------------

def test_init_link_use_flow(tmp_path: Path, state_dir: Path, vora, monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(state_dir)
    monkeypatch.chdir(tmp_path)
    init = vora("plugins", "init", "lossless-claw", "--id", "lossless-claw")
    assert init.exit_code == 0, init.stderr
    assert init.stdout == f"Created context-engine plugin lossless-claw in {tmp_path / 'lossless-claw'}\n"
    link = vora("plugins", "install", "-l", "./lossless-claw")
    assert link.exit_code == 0, link.stderr
    assert "warning" not in link.stderr  # the scaffold is accepted as is: no missing entry
    use = vora("plugins", "use", "lossless-claw")
    assert use.exit_code == 0
    assert use.stdout.startswith("contextEngine: legacy -> lossless-claw\n")
    paths = resolve_paths()
    discovery = discover_plugins(paths, load_config(paths).value)
    checks = [check_slot(slot, discovery) for slot in SLOT_KEYS]
    assert [c.ok for c in checks] == [True, True]
    assert checks[0].value == "lossless-claw" and checks[0].plugin_id == "lossless-claw"
    listing = vora("plugins", "list", "--json").json()["plugins"]
    assert [(p["id"], p["origin"], p["status"], p["slots"]) for p in listing] == [
        ("lossless-claw", "linked", "enabled", ["contextEngine"])]
    # ... and the seeds' last step: "use vora doctor to verify your engine is loading correctly".
    doctor = vora("doctor", "--only", "slot-context-engine,plugin-manifests", "--json")
    assert doctor.exit_code == 0, doctor.stdout
    slot = next(c for c in doctor.json()["checks"] if c["id"] == "slot-context-engine")
    assert slot["status"] == "pass" and "lossless-claw" in slot["message"]


def test_init_memory_plugin_and_refusals(tmp_path: Path, vora) -> None:
    result = vora("plugins", "init", str(tmp_path / "mem"), "--id", "my-mem", "--kind", "memory", "--json")
    assert result.exit_code == 0
    manifest = json.loads((tmp_path / "mem" / "vora.plugin.json").read_text())
    assert manifest["kind"] == "memory" and manifest["configSchema"]["type"] == "object"
    assert sorted(p.name for p in (tmp_path / "mem").iterdir()) == ["README.md", "dist", "package.json", "vora.plugin.json"]
    assert vora("plugins", "init", str(tmp_path / "mem"), "--id", "x").exit_code == 1  # not empty
    assert vora("plugins", "init", str(tmp_path / "y"), "--id", "a/b").exit_code == 1
    assert vora("plugins", "init", str(tmp_path / "z"), "--id", "z", "--kind", "tool").exit_code == 2


# -- list --------------------------------------------------------------------------------------------

def test_list_shows_origins_links_and_dangling(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora, "copy-engine")
    linked = make_plugin(tmp_path / "dev" / "linked-engine", "linked-engine")
    assert vora("plugins", "install", "-l", str(linked)).exit_code == 0
    gone = make_plugin(tmp_path / "dev" / "gone-engine", "gone-engine")
    assert vora("plugins", "install", "-l", str(gone)).exit_code == 0
    for child in gone.rglob("*"):
        if child.is_file():
            child.unlink()
    for child in sorted(gone.rglob("*"), reverse=True):
        child.rmdir()
    gone.rmdir()
    result = vora("plugins", "list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["ID", "NAME", "KIND", "STATUS", "SLOT", "ORIGIN", "VERSION", "PATH"]
    # a link whose path is its own target: the path once, never `X -> X` (issue 38)
    assert any("linked-engine" in line and line.rstrip().endswith(str(linked)) and " -> " not in line
               for line in lines)
    assert any("gone-engine" in line and "error" in line and "(dangling)" in line for line in lines)
    assert any("copy-engine" in line and "installed" in line for line in lines)
    assert "dangling link" in result.stderr
    enabled = vora("plugins", "list", "--enabled", "--json").json()["plugins"]
    assert sorted(p["id"] for p in enabled) == ["copy-engine", "linked-engine"]
    verbose = vora("plugins", "list", "--verbose")
    assert "REASON" in verbose.stdout.splitlines()[0]
    assert 'plugins.entries["copy-engine"].enabled is true' in verbose.stdout


def test_list_empty(state_dir: Path, vora) -> None:
    result = vora("plugins", "list")
    assert result.exit_code == 0 and result.stdout == "No plugins found.\n"
    assert vora("plugins", "list", "--json").json() == {"plugins": [], "shadowed": []}


def test_first_seen_wins_link_over_installed_copy(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora, "my-engine")
    dev = make_plugin(tmp_path / "dev" / "my-engine", "my-engine", version="9.9.9")
    assert vora("plugins", "install", "-l", str(dev)).exit_code == 0
    data = vora("plugins", "list", "--json").json()
    assert [(p["origin"], p["version"]) for p in data["plugins"]] == [("linked", "9.9.9")]
    assert [p["origin"] for p in data["shadowed"]] == ["installed"]


def test_workspace_plugins_need_explicit_enable(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir, '{ agents: { defaults: { workspace: "./ws" } } }')
    make_plugin(state_dir / "ws" / ".vora" / "extensions" / "ws-engine", "ws-engine")
    row = vora("plugins", "list", "--json").json()["plugins"][0]
    assert (row["origin"], row["status"]) == ("workspace", "disabled")
    assert row["reason"] == ('workspace plugin (disabled by default): '
                             'enable it in plugins.entries["ws-engine"] or plugins.allow')
    assert vora("plugins", "enable", "ws-engine").exit_code == 0
    assert vora("plugins", "list", "--json").json()["plugins"][0]["status"] == "enabled"


# -- inspect ---------------------------------------------------------------------------------------

def test_inspect_shows_everything(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora)
    data = vora("plugins", "inspect", "my-engine", "--json").json()
    assert data["id"] == "my-engine" and data["manifest"]["configSchema"] == {"type": "object"}
    assert data["entries"][0]["exists"] is True
    assert data["install"]["source"] == "path"
    assert data["decision"]["enabled"] is True
    assert data["slotChecks"][0]["slot"] == "contextEngine" and data["slotChecks"][0]["value"] == "legacy"
    human = vora("plugins", "info", "my-engine")
    assert "status:   enabled" in human.stdout and "entry:    ./dist/index.js (present)" in human.stdout


def test_unknown_ids_get_did_you_mean(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora)
    for command in (["inspect"], ["enable"], ["disable"], ["use"], ["uninstall", "--yes"]):
        result = vora("plugins", *command, "my-engin", "--json")
        assert result.exit_code == 1
        error = result.json()["error"]
        assert error["code"] == "not_found" and error["hint"] == "did you mean 'my-engine'?", (command, error)


# -- enable / disable / use ---------------------------------------------------------------------------

def test_disable_then_enable(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora)
    assert vora("plugins", "use", "my-engine").exit_code == 0
    off = vora("plugins", "disable", "my-engine")
    assert off.exit_code == 0
    assert 'Set plugins.entries["my-engine"].enabled = false' in off.stdout
    assert "still selected in plugins.slots.contextEngine" in off.stderr
    assert config_of(state_dir)["plugins"]["entries"]["my-engine"]["enabled"] is False
    paths = resolve_paths()
    check = check_slot("contextEngine", discover_plugins(paths, load_config(paths).value))
    assert (check.ok, check.broken, check.fix) == (False, "enabled", "vora plugins enable my-engine")
    dry = vora("plugins", "enable", "my-engine", "--dry-run")
    assert "Dry run" in dry.stderr and config_of(state_dir)["plugins"]["entries"]["my-engine"]["enabled"] is False
    assert vora("plugins", "enable", "my-engine").exit_code == 0
    assert config_of(state_dir)["plugins"]["entries"]["my-engine"]["enabled"] is True


def test_use_slot_rules_for_both_kinds(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora, "both", kind=["context-engine", "memory"])
    installed(tmp_path, state_dir, vora, "mem", kind="memory")
    installed(tmp_path, state_dir, vora, "nokind", kind=None)
    assert vora("plugins", "use", "both").exit_code == 2  # ambiguous: --slot needed
    result = vora("plugins", "use", "both", "--slot", "memory", "--json")
    assert result.exit_code == 0 and (result.json()["old"], result.json()["new"]) == ("memory-core", "both")
    assert vora("plugins", "use", "mem").stdout.startswith("memory: both -> mem\n")
    wrong = vora("plugins", "use", "mem", "--slot", "contextEngine")
    assert wrong.exit_code == 1 and "its kind is memory, not context-engine" in wrong.stderr
    assert vora("plugins", "use", "nokind").exit_code == 1
    assert vora("plugins", "use", "mem", "--slot", "bogus").exit_code == 2
    assert config_of(state_dir)["plugins"]["slots"] == {"memory": "mem"}


@pytest.mark.parametrize("slot", ["context-engine", "contextEngine", "Context-Engine"])
def test_use_names_a_slot_by_its_key_or_by_its_kind(tmp_path: Path, state_dir: Path, vora, slot: str) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora, "both", kind=["context-engine", "memory"])
    result = vora("plugins", "use", "both", "--slot", slot, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["slot"] == "contextEngine"
    assert config_of(state_dir)["plugins"]["slots"] == {"contextEngine": "both"}
    refused = vora("plugins", "use", "both", "--slot", "context")
    assert refused.stderr.splitlines() == [
        "error: unknown slot 'context'", "hint: use --slot contextEngine (or context-engine) or --slot memory"]


# -- uninstall ---------------------------------------------------------------------------------------

def test_uninstall_installed_copy_round_trip(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir, '{\n  plugins: {\n    allow: ["my-engine"],\n    deny: ["other"],\n  },\n}\n')
    installed(tmp_path, state_dir, vora)
    assert vora("plugins", "use", "my-engine").exit_code == 0
    dry = vora("plugins", "uninstall", "my-engine", "--dry-run")
    assert dry.exit_code == 0
    assert 'Would remove plugins.entries["my-engine"]' in dry.stdout
    assert 'Would remove plugins.installs["my-engine"]' in dry.stdout
    # the only plugin allowed stays named: an empty allow list would let every plugin load
    assert "Would remove plugins.allow" not in dry.stdout
    assert "plugins.allow still names my-engine: it is the only plugin allowed" in dry.stdout + dry.stderr
    assert "contextEngine: my-engine -> legacy" in dry.stdout
    assert f"Would delete {state_dir / 'extensions' / 'my-engine'}" in dry.stdout
    assert (state_dir / "extensions" / "my-engine").is_dir()
    no_tty = vora("plugins", "uninstall", "my-engine")
    assert no_tty.exit_code == 1 and "--yes" in no_tty.stderr
    done = vora("plugins", "uninstall", "my-engine", "--yes", "--json")
    assert done.exit_code == 0 and done.json()["deleted"] is True
    plugins = config_of(state_dir)["plugins"]
    assert plugins["allow"] == ["my-engine"] and plugins["deny"] == ["other"]
    assert plugins["entries"] == {} and plugins["installs"] == {}
    assert plugins["slots"] == {"contextEngine": "legacy"}


@pytest.mark.parametrize(("allow", "left"), [(["my-engine", "lobster"], ["lobster"]),
                                             (["My-Engine", " my-engine ", "Lobster"], ["My-Engine", "Lobster"]),
                                             ([" my-engine ", "  "], [" my-engine ", "  "])])
def test_uninstall_removes_the_plugin_from_the_allow_list_unless_that_empties_it(
        tmp_path: Path, state_dir: Path, vora, allow: list, left: list) -> None:
    write_config(state_dir, json.dumps({"plugins": {"allow": allow}}))
    installed(tmp_path, state_dir, vora)
    done = vora("plugins", "uninstall", "my-engine", "--yes")
    assert done.exit_code == 0, done.stderr
    assert config_of(state_dir)["plugins"]["allow"] == left  # an installed plugin's id keeps its case
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())


def test_uninstall_link_never_touches_the_source(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    dev = make_plugin(tmp_path / "dev" / "my-engine")
    files_before = sorted(p.relative_to(dev) for p in dev.rglob("*"))
    assert vora("plugins", "install", "-l", str(dev), "--use").exit_code == 0
    result = vora("plugins", "uninstall", "my-engine", "--yes")
    assert result.exit_code == 0, result.stderr
    assert f"Removed plugins.load.paths: {dev}" in result.stdout and f"Kept {dev}" in result.stdout
    assert sorted(p.relative_to(dev) for p in dev.rglob("*")) == files_before
    plugins = config_of(state_dir)["plugins"]
    assert plugins["load"]["paths"] == [] and plugins["slots"]["contextEngine"] == "legacy"
    # and back again: the round trip leaves an equivalent config
    assert vora("plugins", "install", "-l", str(dev)).exit_code == 0
    assert config_of(state_dir)["plugins"]["load"]["paths"] == [str(dev)]


def test_uninstall_keep_files_and_config_failure_restores_folder(tmp_path: Path, state_dir: Path, vora,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from vora_cli.core.errors import VoraError
    from vora_cli.core.plugins import uninstall

    write_config(state_dir)
    installed(tmp_path, state_dir, vora)
    before = (state_dir / "vora.json").read_bytes()

    def fail(*_a: object, **_k: object) -> None:
        raise VoraError("conflict", "injected conflict")

    with monkeypatch.context() as patch:
        patch.setattr(uninstall, "apply_config_edits", fail)
        result = vora("plugins", "uninstall", "my-engine", "--yes")
    assert result.exit_code == 3
    assert (state_dir / "extensions" / "my-engine" / "dist" / "index.js").is_file()
    assert sorted(p.name for p in (state_dir / "extensions").iterdir()) == ["my-engine"]
    assert (state_dir / "vora.json").read_bytes() == before
    kept = vora("plugins", "uninstall", "my-engine", "--yes", "--keep-files")
    assert kept.exit_code == 0
    assert (state_dir / "extensions" / "my-engine").is_dir()
    assert config_of(state_dir)["plugins"]["installs"] == {}


def test_scoped_plugin_install_list_uninstall(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora, "@acme/engine")
    folder = next((state_dir / "extensions").iterdir())
    assert folder.name.startswith("@acmeengine-") and len(folder.name) == len("@acmeengine-") + 10
    assert vora("plugins", "list", "--json").json()["plugins"][0]["id"] == "@acme/engine"
    assert vora("plugins", "uninstall", "@acme/engine", "--yes").exit_code == 0
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())


# -- update ------------------------------------------------------------------------------------------

def test_update_npm_install(tmp_path: Path, state_dir: Path, vora, monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(state_dir)
    versions = {"v": "1.2.0", "integrity": "sha512-one"}

    def fake_pack(spec: str, dest: Path) -> npm.PackResult:
        version = versions["v"]
        src = make_plugin(tmp_path / f"registry-{version}" / "claw", "claw", version=version)
        tarball = tar_of(src, dest / f"claw-{version}.tgz")
        return npm.PackResult(tarball, "claw", version, versions["integrity"], None)

    monkeypatch.setattr(npm, "npm_pack", fake_pack)
    assert vora("plugins", "install", "claw").exit_code == 0
    assert vora("plugins", "disable", "claw").exit_code == 0
    assert vora("plugins", "update", "claw").stdout == "claw: up to date (1.2.0)\n"
    versions["integrity"] = "sha512-two"
    drift = vora("plugins", "update", "claw")
    assert "integrity" in drift.stderr and "differs" in drift.stderr
    versions["v"] = "1.3.0"
    dry = vora("plugins", "update", "--all", "--dry-run")
    assert dry.stdout.startswith("claw: 1.2.0 -> 1.3.0 (dry run)")
    assert config_of(state_dir)["plugins"]["installs"]["claw"]["resolvedVersion"] == "1.2.0"
    real = vora("plugins", "update", "claw")
    assert real.exit_code == 0, real.stderr
    assert real.stdout.startswith("claw: 1.2.0 -> 1.3.0\n")
    plugins = config_of(state_dir)["plugins"]
    assert plugins["installs"]["claw"]["resolvedVersion"] == "1.3.0"
    assert plugins["entries"]["claw"]["enabled"] is False  # update keeps the operator's choice
    assert json.loads((state_dir / "extensions" / "claw" / "package.json").read_text())["version"] == "1.3.0"


def test_update_skips_path_installs_and_needs_a_target(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora)
    result = vora("plugins", "update", "--all", "--json")
    assert result.json()["plugins"][0]["status"] == "skipped"
    assert "local path" in result.json()["plugins"][0]["reason"]
    assert vora("plugins", "update").exit_code == 2


def test_every_writing_command_leaves_config_alone_on_dry_run(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    installed(tmp_path, state_dir, vora)
    before = (state_dir / "vora.json").read_bytes()
    for args in (["enable", "my-engine"], ["disable", "my-engine"], ["use", "my-engine"],
                 ["uninstall", "my-engine"], ["update", "--all"]):
        result = vora("plugins", *args, "--dry-run", "--json")
        assert result.exit_code == 0, (args, result.stdout)
        json.loads(result.stdout)
        assert (state_dir / "vora.json").read_bytes() == before, args
    assert CONFIG_TEXT.splitlines()[0] in before.decode()


# -- what the list and the slot commands show (issue 38) -------------------------------------------

def _example(tmp_path: Path) -> Path:
    import shutil

    from conftest import EXAMPLES

    shutil.copytree(EXAMPLES / "vora", tmp_path / "vora")
    shutil.copytree(EXAMPLES / "plugins", tmp_path / "plugins")
    return tmp_path / "vora"


def test_list_marks_the_plugin_each_slot_selects(vora, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    state = _example(tmp_path)
    lines = vora("--state-dir", str(state), "plugins", "list").stdout.splitlines()
    assert lines[0].split()[:5] == ["ID", "NAME", "KIND", "STATUS", "SLOT"]
    # a link whose path is its own target is shown once, never `X -> X`
    plugin = str(tmp_path / "plugins" / "my-engine")
    assert lines[1].rstrip().endswith(plugin) and f"{plugin} -> {plugin}" not in lines[1]
    inspected = vora("--state-dir", str(state), "plugins", "inspect", "my-engine").stdout
    assert f"  path:     {plugin}\n" in inspected
    bare = vora("--state-dir", str(state), "plugins", "list", "--no-headers").stdout
    assert bare.split("\t")[4] == "contextEngine"


def test_selecting_the_selected_plugin_says_so(vora, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    state = _example(tmp_path)
    run = vora("--state-dir", str(state), "plugins", "use", "my-engine")
    assert run.stdout == "contextEngine: my-engine (already selected; nothing to change)\n"
    other = make_plugin(tmp_path / "dev" / "other-engine", "other-engine")
    assert vora("--state-dir", str(state), "plugins", "install", "-l", str(other)).exit_code == 0
    dry = vora("--state-dir", str(state), "plugins", "use", "other-engine", "--dry-run")
    assert dry.stdout.splitlines()[-1] == "Would change contextEngine: my-engine -> other-engine", dry.stdout


@pytest.mark.parametrize("config", ["{}\n", '{ plugins: { slots: { memory: "memory-core" } } }\n'])
def test_selecting_what_the_slot_holds_writes_nothing(vora, tmp_path: Path, config: str) -> None:  # type: ignore[no-untyped-def]
    """Set or by default: no `memory-core -> memory-core`, no write, no backup."""
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text(config)
    run = vora("--state-dir", str(state), "plugins", "use", "memory-core")
    assert (run.exit_code, run.stdout) == (0, "memory: memory-core (already selected; nothing to change)\n")
    assert "No change to the config" in run.stderr and "Wrote" not in run.stderr
    assert (state / "vora.json").read_text() == config and not (state / "vora.json.bak").exists()
    doc = vora("--state-dir", str(state), "plugins", "use", "memory-core", "--json").json()
    assert (doc["old"], doc["new"], doc["config"]["changed"], doc["config"]["files"]) == ("memory-core", "memory-core",
                                                                                        False, [])
