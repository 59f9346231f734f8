"""`vora plugins install`: sources, records, slots, --force, --link, dry runs and rollback.

Issue 12 points 14 and 10: an id discovery would skip, or the file system would refuse, is
refused at install (copy and link alike) with nothing copied or recorded; a copy that a link or
a workspace plugin of the same id would hide is refused too.
"""

from __future__ import annotations

import json
import shutil
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import (
    CONFIG_TEXT,
    DEEP,
    add_tar_bytes,
    make_plugin,
    pack_tiny_dep,
    snapshot,
    tar_of,
    write_config,
)

from tests.conftest import Run
from vora_cli.core import trees
from vora_cli.core.errors import VoraError
from vora_cli.core.json5 import parser as json5_parser
from vora_cli.core.plugins import copying, install_commit, npm


def config_of(state_dir: Path) -> dict:
    return json5_parser.loads((state_dir / "vora.json").read_text())


# -- directory installs -------------------------------------------------------------------------

def test_install_folder_records_everything_and_keeps_comments(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "my-engine")
    result = vora("plugins", "install", str(plugin))
    target = state_dir / "extensions" / "my-engine"
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"Installed plugin my-engine (0.1.0) -> {target}\nRestart the gateway to load it.\n"
    assert "plugins.slots.contextEngine is legacy; to select my-engine: vora plugins use my-engine" in result.stderr
    assert f"Wrote {state_dir / 'vora.json'}" in result.stderr
    assert "Copying" not in result.stderr  # progress only when stderr is a terminal
    text = (state_dir / "vora.json").read_text()
    assert text.startswith("// vora.json for the plugins tests") and "// keep me" in text
    plugins = config_of(state_dir)["plugins"]
    assert plugins["entries"] == {"my-engine": {"enabled": True}}
    record = plugins["installs"]["my-engine"]
    assert record["source"] == "path" and record["spec"] == str(plugin)
    assert record["sourcePath"] == str(plugin) and record["installPath"] == str(target)
    assert record["version"] == "0.1.0" and record["installedAt"].endswith("Z")
    assert "slots" not in plugins  # never changed silently
    assert (target / "dist" / "index.js").is_file()
    assert sorted(p.name for p in (state_dir / "extensions").iterdir()) == ["my-engine"]


