"""Memory stays flat (issue 21): create, verify and restore stream; a transcript twelve times
bigger does not raise the peak RSS of `vora backup` (a real process) by more than a few MiB.
The figures on 1 GB are in bench/backup_bench.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from backup_support import build_install, free_port
from conftest import REPO

PEAK = ("import resource, subprocess, sys\n"
        "done = subprocess.run([sys.executable, '-m', 'vora_cli', *sys.argv[1:]], stdout=subprocess.DEVNULL)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def _peak_kib(*args: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(REPO), "VORA_GATEWAY_PORT": str(free_port())}
    done = subprocess.run([sys.executable, "-c", PEAK, *args], env=env, capture_output=True, text=True, timeout=600,
                          check=True)
    code, peak = done.stdout.split()
    assert code == "0", done.stderr
    return int(peak)


def _runs(root: Path, megabytes: int) -> list[int]:
    state, _workspace = build_install(root)
    line = b'{"type":"custom","id":"00000000","data":"' + os.urandom(300).hex().encode() + b'"}\n'
    with open(state / "agents/main/sessions/s-one.jsonl", "ab") as out:
        for _ in range(megabytes * 1024 * 1024 // len(line)):
            out.write(line)
    archive = root / "b.tar.gz"
    return [_peak_kib("--state-dir", str(state), "backup", "create", "--output", str(archive)),
            _peak_kib("backup", "verify", str(archive)),
            _peak_kib("backup", "restore", str(archive), "--to", str(root / "restored"))]


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss is KiB on Linux only")
def test_peak_memory_does_not_grow_with_the_transcript(tmp_path: Path) -> None:
    small = _runs(tmp_path / "small", 8)
    big = _runs(tmp_path / "big", 96)
    for step, (a, b) in zip(("create", "verify", "restore"), zip(small, big, strict=True), strict=True):
        assert b - a < 8 * 1024, (step, a, b)  # 88 MiB more data, under 8 MiB more memory
