"""Archives: real tar/zip/npm-pack installs, and every hostile archive refused with nothing leaking.

Each hostile case asserts three things: the error names the entry, no path appeared anywhere
under the test's tmp dir (the staging dir is gone too, nothing landed outside it), and
vora.json is byte-identical.

`vora plugins install ARCHIVE` shows files and bytes on a terminal's stderr, nothing when piped;
a failure while that line is live ends the line before the error.

Issue 12 point 20: archive errors name the archive entry (or `archive:folder`), never vora's
staging path; nothing is left behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from archive_support import HOSTILE, slow_if_big
from plugins_support import (
    add_tar_bytes,
    make_plugin,
    snapshot,
    tar_of,
    write_config,
    zip_of,
)
from pty_support import run_with_pty

from tests.conftest import REPO, Run

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


def _archive(tmp_path: Path) -> Path:
    folder = make_plugin(tmp_path / "src")
    (folder / "dist" / "data.bin").write_bytes(os.urandom(2 * 1024 * 1024))
    return tar_of(folder, tmp_path / "my-engine-0.1.0.tgz")


def _install(state_dir: Path, archive: Path, *, terminal: bool, extra: tuple[str, ...] = (),
             env_extra: dict[str, str] | None = None) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), **(env_extra or {})}
    args = [sys.executable, "-m", "vora_cli", "--state-dir", str(state_dir), "plugins", "install", str(archive), *extra]
    if not terminal:
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60, check=False)
        return done.returncode, done.stdout, done.stderr
    return run_with_pty(args, env, stdout_on_pty=False)


def test_progress_on_a_terminal(state_dir: Path, tmp_path: Path) -> None:
    code, stdout, stderr = _install(state_dir, _archive(tmp_path), terminal=True)
    assert code == 0, stderr
    assert "Extracting my-engine-0.1.0.tgz: " in stderr
    assert "4/4 files, 2.0 MiB/2.0 MiB\n" in stderr.replace("\r\n", "\n")
    assert "Extracting" not in stdout


def test_no_progress_when_piped(state_dir: Path, tmp_path: Path) -> None:
    code, stdout, stderr = _install(state_dir, _archive(tmp_path), terminal=False)
    assert code == 0, stderr
    assert "Extracting" not in stderr and "\r" not in stderr and "Extracting" not in stdout


def test_no_progress_in_json_mode_even_on_a_terminal(state_dir: Path, tmp_path: Path) -> None:
    code, stdout, stderr = _install(state_dir, _archive(tmp_path), terminal=True, extra=("--json",))
    assert code == 0, stderr
    assert "Extracting" not in stderr and stdout.startswith("{")


def _slow_npm(bin_dir: Path) -> dict[str, str]:
    """A stand-in `npm` that takes 2.5 s for `npm install` (vora captures its output), or
    FAKE_NPM_SECONDS."""
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text("#!/bin/sh\nsleep \"${FAKE_NPM_SECONDS:-2.5}\"\nexit 0\n")
    npm.chmod(0o755)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


@pytest.mark.slow
def test_a_slow_npm_step_ticks_on_a_terminal(state_dir: Path, tmp_path: Path) -> None:
    folder = make_plugin(tmp_path / "src", dependencies={"left-pad": "1.3.0"})
    env = _slow_npm(tmp_path / "bin")
    code, _stdout, stderr = _install(state_dir, folder, terminal=True, env_extra=env)
    assert code == 0, stderr
    text = stderr.replace("\r\n", "\n")
    assert "Installing 1 production dependency with npm ... 1s" in text
    assert re.search(r"with npm \.\.\. \ds\n", text)  # the last tick, then a newline: the line ends
    # piped: past the first tick (1 s) is long enough to show that none is written
    piped_code, _out, piped = _install(state_dir, folder, terminal=False, env_extra={**env, "FAKE_NPM_SECONDS": "1.3"},
                                       extra=("--force",))
    assert piped_code == 0, piped
    assert "Installing" not in piped and "\r" not in piped


# -- a failure while the line is live ends the line first -------------------------------------
# The error starts on a fresh line of the terminal (docs/terminal.md, progress), for install and
# for update alike.

def _failing_slow_npm(bin_dir: Path) -> dict[str, str]:
    """A stand-in `npm` whose `npm install` takes 1.3 s (one tick) and then fails."""
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text("#!/bin/sh\nsleep 1.3\necho 'npm ERR! network down' >&2\nexit 1\n")
    npm.chmod(0o755)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


@pytest.mark.slow
def test_install_failing_during_a_ticking_step_ends_the_line_first(state_dir: Path, tmp_path: Path) -> None:
    folder = make_plugin(tmp_path / "src", dependencies={"left-pad": "1.3.0"})
    code, stdout, stderr = _install(state_dir, folder, terminal=True, env_extra=_failing_slow_npm(tmp_path / "bin"))
    text = stderr.replace("\r\n", "\n")
    assert code == 1, text
    assert stdout == ""
    assert re.search(r"with npm \.\.\. \ds\nerror: ", text), text
    assert not (state_dir / "extensions" / "my-engine").exists()


MANIFEST = b'{ id: "arch", configSchema: {} }'
PACKAGE = json.dumps({"name": "arch", "vora": {"extensions": ["./index.js"]}}).encode()


def _tar(path: Path, members: list[tuple[str, bytes]]) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members:
            add_tar_bytes(tf, name, data)
    return path


def _zip(path: Path, members: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members:
            zf.writestr(name, data)
    return path


LONG = "n" * 300
CASES = {
    # name: (members, what the message must hold)
    "no-package-json": ([("package/vora.plugin.json", MANIFEST), ("package/index.js", b"")],
                        "package.json: not found in {archive}:package"),
    "no-manifest-top-level": ([("package.json", PACKAGE), ("index.js", b""), ("x/y.js", b"")],
                              "no plugin manifest in {archive}: neither vora.plugin.json nor openclaw.plugin.json is there"),
    "name-too-long": ([("package/vora.plugin.json", MANIFEST), ("package/package.json", PACKAGE),
                       (f"package/{LONG}.js", b"")], "entry 'package/" + LONG + ".js'"),
    "file-then-below-it": ([("package/vora.plugin.json", MANIFEST), ("package/package.json", PACKAGE),
                            ("package/lib", b"file"), ("package/lib/x.js", b"")], "entry 'package/lib/x.js'"),
}


@pytest.mark.parametrize("fmt", ["tgz", "zip"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_archive_errors_name_the_entry(case: str, fmt: str, tmp_path: Path, state_dir: Path,
                                       vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    before = (state_dir / "vora.json").read_text()
    members, expected = CASES[case]
    archive = (_tar if fmt == "tgz" else _zip)(tmp_path / f"arch.{fmt}", members)
    result = vora("plugins", "install", str(archive), "--json")
    assert result.exit_code == 1, result.stdout
    error = result.json()["error"]
    text = error["message"] + (error["hint"] or "")
    assert ".staging-" not in text and str(state_dir) not in text, text
    assert expected.format(archive=archive.name) in error["message"]
    assert (state_dir / "vora.json").read_text() == before
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())


def test_a_duplicate_entry_is_named_not_the_staging_file(tmp_path: Path, state_dir: Path,
                                                        vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    archive = tmp_path / "dup.tgz"
    with tarfile.open(archive, "w:gz") as tf:
        add_tar_bytes(tf, "package/vora.plugin.json", MANIFEST)
        add_tar_bytes(tf, "package/package.json", PACKAGE)
        add_tar_bytes(tf, "package/index.js", b"1")
        add_tar_bytes(tf, "./package/index.js", b"2")
    result = vora("plugins", "install", str(archive), "--json")
    error = result.json()["error"]
    assert ".staging-" not in error["message"]
    assert "'./package/index.js' appears twice" in error["message"]
