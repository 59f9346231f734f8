"""`vora plugins install ARCHIVE` shows files and bytes on a terminal's stderr, nothing when piped;
a failure while that line is live ends the line before the error."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from plugins_support import make_plugin, tar_of
from pty_support import run_with_pty

from tests.conftest import REPO


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
