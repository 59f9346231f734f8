"""The installed plugin's root folder is 0700 whatever the source (spec README: new state dirs 0700).

Archive extraction and `npm pack` output used to leave it 0755 while a folder install gave 0700.
Inside the plugin, modes are kept (an executable stays executable), but nothing is world-writable.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin, tar_of, write_config, zip_of

from vora_cli.core.plugins import npm


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def _loose_plugin(tmp_path: Path) -> Path:
    """A plugin folder made under a permissive umask: 0755 root, a 0777 dir, a 0666 file, a 0755 script."""
    plugin = make_plugin(tmp_path / "src" / "ok", "ok")
    os.chmod(plugin, 0o755)
    (plugin / "bin").mkdir()
    (plugin / "bin" / "run.sh").write_text("#!/bin/sh\n")
    os.chmod(plugin / "bin" / "run.sh", 0o755)
    os.chmod(plugin / "bin", 0o777)
    os.chmod(plugin / "dist" / "index.js", 0o666)
    return plugin


def _source_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    return str(_loose_plugin(tmp_path))


def _source_tgz(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    return str(tar_of(_loose_plugin(tmp_path), tmp_path / "ok.tgz"))


def _source_tgz_flat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    # no top folder in the archive: the plugin root is the extraction folder itself
    return str(tar_of(_loose_plugin(tmp_path), tmp_path / "ok.tar", prefix="."))


def _source_zip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    return str(zip_of(_loose_plugin(tmp_path), tmp_path / "ok.zip", prefix="ok-1.0"))


def _source_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    tarball = tar_of(_loose_plugin(tmp_path), tmp_path / "ok-0.1.0.tgz")

    def fake_pack(spec: str, dest: Path) -> npm.PackResult:
        return npm.PackResult(tarball, "ok", "0.1.0", None, None)

    monkeypatch.setattr(npm, "npm_pack", fake_pack)
    return "ok@0.1.0"


SOURCES: dict[str, Callable[[Path, pytest.MonkeyPatch], str]] = {
    "directory": _source_dir,
    "tgz": _source_tgz,
    "tar-without-top-folder": _source_tgz_flat,
    "zip": _source_zip,
    "npm": _source_npm,
}


@pytest.mark.parametrize("kind", list(SOURCES))
def test_installed_plugin_root_is_0700_for_every_source(kind: str, tmp_path: Path, state_dir: Path, vora,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(state_dir)
    old_umask = os.umask(0o022)
    try:
        result = vora("plugins", "install", SOURCES[kind](tmp_path, monkeypatch), "--json")
    finally:
        os.umask(old_umask)
    assert result.exit_code == 0, result.stdout + result.stderr
    installed = state_dir / "extensions" / "ok"
    assert _mode(installed) == 0o700
    assert (installed / "bin" / "run.sh").stat().st_mode & 0o100  # still executable
    for path in [installed, *installed.rglob("*")]:
        assert not _mode(path) & 0o002, f"{path} is world-writable ({oct(_mode(path))})"


def test_single_file_install_is_not_world_writable_and_keeps_its_mode(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    script = tmp_path / "tiny.js"
    script.write_text("export default function register(api) {}\n")
    os.chmod(script, 0o646)
    result = vora("plugins", "install", str(script), "--json")
    assert result.exit_code == 0, result.stdout
    assert _mode(state_dir / "extensions" / "tiny.js") == 0o644


def test_force_reinstall_of_an_archive_is_0700_too(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    tarball = tar_of(_loose_plugin(tmp_path), tmp_path / "ok.tgz")
    assert vora("plugins", "install", str(tarball)).exit_code == 0
    result = vora("plugins", "install", str(tarball), "--force")
    assert result.exit_code == 0, result.stderr
    assert _mode(state_dir / "extensions" / "ok") == 0o700
