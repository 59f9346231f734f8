"""Issue 12 point 10: every OS refusal during an install is a clean error naming the file, and
nothing half-done stays (no staging dir, no copy, the config as it was)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin, write_config

from tests.conftest import Run


def _untouched(state_dir: Path, config_before: str) -> None:
    assert (state_dir / "vora.json").read_text() == config_before
    ext = state_dir / "extensions"
    assert not ext.is_dir() or list(ext.iterdir()) == []


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _socket(path: Path) -> Path:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()
    return path


@pytest.mark.parametrize("make_special", [_fifo, _socket], ids=["fifo", "socket"])
@pytest.mark.parametrize("where", ["dist/pipe", "deep/er/pipe", "pipe"])
def test_a_special_file_in_the_folder_is_refused_by_name(make_special: Callable[[Path], Path], where: str,
                                                         tmp_path: Path, state_dir: Path) -> None:
    """A real subprocess with a timeout: a FIFO once blocked the copy forever."""
    write_config(state_dir)
    before = (state_dir / "vora.json").read_text()
    plugin = make_plugin(tmp_path / "src" / "engine", "engine")
    special = plugin / where
    special.parent.mkdir(parents=True, exist_ok=True)
    make_special(special)
    env = {**os.environ, "VORA_STATE_DIR": str(state_dir)}
    done = subprocess.run([sys.executable, "-m", "vora_cli", "plugins", "install", str(plugin)], env=env,
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: {special}: a "), done.stderr
    assert "cannot be copied" in done.stderr and "Traceback" not in done.stderr
    _untouched(state_dir, before)


def test_a_fifo_in_a_left_behind_vcs_folder_does_not_matter(tmp_path: Path, state_dir: Path,
                                                           vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "engine", "engine")
    (plugin / ".git").mkdir()
    _fifo(plugin / ".git" / "fsmonitor")
    assert vora("plugins", "install", str(plugin)).exit_code == 0
    assert not (state_dir / "extensions" / "engine" / ".git").exists()


@pytest.mark.parametrize("what", ["fifo", "loop", "dangling"])
def test_a_source_that_is_no_file_or_folder_is_named(what: str, tmp_path: Path, state_dir: Path,
                                                     vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    source = tmp_path / "engine.js"
    if what == "fifo":
        _fifo(source)
    elif what == "loop":
        os.symlink(source, source)
    else:
        os.symlink(tmp_path / "gone", source)
    result = vora("plugins", "install", str(source), "--json")
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "invalid" and error["message"].startswith(f"{source}: not a regular file or folder")


@pytest.mark.parametrize("blocker", ["extensions", "extensions-parent"])
def test_a_file_where_the_extensions_dir_should_be_is_an_io_error_naming_it(
        blocker: str, tmp_path: Path, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    before = (state_dir / "vora.json").read_text()
    plugin = make_plugin(tmp_path / "src" / "engine", "engine")
    if blocker == "extensions":
        (state_dir / "extensions").write_text("not a folder")
        named = state_dir / "extensions"
    else:
        named = tmp_path / "state-file"
        named.write_text("x")
        state_dir = named / "nested"  # the state dir lies below a file
    result = vora("--state-dir", str(state_dir), "plugins", "install", str(plugin), "--json")
    assert result.exit_code == 1, result.stdout
    error = result.json()["error"]
    assert error["code"] in ("io_error", "not_found")
    assert str(named) in error["message"]
    if blocker == "extensions":
        assert (state_dir / "vora.json").read_text() == before
        assert (state_dir / "extensions").read_text() == "not a folder"


def test_a_300_character_id_names_the_manifest_not_the_os(tmp_path: Path, state_dir: Path,
                                                          vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    before = (state_dir / "vora.json").read_text()
    plugin = make_plugin(tmp_path / "src" / "engine", "x" * 300)
    for args in (["plugins", "install", str(plugin)], ["plugins", "install", "-l", str(plugin)]):
        result = vora(*args, "--json")
        assert result.exit_code == 1
        assert result.json()["error"]["message"].startswith("vora.plugin.json: plugin id 'xxxx")
        assert "too long" in result.json()["error"]["message"]
        _untouched(state_dir, before)


def test_uninstall_that_cannot_move_the_folder_leaves_everything(tmp_path: Path, state_dir: Path,
                                                                 vora: Callable[..., Run]) -> None:
    """EPERM on the rename (an immutable folder: refused even to root) changes nothing."""
    write_config(state_dir)
    assert vora("plugins", "install", str(make_plugin(tmp_path / "src" / "eng", "eng"))).exit_code == 0
    installed = state_dir / "extensions" / "eng"
    before = (state_dir / "vora.json").read_text()
    if subprocess.run(["chattr", "+i", str(installed)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        result = vora("plugins", "uninstall", "eng", "--yes", "--json")
    finally:
        subprocess.run(["chattr", "-i", str(installed)], check=True)
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "io_error" and str(installed) in error["message"]
    assert (state_dir / "vora.json").read_text() == before
    assert sorted(p.name for p in (state_dir / "extensions").iterdir()) == ["eng"]
