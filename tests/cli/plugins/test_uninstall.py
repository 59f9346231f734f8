"""Issue 12 point 1: a link's source is never deleted, wherever it lives. vora deletes or
replaces only a folder it installed itself (its install record says so): uninstall,
install --force and update all go through `records.vora_installed_path`."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin, write_config

from tests.conftest import Run


def _with_work(folder: Path) -> Path:
    (folder / "src").mkdir(exist_ok=True)
    (folder / "src" / "uncommitted.ts").write_text("// work in progress\n")
    return folder


def _plugins(state_dir: Path) -> dict:
    from vora_cli.core.json5 import parser

    value = parser.loads((state_dir / "vora.json").read_text())
    return value.get("plugins", {}) if isinstance(value, dict) else {}


@pytest.mark.parametrize("name", ["dev-engine", "my-engine"])  # other name than the id, and the id's own
def test_uninstall_keeps_a_linked_folder_inside_the_extensions_dir(
        name: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    folder = _with_work(make_plugin(state_dir / "extensions" / name, "my-engine"))
    assert vora("plugins", "install", "-l", str(folder)).exit_code == 0
    dry = vora("plugins", "uninstall", "my-engine", "--dry-run", "--json")
    assert dry.json()["delete"] is None
    result = vora("plugins", "uninstall", "my-engine", "--yes", "--json")
    assert result.exit_code == 0, result.stdout
    assert result.json()["deleted"] is False
    assert (folder / "src" / "uncommitted.ts").read_text() == "// work in progress\n"
    plugins = _plugins(state_dir)
    assert "my-engine" not in plugins.get("installs", {})
    assert str(folder) not in plugins.get("load", {}).get("paths", [])
    assert str(folder) in result.json()["keep"]
    assert any("not installed by vora" in note for note in result.json()["notes"])


def test_uninstall_keeps_a_folder_put_into_the_extensions_dir_by_hand(state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    folder = _with_work(make_plugin(state_dir / "extensions" / "hand-made", "hand-made"))
    assert vora("plugins", "enable", "hand-made").exit_code == 0
    result = vora("plugins", "uninstall", "hand-made", "--yes", "--json")
    assert result.exit_code == 0, result.stdout
    assert result.json()["deleted"] is False
    assert (folder / "src" / "uncommitted.ts").exists()
    assert "hand-made" not in _plugins(state_dir).get("entries", {})


def test_uninstall_keeps_a_symlink_put_into_the_extensions_dir(tmp_path: Path, state_dir: Path,
                                                             vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    source = _with_work(make_plugin(tmp_path / "src" / "linked-by-hand", "linked-by-hand"))
    (state_dir / "extensions").mkdir()
    os.symlink(source, state_dir / "extensions" / "linked-by-hand")
    result = vora("plugins", "uninstall", "linked-by-hand", "--yes", "--json")
    assert result.exit_code == 0, result.stdout
    assert (state_dir / "extensions" / "linked-by-hand").is_symlink()
    assert (source / "src" / "uncommitted.ts").exists()


@pytest.mark.parametrize("tamper", ["source-path-equals-install-path", "in-load-paths", "outside-extensions"])
def test_a_record_that_does_not_prove_a_copy_deletes_nothing(tamper: str, tmp_path: Path, state_dir: Path,
                                                           vora: Callable[..., Run]) -> None:
    """Records vora did not write as a copy install (edited by hand, or by another tool)."""
    inside = _with_work(make_plugin(state_dir / "extensions" / "eng", "eng"))
    outside = _with_work(make_plugin(tmp_path / "elsewhere" / "eng", "eng"))
    record = {"source": "npm", "spec": "eng", "installPath": str(inside), "sourcePath": str(tmp_path / "x.tgz")}
    load_paths: list[str] = []
    if tamper == "source-path-equals-install-path":
        record = {**record, "source": "path", "sourcePath": str(inside)}
    elif tamper == "in-load-paths":
        load_paths = [str(inside)]
    else:
        record = {**record, "installPath": str(outside)}
        load_paths = [str(outside)]
    config = {"plugins": {"installs": {"eng": record}, "load": {"paths": load_paths}}}
    (state_dir / "vora.json").write_text(json.dumps(config))
    result = vora("plugins", "uninstall", "eng", "--yes", "--json")
    assert result.exit_code == 0, result.stdout
    assert result.json()["deleted"] is False
    assert (inside / "src" / "uncommitted.ts").exists() and (outside / "src" / "uncommitted.ts").exists()


def test_install_force_never_replaces_a_folder_vora_did_not_install(tmp_path: Path, state_dir: Path,
                                                                    vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    folder = _with_work(make_plugin(state_dir / "extensions" / "my-engine", "my-engine"))
    assert vora("plugins", "install", "-l", str(folder)).exit_code == 0
    assert vora("plugins", "uninstall", "my-engine", "--yes").exit_code == 0  # the link goes, the folder stays
    before = (state_dir / "vora.json").read_text()
    release = make_plugin(tmp_path / "release", "my-engine", version="9.9.9")
    for extra in ([], ["--force"]):
        result = vora("plugins", "install", str(release), *extra, "--json")
        assert result.exit_code == 1, result.stdout
        error = result.json()["error"]
        assert error["code"] == "exists" and "vora did not install it" in error["message"]
        assert (folder / "src" / "uncommitted.ts").exists()
        assert (state_dir / "vora.json").read_text() == before
    # Installing the folder from itself with --force is the same case (it would delete what it copies).
    again = vora("plugins", "install", str(folder), "--force", "--json")
    assert again.json()["error"]["code"] == "exists"
    assert (folder / "src" / "uncommitted.ts").exists()


@pytest.mark.parametrize("kind", ["folder", "file"])
def test_what_vora_installed_is_still_deleted_and_replaced(kind: str, tmp_path: Path, state_dir: Path,
                                                           vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    if kind == "folder":
        source = make_plugin(tmp_path / "src" / "copy-me", "copy-me")
        installed = state_dir / "extensions" / "copy-me"
    else:
        source = tmp_path / "copy-me.js"
        source.write_text("export default () => {};\n")
        installed = state_dir / "extensions" / "copy-me.js"
    assert vora("plugins", "install", str(source)).exit_code == 0
    assert vora("plugins", "install", str(source), "--force").exit_code == 0
    assert installed.exists()
    result = vora("plugins", "uninstall", "copy-me", "--yes", "--json")
    assert result.json()["deleted"] is True
    assert not installed.exists()
    assert source.exists()


@pytest.mark.parametrize("how", [(), ("--dry-run",)])
def test_uninstall_of_a_copy_that_grew_deep(how: tuple[str, ...], tmp_path: Path, state_dir: Path,
                                            vora: Callable[..., Run], deep_tree: Callable[[Path], Path]) -> None:
    """A deep `node_modules` in an installed copy is measured and removed without recursion."""
    write_config(state_dir)
    assert vora("plugins", "install", str(make_plugin(tmp_path / "my-engine"))).exit_code == 0
    target = state_dir / "extensions" / "my-engine"
    deep_tree(target / "node_modules")
    config = (state_dir / "vora.json").read_bytes()
    result = vora("plugins", "uninstall", "my-engine", "--yes", *how)
    assert result.exit_code == 0, result.stderr
    assert "internal" not in result.stderr + result.stdout
    if how:
        assert target.is_dir() and (state_dir / "vora.json").read_bytes() == config
    else:
        assert sorted(p.name for p in (state_dir / "extensions").iterdir()) == []
        assert "my-engine" not in _plugins(state_dir).get("installs", {})
