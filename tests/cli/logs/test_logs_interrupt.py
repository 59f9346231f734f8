"""`vora logs --follow` ends with exit 0 on Ctrl-C whenever it comes (spec gateway.md, `vora logs`):
also while the handshake or the first `logs.tail` is still waiting, not only between polls.
Real processes, interrupted with SIGINT; no traceback, nothing but the notes on stderr."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from conftest import REPO
from gateway_server import running_gateway


def _spawn(args: list[str], state_dir: Path, tmp_path: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_")}
    env.update({"VORA_STATE_DIR": str(state_dir), "VORA_HOME": str(state_dir.parent), "TMPDIR": str(tmp_path / "tmp"),
                "PYTHONPATH": str(REPO), "NO_COLOR": "1"})
    return subprocess.Popen([sys.executable, "-m", "vora_cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _wait_for(condition: Callable[[], bool], timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the process never got there"
        time.sleep(0.02)


def _interrupt(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    time.sleep(0.2)  # inside the blocking wait, past the request that got it there
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return proc.returncode, out, err


def test_ctrl_c_while_the_first_tail_is_unanswered_exits_0(tmp_path: Path, state_dir: Path) -> None:
    with running_gateway() as gw:
        gw.silent_on.add("logs.tail")
        for extra in ([], ["--json"]):
            count = len(gw.requests)
            proc = _spawn(["logs", "--follow", *extra, "--timeout", "60", "--url", gw.url], state_dir, tmp_path)
            _wait_for(lambda count=count: len(gw.requests) > count)  # type: ignore[misc]
            code, out, err = _interrupt(proc)
            assert code == 0, err
            assert out == "" and "Traceback" not in err and "error" not in err


def test_ctrl_c_during_the_handshake_exits_0(tmp_path: Path, state_dir: Path) -> None:
    with running_gateway(send_challenge=False) as gw:  # the socket opens; the challenge never comes
        proc = _spawn(["logs", "--follow", "--timeout", "60", "--url", gw.url], state_dir, tmp_path)
        _wait_for(lambda: len(gw.origins) > 0)
        code, out, err = _interrupt(proc)
    assert code == 0, err
    assert out == "" and "Traceback" not in err and "error" not in err
