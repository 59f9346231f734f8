"""The cyclic garbage collector, decided once for the run (`vora_cli/__main__.py`, issue 24):
off for the short batch commands the fast dispatch answers, on (every 50,000 allocations) for
every other command. Observed in real processes, at exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "vora"
PROBE = ("import atexit, gc, sys\n"
         "atexit.register(lambda: print('gc', gc.isenabled(), gc.get_threshold()[0], file=sys.stderr))\n"
         "sys.argv = ['vora', *sys.argv[1:]]\n"
         "from vora_cli.__main__ import main\n"
         "main()\n")


def _gc_at_exit(tmp_path: Path, *args: str) -> str:
    env = {**os.environ, "HOME": str(tmp_path), "VORA_HOME": str(tmp_path), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-c", PROBE, "--state-dir", str(EXAMPLE), *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    return [line for line in done.stderr.splitlines() if line.startswith("gc ")][-1]


@pytest.mark.parametrize("args", [("config", "get", "gateway.port"), ("sessions", "list"), ("context", "list"),
                                  ("doctor",)])
def test_the_hot_commands_run_without_the_cycle_collector(tmp_path: Path, args: tuple[str, ...]) -> None:
    assert _gc_at_exit(tmp_path, *args).startswith("gc False")


@pytest.mark.parametrize("args", [("settings", "path"), ("config", "get", "--help"), ("sessions", "list", "--bogus")])
def test_every_other_command_keeps_it(tmp_path: Path, args: tuple[str, ...]) -> None:
    assert _gc_at_exit(tmp_path, *args) == "gc True 50000"
