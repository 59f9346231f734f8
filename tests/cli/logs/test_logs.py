"""`vora logs`: through the gateway (`logs.tail`, `--follow` with the cursor) or straight from the file.

`vora logs --follow` ends with exit 0 on Ctrl-C whenever it comes (spec gateway.md, `vora logs`):
also while the handshake or the first `logs.tail` is still waiting, not only between polls.
Real processes, interrupted with SIGINT; no traceback, nothing but the notes on stderr.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO
from gateway_server import gateway_log_line, refused_port, running_gateway, silent_port

LINES = [
    gateway_log_line("2026-04-12T10:00:00.000+02:00", "log file: /tmp/vora/vora-2026-04-12.log"),
    gateway_log_line("2026-04-12T10:00:01.000+02:00", "my-engine failed to load from /p/index.js: Error: boom",
                     level="ERROR", subsystem="plugins"),
    '{"0": "no subsystem here", "1": {"n": 1}, "_meta": {"logLevelName": "DEBUG"}, "time": "2026-04-12T10:00:02+02:00"}',
    "a raw line from an older build",
    gateway_log_line("2026-04-12T10:00:03.000+02:00", "ready (1 plugins: my-engine; 1.1s)"),
]
HUMAN = [
    "2026-04-12T10:00:00.000+02:00 INFO [gateway] log file: /tmp/vora/vora-2026-04-12.log",
    "2026-04-12T10:00:01.000+02:00 ERROR [plugins] my-engine failed to load from /p/index.js: Error: boom",
    '2026-04-12T10:00:02+02:00 DEBUG no subsystem here {"n": 1}',
    "a raw line from an older build",
    "2026-04-12T10:00:03.000+02:00 INFO [gateway] ready (1 plugins: my-engine; 1.1s)",
]


def log_folder(tmp_path: Path) -> Path:
    """The folder the gateway logs to in these tests: /tmp/vora is absent, so `<tmpdir>/vora-<uid>`."""
    if Path("/tmp/vora").exists():
        pytest.skip("/tmp/vora exists on this host; the tests must not read a real gateway's log")
    folder = tmp_path / "tmp" / f"vora-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def test_logs_through_the_gateway_human_and_json(state_dir: Path, vora) -> None:
    with running_gateway(log_lines=LINES) as gw:
        human = vora("logs", "--url", gw.url)
        doc = vora("logs", "--url", gw.url, "--limit", "2", "--json").json()
    assert human.exit_code == 0
    # these lines were written long before this gateway (up a minute) started: marked as such
    assert human.stdout.splitlines() == [line if line.startswith("a raw") else f"[before this gateway started] {line}"
                                         for line in HUMAN]
    assert gw.requests[:2] == [("logs.tail", {"limit": 200}), ("health", {})]
    assert doc == {"source": "gateway", "file": gw.log_file, "lines": [
        {"loggedAt": None, "level": None, "subsystem": None, "message": "a raw line from an older build",
         "origin": None, "gatewayPort": None},
        # the gateway logs local time with its offset; JSON carries the moment in UTC (…At)
        {"loggedAt": "2026-04-12T08:00:03.000Z", "level": "info", "subsystem": "gateway",
         "message": "ready (1 plugins: my-engine; 1.1s)", "origin": "earlier", "gatewayPort": None}]}


@pytest.mark.parametrize("limit", ["0", "5001", "-3"])
def test_limit_is_1_to_5000(state_dir: Path, vora, limit: str) -> None:
    run = vora("logs", "--limit", limit, "--json")
    assert run.exit_code == 2 and run.json()["error"]["code"] == "usage"


def test_file_reads_the_newest_daily_file_directly(tmp_path: Path, state_dir: Path, vora) -> None:
    folder = log_folder(tmp_path)
    (folder / "vora-2026-04-11.log").write_text("old\n")
    os.utime(folder / "vora-2026-04-11.log", (1_000_000_000, 1_000_000_000))
    newest = folder / "vora-2026-04-12.log"
    newest.write_text("\n".join(LINES) + "\n")
    run = vora("logs", "--file", "--limit", "3")
    doc = vora("logs", "--file", "--json").json()
    assert run.exit_code == 0
    assert run.stdout.splitlines() == HUMAN[-3:]
    assert f"Log file {newest} (read directly" in run.stderr
    assert doc["source"] == "file" and doc["file"] == str(newest) and len(doc["lines"]) == 5


def test_logging_file_is_read_only_when_that_file_exists(tmp_path: Path, state_dir: Path, vora) -> None:
    folder = log_folder(tmp_path)
    (folder / "vora-2026-04-12.log").write_text(LINES[0] + "\n")
    custom = tmp_path / "custom.log"
    (state_dir / "vora.json").write_text('{logging: {file: "%s"}}' % custom)  # noqa: UP031
    assert vora("logs", "--file", "--json").json()["file"] == str(folder / "vora-2026-04-12.log")
    custom.write_text(LINES[4] + "\n")
    assert vora("logs", "--file", "--json").json()["file"] == str(custom)


@pytest.mark.parametrize("how", ["refused", "silent"])
def test_a_gateway_that_does_not_answer_falls_back_to_the_file(tmp_path: Path, state_dir: Path, vora,
                                                               how: str) -> None:
    folder = log_folder(tmp_path)
    (folder / "vora-2026-04-12.log").write_text("\n".join(LINES) + "\n")
    if how == "refused":
        run = vora("logs", "--url", f"ws://127.0.0.1:{refused_port()}", "--limit", "1")
    else:
        with silent_port() as port:
            run = vora("logs", "--url", f"ws://127.0.0.1:{port}", "--limit", "1", "--timeout", "0.3")
    assert run.exit_code == 0
    assert run.stdout.splitlines() == HUMAN[-1:]
    assert "The gateway did not answer" in run.stderr and "vora-2026-04-12.log" in run.stderr


def test_an_auth_error_is_reported_not_papered_over_with_the_file(tmp_path: Path, state_dir: Path, vora,
                                                                  monkeypatch) -> None:
    folder = log_folder(tmp_path)
    (folder / "vora-2026-04-12.log").write_text("\n".join(LINES) + "\n")
    monkeypatch.setenv("VORA_GATEWAY_TOKEN", "not-the-token")
    with running_gateway(token="the-token") as gw:
        run = vora("logs", "--url", gw.url, "--json")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "gateway-auth"


def test_no_log_file_anywhere_is_not_found(tmp_path: Path, state_dir: Path, vora) -> None:
    log_folder(tmp_path)
    run = vora("logs", "--file", "--json")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "not_found"


# -- --follow, as real processes ended by Ctrl-C --------------------------------------------------------

def _spawn(args: list[str], state_dir: Path, tmp_path: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_")}
    env.update({"VORA_STATE_DIR": str(state_dir), "VORA_HOME": str(state_dir.parent), "TMPDIR": str(tmp_path / "tmp"),
                "PYTHONPATH": str(REPO), "NO_COLOR": "1"})
    return subprocess.Popen([sys.executable, "-m", "vora_cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _read_lines(proc: subprocess.Popen[str], count: int, timeout: float = 15) -> list[str]:
    out: list[str] = []

    def reader() -> None:
        assert proc.stdout is not None
        while len(out) < count:
            line = proc.stdout.readline()
            if not line:
                return
            out.append(line.rstrip("\n"))

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    thread.join(timeout)
    return out


def _interrupt(proc: subprocess.Popen[str]) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    return proc.returncode, err


@pytest.mark.slow
def test_follow_through_the_gateway_uses_the_cursor_and_marks_a_rotation(tmp_path: Path, state_dir: Path) -> None:
    with running_gateway(log_lines=list(LINES[:2])) as gw:
        gw.rotate_after = 4
        proc = _spawn(["logs", "--follow", "--json", "--url", gw.url], state_dir, tmp_path)
        first = _read_lines(proc, 2)
        gw.log_lines.append(LINES[4])
        second = _read_lines(proc, 1)
        gw.log_lines.append(LINES[3])  # the 4th line: the next poll answers reset
        third = _read_lines(proc, 1)
        code, err = _interrupt(proc)
    assert code == 0, err
    objects = [json.loads(line) for line in first + second + third]
    assert [o["message"] for o in objects][:3] == [
        "log file: /tmp/vora/vora-2026-04-12.log", "my-engine failed to load from /p/index.js: Error: boom",
        "ready (1 plugins: my-engine; 1.1s)"]
    assert objects[3]["message"] == "a raw line from an older build"
    assert "rotated or truncated" in err  # the marker goes to stderr in JSON Lines mode
    tails = [p for m, p in gw.requests if m == "logs.tail"]
    assert tails[0] == {"limit": 200} and tails[1] == {"cursor": 2}
    assert all(set(p) == {"cursor"} for p in tails[1:])


@pytest.mark.slow
def test_follow_the_file_prints_new_lines_and_a_truncation_marker(tmp_path: Path, state_dir: Path) -> None:
    folder = log_folder(tmp_path)
    log = folder / "vora-2026-04-12.log"
    log.write_text(LINES[0] + "\n")
    proc = _spawn(["logs", "--follow", "--file"], state_dir, tmp_path)
    first = _read_lines(proc, 1)
    with log.open("a") as handle:
        handle.write(LINES[1] + "\n")
    second = _read_lines(proc, 1)
    log.write_text(LINES[4] + "\n")  # rotated: shorter than before
    third = _read_lines(proc, 2)
    code, err = _interrupt(proc)
    assert code == 0, err
    assert first == HUMAN[:1] and second == HUMAN[1:2]
    assert third == ["--- the log file was rotated or truncated; continuing from its start ---", HUMAN[4]]




def _wait_for(condition: Callable[[], bool], timeout: float = 20) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the process never got there"
        time.sleep(0.02)


def _interrupt_in_the_wait(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
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
            code, out, err = _interrupt_in_the_wait(proc)
            assert code == 0, err
            assert out == "" and "Traceback" not in err and "error" not in err


def test_ctrl_c_during_the_handshake_exits_0(tmp_path: Path, state_dir: Path) -> None:
    with running_gateway(send_challenge=False) as gw:  # the socket opens; the challenge never comes
        proc = _spawn(["logs", "--follow", "--timeout", "60", "--url", gw.url], state_dir, tmp_path)
        _wait_for(lambda: len(gw.origins) > 0)
        code, out, err = _interrupt_in_the_wait(proc)
    assert code == 0, err
    assert out == "" and "Traceback" not in err and "error" not in err
