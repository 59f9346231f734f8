"""Archives: real tar/zip/npm-pack installs, and every hostile archive refused with nothing leaking.

Each hostile case asserts three things: the error names the entry, no path appeared anywhere
under the test's tmp dir (the staging dir is gone too, nothing landed outside it), and
vora.json is byte-identical.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from archive_support import HOSTILE, slow_if_big
from plugins_support import (
    make_plugin,
    snapshot,
    tar_of,
    write_config,
    zip_of,
)

# -- real archives ----------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".tgz", ".tar.gz", ".tar"])
def test_install_from_tar_archive(tmp_path: Path, state_dir: Path, vora, suffix: str) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "my-engine")
    tarball = tar_of(plugin, tmp_path / f"my-engine{suffix}")
    result = vora("plugins", "install", str(tarball), "--json")
    assert result.exit_code == 0, result.stdout
    data = result.json()
    assert data["id"] == "my-engine"
    assert data["record"]["source"] == "archive"
    assert data["record"]["sourcePath"] == str(tarball)
    installed = state_dir / "extensions" / "my-engine"
    assert (installed / "dist" / "index.js").read_text() == (plugin / "dist" / "index.js").read_text()
    assert sorted(p.name for p in (state_dir / "extensions").iterdir()) == ["my-engine"]


def test_install_from_zip_with_top_level_package_json(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "zipped", "zipped")
    result = vora("plugins", "install", str(zip_of(plugin, tmp_path / "zipped.zip")))
    assert result.exit_code == 0, result.stderr
    assert "Installed plugin zipped (0.1.0) -> " in result.stdout
    assert (state_dir / "extensions" / "zipped" / "vora.plugin.json").is_file()


def test_install_from_zip_with_single_top_folder(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "folder-eng", "folder-eng")
    result = vora("plugins", "install", str(zip_of(plugin, tmp_path / "f.zip", prefix="folder-eng-1.0")))
    assert result.exit_code == 0, result.stderr
    assert (state_dir / "extensions" / "folder-eng" / "package.json").is_file()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_install_tarball_from_real_npm_pack(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "packed", "@acme/packed", name="@acme/packed", version="1.2.3")
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run(["npm", "pack", str(plugin), "--ignore-scripts", "--json", "--pack-destination", str(out)],
                          capture_output=True, text=True, check=True, cwd=out)
    tarball = out / json.loads(done.stdout)[0]["filename"]
    result = vora("plugins", "install", str(tarball), "--json")
    assert result.exit_code == 0, result.stdout
    folder = state_dir / "extensions" / result.json()["installPath"].rsplit("/", 1)[-1]
    assert folder.name.startswith("@acmepacked-")
    assert (folder / "dist" / "index.js").is_file()
    assert result.json()["version"] == "1.2.3"


# -- hostile archives (built by tests/support/archive_support.py) ------------------------------


@pytest.mark.parametrize("case", [slow_if_big(c) for c in sorted(HOSTILE)])
def test_hostile_archive_is_refused_and_nothing_leaks(case: str, tmp_path: Path, state_dir: Path, vora) -> None:
    build, entry, why = HOSTILE[case]
    attack = tmp_path / "attack"
    attack.mkdir()
    config = write_config(state_dir)
    before_config = config.read_bytes()
    (state_dir / "extensions").mkdir()
    hostile = build(attack)
    before = snapshot(tmp_path)
    result = vora("plugins", "install", str(hostile), "--json")
    assert result.exit_code == 1, result.stdout
    error = result.json()["error"]
    assert error["code"] == "refused", error
    assert entry.strip("'") in error["message"] and why in error["message"], error["message"]
    assert snapshot(tmp_path) == before  # no staging dir left, nothing written anywhere
    assert config.read_bytes() == before_config


