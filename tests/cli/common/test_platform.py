"""vora is POSIX-only (docs/dependencies.md, "Platforms"): elsewhere it says so in one sentence."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from vora_cli.core.writer import POSIX_ONLY

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("args", [["config", "file"], ["--help"], ["doctor", "--json"]])
def test_vora_on_windows_says_posix_only(args: list[str]) -> None:
    # The stdlib modules vora's message needs are imported first: faking win32 before that would
    # make the stdlib itself reach for Windows-only modules (shutil -> _winapi on 3.12+).
    code = "import sys, tempfile, hashlib; from vora_cli.__main__ import main; " \
           "sys.platform = 'win32'; sys.argv = ['vora', *sys.argv[1:]]; main()"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[0] == f"error: {POSIX_ONLY}"
    assert "Traceback" not in result.stderr
