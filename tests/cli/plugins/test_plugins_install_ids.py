"""Issue 12 points 14 and 10: an id discovery would skip, or the file system would refuse, is
refused at install (copy and link alike) with nothing copied or recorded; a copy that a link or
a workspace plugin of the same id would hide is refused too."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin, tar_of, write_config

from tests.conftest import Run


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