def test_install_with_use_selects_the_slot(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", str(make_plugin(tmp_path / "my-engine")), "--use")
    assert result.exit_code == 0, result.stderr
    assert "contextEngine: legacy -> my-engine\n" in result.stdout
    assert config_of(state_dir)["plugins"]["slots"] == {"contextEngine": "my-engine"}


def test_install_memory_plugin_with_use(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", str(make_plugin(tmp_path / "mem", "my-mem", kind="memory")), "--use", "--json")
    assert result.exit_code == 0, result.stdout
    assert result.json()["slotChanges"] == [{"slot": "memory", "old": "memory-core", "new": "my-mem"}]
    assert config_of(state_dir)["plugins"]["slots"] == {"memory": "my-mem"}


def test_install_without_kind_warns_when_it_looks_like_an_engine(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", str(make_plugin(tmp_path / "e", "fast-engine", kind=None)))
    assert result.exit_code == 0
    assert 'has no "kind": the slot cannot be set automatically' in result.stderr


def test_allow_list_gets_the_id_appended(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir, '{\n  plugins: {\n    allow: [\n      "other", // the old one\n    ], // only these\n  },\n}\n')
    assert vora("plugins", "install", str(make_plugin(tmp_path / "my-engine"))).exit_code == 0
    assert config_of(state_dir)["plugins"]["allow"] == ["other", "my-engine"]
    text = (state_dir / "vora.json").read_text()
    assert "// only these" in text and '"other", // the old one' in text


@pytest.mark.parametrize("config, reason", [
    ("{ plugins: { enabled: false } }", "plugins.enabled is false"),
    ('{ plugins: { deny: ["my-engine"] } }', "plugins.deny"),
])
def test_policy_refuses_before_copying(tmp_path: Path, state_dir: Path, vora, config: str, reason: str) -> None:
    path = write_config(state_dir, config)
    (state_dir / "extensions").mkdir()
    result = vora("plugins", "install", str(make_plugin(tmp_path / "my-engine")), "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "refused" and reason in result.json()["error"]["message"]
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())
    assert path.read_text() == config


def test_existing_plugin_needs_force(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "my-engine")
    assert vora("plugins", "install", str(plugin)).exit_code == 0
    before = (state_dir / "vora.json").read_bytes()
    result = vora("plugins", "install", str(plugin))
    assert result.exit_code == 1
    assert f"error: plugin already exists: {state_dir / 'extensions' / 'my-engine'}" in result.stderr
    assert "--force" in result.stderr
    assert (state_dir / "vora.json").read_bytes() == before


def test_force_replaces_the_old_copy(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    assert vora("plugins", "install", str(make_plugin(tmp_path / "v1" / "my-engine"))).exit_code == 0
    result = vora("plugins", "install", str(make_plugin(tmp_path / "v2" / "my-engine", version="0.2.0")), "--force")
    assert result.exit_code == 0, result.stderr
    assert "(0.2.0)" in result.stdout
    assert json.loads((state_dir / "extensions" / "my-engine" / "package.json").read_text())["version"] == "0.2.0"
    assert sorted(p.name for p in (state_dir / "extensions").iterdir()) == ["my-engine"]
    assert config_of(state_dir)["plugins"]["installs"]["my-engine"]["version"] == "0.2.0"


def test_single_file_install(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    script = tmp_path / "tiny.js"
    script.write_text("export default function register(api) {}\n")
    result = vora("plugins", "install", str(script), "--json")
    assert result.exit_code == 0, result.stdout
    assert result.json()["id"] == "tiny"
    assert (state_dir / "extensions" / "tiny.js").read_text() == script.read_text()
    list_result = vora("plugins", "list", "--json")
    assert [p["id"] for p in list_result.json()["plugins"]] == ["tiny"]


@pytest.mark.parametrize("prefix", ["file:", "file://"])
def test_file_specs(tmp_path: Path, state_dir: Path, vora, prefix: str) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "my-engine")
    result = vora("plugins", "install", f"{prefix}{plugin}", "--json")
    assert result.exit_code == 0, result.stdout
    assert result.json()["record"]["spec"] == f"{prefix}{plugin}"


def test_dry_run_writes_nothing_and_shows_the_diff(tmp_path: Path, state_dir: Path, vora) -> None:
    config = write_config(state_dir)
    result = vora("plugins", "install", str(make_plugin(tmp_path / "my-engine")), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert '+    installs: {' in result.stdout  # bare keys, like the file's own
    assert "Would install plugin my-engine (0.1.0)" in result.stdout
    assert "Dry run: nothing was written." in result.stderr
    assert config.read_text() == CONFIG_TEXT
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())


@pytest.mark.parametrize("problem, manifest, package, message", [
    ("no-configSchema", '{id: "x"}', None, 'vora.plugin.json: missing "configSchema"'),
    ("bad-kind", '{id: "x", configSchema: {}, kind: "engine"}', None, 'vora.plugin.json: "kind" must be'),
    ("no-extensions", None, '{"name": "x"}', 'package.json: neither "vora.extensions" nor "openclaw.extensions" is there'),
    ("entry-outside", None, '{"name": "x", "vora": {"extensions": ["../evil.js"]}}', "leaves the plugin root"),
])
def test_manifest_errors_name_file_and_field(tmp_path: Path, state_dir: Path, vora, problem: str,
                                              manifest: str | None, package: str | None, message: str) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "x", "x")
    if manifest:
        (plugin / "vora.plugin.json").write_text(manifest)
    if package:
        (plugin / "package.json").write_text(package)
    result = vora("plugins", "install", str(plugin))
    assert result.exit_code == 1
    assert message in result.stderr
    assert config_of(state_dir) == json5_parser.loads(CONFIG_TEXT)


def test_unbuilt_plugin_is_refused_for_copy_installs(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", str(make_plugin(tmp_path / "my-engine", built=False)))
    assert result.exit_code == 1
    assert "package.json: entry file not found: ./dist/index.js" in result.stderr


def test_npm_name_differs_from_manifest_id(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", str(make_plugin(tmp_path / "p", "my-engine", name="@acme/vora-my-engine")))
    assert result.exit_code == 0
    assert 'the npm package name "@acme/vora-my-engine" differs' in result.stderr


# -- npm specs ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("spec", "exit_code", "code"), [
    ("foo@^1.2.0", 2, "usage"), ("foo@>=1", 2, "usage"), ("a b", 2, "usage"),
    # holding a `/` and not a scoped npm spec: read as a path, which is not there
    ("git+https://x/y.git", 1, "not_found"), ("https://x/y.tgz", 1, "not_found"), ("user/repo#main", 1, "not_found"),
])
def test_npm_spec_refusals(state_dir: Path, vora, spec: str, exit_code: int, code: str) -> None:
    result = vora("plugins", "install", spec, "--json")
    assert (result.exit_code, result.json()["error"]["code"]) == (exit_code, code)


def test_missing_npm_is_explained(state_dir: Path, vora, monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(state_dir)
    monkeypatch.setenv("PATH", "/nonexistent")
    result = vora("plugins", "install", "lossless-claw", "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "external"
    assert "npm is not on PATH" in result.json()["error"]["message"]
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())


def test_npm_install_uses_pack_and_records_resolution(tmp_path: Path, state_dir: Path, vora,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The npm path without a registry: `npm_pack` is replaced by a real tarball of a local folder."""
    from plugins_support import tar_of

    write_config(state_dir)
    tarball = tar_of(make_plugin(tmp_path / "src" / "lossless-claw", "lossless-claw", version="1.2.0"),
                     tmp_path / "lossless-claw-1.2.0.tgz")

    def fake_pack(spec: str, dest: Path) -> npm.PackResult:
        assert spec == "lossless-claw@1.2.0"
        return npm.PackResult(tarball, "lossless-claw", "1.2.0", "sha512-abc", "deadbeef")

    monkeypatch.setattr(npm, "npm_pack", fake_pack)
    result = vora("plugins", "install", "lossless-claw@1.2.0", "--json")
    assert result.exit_code == 0, result.stdout
    record = config_of(state_dir)["plugins"]["installs"]["lossless-claw"]
    assert record["source"] == "npm" and record["spec"] == "lossless-claw@1.2.0"
    assert record["resolvedName"] == "lossless-claw" and record["resolvedVersion"] == "1.2.0"
    assert record["integrity"] == "sha512-abc" and record["shasum"] == "deadbeef"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_production_dependencies_are_installed_in_the_staged_copy(tmp_path: Path, state_dir: Path, vora,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("npm_config_offline", "true")
    write_config(state_dir)
    pack_tiny_dep(tmp_path)
    plugin = make_plugin(tmp_path / "with-deps", "with-deps",
                         dependencies={"tiny-dep": f"file:{tmp_path / 'tiny-dep-1.0.0.tgz'}"})
    result = vora("plugins", "install", str(plugin))
    assert result.exit_code == 0, result.stderr
    assert (state_dir / "extensions" / "with-deps" / "node_modules" / "tiny-dep" / "index.js").is_file()
    assert not (plugin / "node_modules").exists()  # the source folder is never touched


# -- rollback: failure injected at each step ---------------------------------------------------------

def _fail(*_args: object, **_kwargs: object) -> None:
    raise VoraError("io_error", "injected failure")


@pytest.mark.parametrize("step", ["copy", "dependencies", "config-write"])
def test_failure_at_each_step_rolls_back(step: str, tmp_path: Path, state_dir: Path, vora,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    config = write_config(state_dir)
    before_config = config.read_bytes()
    (state_dir / "extensions").mkdir()
    plugin = make_plugin(tmp_path / "src" / "my-engine", dependencies={"left-pad": "1.3.0"})
    target = {"copy": (copying, "copy_tree"), "dependencies": (npm, "npm_install_production"),
              "config-write": (install_commit, "apply_config_edits")}[step]
    if step == "config-write":
        real = install_commit.apply_config_edits

        def write(paths, edits, *, command, dry_run, **more):  # type: ignore[no-untyped-def]
            if dry_run:
                return real(paths, edits, command=command, dry_run=dry_run, **more)
            raise VoraError("io_error", "injected failure")
        monkeypatch.setattr(install_commit, "apply_config_edits", write)
    else:
        monkeypatch.setattr(*target, _fail)
    before = snapshot(state_dir)
    result = vora("plugins", "install", str(plugin), "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["message"] == "injected failure"
    assert snapshot(state_dir) == before
    assert config.read_bytes() == before_config


@pytest.mark.parametrize("step", ["dependencies", "config-write"])
def test_force_restores_the_old_copy_on_failure(step: str, tmp_path: Path, state_dir: Path, vora,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(state_dir)
    assert vora("plugins", "install", str(make_plugin(tmp_path / "v1" / "my-engine"))).exit_code == 0
    config_before = (state_dir / "vora.json").read_bytes()
    new = make_plugin(tmp_path / "v2" / "my-engine", version="0.2.0", dependencies={"left-pad": "1.3.0"})
    if step == "dependencies":
        monkeypatch.setattr(npm, "npm_install_production", _fail)
    else:
        monkeypatch.setattr(install_commit, "apply_config_edits", _fail)
        monkeypatch.setattr(npm, "npm_install_production", lambda root: None)
    result = vora("plugins", "install", str(new), "--force")
    assert result.exit_code == 1
    installed = json.loads((state_dir / "extensions" / "my-engine" / "package.json").read_text())
    assert installed["version"] == "0.1.0"
    assert sorted(p.name for p in (state_dir / "extensions").iterdir()) == ["my-engine"]
    assert (state_dir / "vora.json").read_bytes() == config_before


# -- links ----------------------------------------------------------------------------------------

def test_link_records_the_real_path_once_and_copies_nothing(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "dev" / "my-engine", built=False)
    alias = tmp_path / "alias"
    alias.symlink_to(tmp_path / "dev")
    result = vora("plugins", "install", "-l", str(alias / "my-engine"))
    assert result.exit_code == 0, result.stderr
    real = str(plugin.resolve())
    assert f"Linked plugin my-engine (0.1.0) at {real}\n" in result.stdout
    assert "entry file not found: ./dist/index.js" in result.stderr
    assert config_of(state_dir)["plugins"]["load"]["paths"] == [real]
    assert config_of(state_dir)["plugins"]["installs"]["my-engine"]["source"] == "path"
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())
    again = vora("plugins", "install", "--link", real)
    assert again.exit_code == 0
    assert config_of(state_dir)["plugins"]["load"]["paths"] == [real]


def test_link_with_force_is_a_usage_error(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", "-l", str(make_plugin(tmp_path / "my-engine")), "--force")
    assert result.exit_code == 2
    assert "--force cannot be used with -l" in result.stderr
    assert (state_dir / "vora.json").read_text() == CONFIG_TEXT


def _state(state_dir: Path) -> tuple[str, list[str]]:
    ext = state_dir / "extensions"
    return (state_dir / "vora.json").read_text(), sorted(p.name for p in ext.iterdir()) if ext.exists() else []


def _single_file(folder: Path, plugin_id: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{plugin_id}.js"
    path.write_text("export default () => {};\n")
    return path


SKIPPED_IDS = [".hidden", "..x", ".staging-evil", "." + "a" * 20]
TOO_LONG_IDS = ["a" * 300, "b" * 252, "é" * 130, "@scope/" + "n" * 250]


def _sources(tmp_path: Path, plugin_id: str) -> list[tuple[str, Path]]:
    folder = make_plugin(tmp_path / "folder", plugin_id)
    return [("folder", folder), ("archive", tar_of(folder, tmp_path / "p.tgz"))]


@pytest.mark.parametrize("plugin_id", SKIPPED_IDS + TOO_LONG_IDS)
@pytest.mark.parametrize("how", ["folder", "archive", "link"])
def test_an_id_that_would_be_lost_is_refused(plugin_id: str, how: str, tmp_path: Path, state_dir: Path,
                                              vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    before = _state(state_dir)
    sources = dict(_sources(tmp_path, plugin_id))
    args = ["-l", str(sources["folder"])] if how == "link" else [str(sources[how])]
    result = vora("plugins", "install", *args, "--json")
    assert result.exit_code == 1, result.stdout
    error = result.json()["error"]
    assert error["code"] == "invalid"
    assert error["message"].startswith("vora.plugin.json: plugin id ")
    assert "starts with '.'" in error["message"] or "too long" in error["message"]
    after = _state(state_dir)
    assert after[0] == before[0]
    assert [n for n in after[1] if not n.startswith(".")] == []
    assert not [n for n in after[1] if n.startswith(".staging-")]


@pytest.mark.parametrize("plugin_id", [".dotfile", "c" * 252])
def test_a_single_file_with_such_a_name_is_refused(plugin_id: str, tmp_path: Path, state_dir: Path,
                                                   vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    try:
        path = _single_file(tmp_path / "files", plugin_id)
    except OSError:
        pytest.skip("this file system refuses the name itself")
    result = vora("plugins", "install", str(path), "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "invalid"
    assert path.name in result.json()["error"]["message"]


def test_the_longest_id_that_fits_installs(tmp_path: Path, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    plugin_id = "l" * 251
    result = vora("plugins", "install", str(make_plugin(tmp_path / "long", plugin_id)), "--json")
    assert result.exit_code == 0, result.stdout
    assert (state_dir / "extensions" / plugin_id).is_dir()
    listed = vora("plugins", "list", "--json")
    assert plugin_id in [p["id"] for p in listed.json()["plugins"]]


def test_a_copy_hidden_by_a_link_of_the_same_id_is_refused(tmp_path: Path, state_dir: Path,
                                                           vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    linked = make_plugin(tmp_path / "dev" / "engine", "my-engine")
    assert vora("plugins", "install", "-l", str(linked)).exit_code == 0
    before = _state(state_dir)
    other = make_plugin(tmp_path / "release" / "engine", "my-engine", version="2.0.0")
    result = vora("plugins", "install", str(other), "--json")
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "exists"
    assert str(linked) in error["message"] and "linked" in error["message"]
    assert error["hint"] == "vora plugins uninstall my-engine, then install again"
    assert _state(state_dir)[0] == before[0]
    assert not (state_dir / "extensions" / "my-engine").exists()


def test_a_copy_hidden_by_a_workspace_plugin_is_refused(tmp_path: Path, state_dir: Path,
                                                        vora: Callable[..., Run], home: Path) -> None:
    write_config(state_dir)
    workspace_copy = make_plugin(home / ".vora" / "workspace" / ".vora" / "extensions" / "ws-engine", "ws-engine")
    result = vora("plugins", "install", str(make_plugin(tmp_path / "src", "ws-engine")), "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "exists"
    assert str(workspace_copy) in result.json()["error"]["message"]
    assert "ws-engine" not in json.dumps(_state(state_dir))


# -- deep trees ---------------------------------------------------------------------------------------

def _leftovers(state_dir: Path) -> list[str]:
    extensions = state_dir / "extensions"
    return sorted(p.name for p in extensions.iterdir()) if extensions.exists() else []


def test_a_deep_folder_source_is_refused_before_it_is_copied(tmp_path: Path, state_dir: Path, vora,
                                                             deep_tree: Callable[[Path], Path]) -> None:
    config = write_config(state_dir).read_bytes()
    plugin = make_plugin(tmp_path / "my-engine")
    deep_tree(plugin / "x")
    result = vora("plugins", "install", str(plugin), "--json")
    assert result.exit_code == 1, result.stdout
    error = result.json()["error"]
    assert error["code"] == "refused" and "internal" not in result.stdout
    assert "deeper than 64 folders at " + str(plugin / "x") in error["message"]
    assert _leftovers(state_dir) == []
    assert (state_dir / "vora.json").read_bytes() == config


def test_a_deep_archive_is_refused_and_its_staging_folder_removed(tmp_path: Path, state_dir: Path, vora,
                                                                  deep_tree: Callable[[Path], Path]) -> None:
    config = write_config(state_dir).read_bytes()
    plugin = make_plugin(tmp_path / "my-engine")
    archive = tmp_path / "deep.tgz"
    with tarfile.open(archive, "w:gz") as tf:  # `tarfile.add` recurses per level: the members are listed
        for path in sorted(plugin.rglob("*")):
            if path.is_file():
                add_tar_bytes(tf, f"package/{path.relative_to(plugin).as_posix()}", path.read_bytes())
        add_tar_bytes(tf, "package/x/" + "d/" * DEEP + "f")
    result = vora("plugins", "install", str(archive), "--json")
    assert result.exit_code == 1, result.stdout
    assert result.json()["error"]["code"] == "refused" and "internal" not in result.stdout
    assert "deeper than 64 folders" in result.json()["error"]["message"]
    assert _leftovers(state_dir) == []
    assert (state_dir / "vora.json").read_bytes() == config


def test_force_over_a_copy_that_grew_deep_succeeds_and_removes_it(tmp_path: Path, state_dir: Path, vora,
                                                                   deep_tree: Callable[[Path], Path]) -> None:
    write_config(state_dir)
    assert vora("plugins", "install", str(make_plugin(tmp_path / "v1" / "my-engine"))).exit_code == 0
    deep_tree(state_dir / "extensions" / "my-engine" / "node_modules")  # npm brought a deep tree
    result = vora("plugins", "install", str(make_plugin(tmp_path / "v2" / "my-engine", version="0.2.0")), "--force")
    assert result.exit_code == 0, result.stderr
    assert "internal" not in result.stderr and "warning" not in result.stderr.lower()
    assert _leftovers(state_dir) == ["my-engine"]
    assert json.loads((state_dir / "extensions" / "my-engine" / "package.json").read_text())["version"] == "0.2.0"
    assert config_of(state_dir)["plugins"]["installs"]["my-engine"]["version"] == "0.2.0"


def test_force_warns_when_the_old_copy_cannot_all_be_removed(tmp_path: Path, state_dir: Path, vora,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(state_dir)
    assert vora("plugins", "install", str(make_plugin(tmp_path / "v1" / "my-engine"))).exit_code == 0
    remove = trees.remove
    # The OS refusing to delete part of the old copy (root deletes anything, so the refusal is injected).
    monkeypatch.setattr(trees, "remove", lambda path: False if Path(path).name.startswith(".old-") else remove(path))
    result = vora("plugins", "install", str(make_plugin(tmp_path / "v2" / "my-engine", version="0.2.0")), "--force")
    assert result.exit_code == 0, result.stderr
    old = [name for name in _leftovers(state_dir) if name.startswith(".old-my-engine-")]
    assert len(old) == 1 and f"delete {state_dir / 'extensions' / old[0]} by hand" in result.stderr
    assert config_of(state_dir)["plugins"]["installs"]["my-engine"]["version"] == "0.2.0"


# -- sources that hold the state dir ------------------------------------------------------------------

@pytest.mark.parametrize("source", [".", "~", "state-dir", "extensions-dir"])
def test_a_folder_holding_the_state_dir_is_refused_before_any_copy(source: str, home: Path, state_dir: Path, vora,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    config = write_config(state_dir).read_bytes()
    make_plugin(home / "plugin-files")
    for name in ("vora.plugin.json", "package.json"):
        shutil.copy(home / "plugin-files" / name, home / name)
    (state_dir / "extensions").mkdir()
    if source == "extensions-dir":
        make_plugin(state_dir / "extensions" / "plugin-files")
        shutil.copy(state_dir / "extensions" / "plugin-files" / "vora.plugin.json", state_dir / "extensions")
    monkeypatch.chdir(home)
    given = {"state-dir": str(state_dir), "extensions-dir": str(state_dir / "extensions")}.get(source, source)
    before = sorted(p.name for p in (state_dir / "extensions").iterdir())
    result = vora("plugins", "install", given)
    assert result.exit_code == 1, result.stderr
    message = next(line for line in result.stderr.splitlines() if line.startswith("error: "))
    assert "internal" not in message and ".staging-" not in message
    assert "contains vora's " in message and str(state_dir / "extensions") in message
    shown = {"state-dir": state_dir, "extensions-dir": state_dir / "extensions"}.get(source, home)
    assert f"the source folder {shown} " in message
    assert sorted(p.name for p in (state_dir / "extensions").iterdir()) == before
    assert (state_dir / "vora.json").read_bytes() == config


def test_an_empty_source_is_a_usage_error(state_dir: Path, vora) -> None:
    config = write_config(state_dir).read_bytes()
    result = vora("plugins", "install", "")
    assert result.exit_code == 2, result.stderr
    assert "SOURCE is empty" in result.stderr
    assert not (state_dir / "extensions").exists() and (state_dir / "vora.json").read_bytes() == config
