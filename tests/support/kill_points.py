"""Run the real `vora` and SIGKILL it at its N-th file system call.

    python kill_points.py COUNT_FILE KILL_AT WHEN -- devices approve ...

Every call that can change a file (`os.open`, `os.write`, `os.fsync`, `os.fchmod`, `os.chmod`,
`os.replace`, `os.rename`, `os.link`, `os.unlink`) is counted from the moment vora's `main`
starts; at call number KILL_AT the process sends itself SIGKILL, `before` or `after` the call.
KILL_AT 0 kills nothing and writes the number of calls to COUNT_FILE at exit, so a test learns
how many kill points a command has and then picks among them at random. KILL_AT `CALL:SUFFIX`
kills at the first `CALL` (one of the names above) whose last path argument ends with SUFFIX
(`link:/vora.json`: as the restore lands that file). A real kill: no Python clean-up, no
`finally`, no atexit runs after it.

A test that kills one short command many times starts it from a `Launcher` instead: one Python
process imports vora once (`python kill_points.py --serve`) and forks a fresh process for each
run, which counts and dies the same way; only the interpreter's start and vora's imports, the
same for every run, are not repeated.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

CALLS = ("open", "write", "fsync", "fchmod", "chmod", "replace", "rename", "link", "unlink")
RUN_TIMEOUT = 120  # seconds a forked run may take before the launcher's caller gives up (a hang guard)


def count_calls(point: str, when: str) -> Callable[[], int]:
    """Count every call of CALLS from now on, SIGKILLing this process at `point` (see above);
    returns how many calls were made so far."""
    assert when in ("before", "after")
    kill_at = int(point) if ":" not in point else -1
    wanted, _, suffix = point.partition(":")
    calls = 0

    def counted(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(real)
        def call(*args: Any, **kwargs: Any) -> Any:
            nonlocal calls
            calls += 1
            here = calls == kill_at
            if kill_at < 0 and name == wanted:
                paths = [os.fsdecode(a) for a in args if isinstance(a, (str, os.PathLike))]
                here = bool(paths) and paths[-1].endswith(suffix)
            if here and when == "before":
                os.kill(os.getpid(), signal.SIGKILL)
            result = real(*args, **kwargs)
            if here and when == "after":
                os.kill(os.getpid(), signal.SIGKILL)
            return result

        return call

    for name in CALLS:
        setattr(os, name, counted(name, getattr(os, name)))
    return lambda: calls


def main() -> None:
    count_file, point, when = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    assert sys.argv[4] == "--"
    calls = count_calls(point, when)
    if point == "0":
        atexit.register(lambda: count_file.write_text(str(calls())))
    sys.argv = ["vora", *sys.argv[5:]]
    from vora_cli.__main__ import main as vora_main

    vora_main()


def _child(request: dict[str, Any], errors: str) -> None:
    """The forked run: stdin and stdout nowhere, stderr to `errors`, then vora's main as the script
    above runs it; never returns."""
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.dup2(os.open(errors, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 2)
        sys.stdin = open(os.devnull)  # noqa: SIM115 - the launcher's buffered requests stay behind
        atexit._clear()  # the launcher's own exit handlers are not this run's
        point = request["kill_at"]
        if point is not None:
            calls = count_calls(point, request["when"])
            if point == "0":
                count_file = Path(request["count_file"])
                atexit.register(lambda: count_file.write_text(str(calls())))
        sys.argv = ["vora", *request["args"]]
        from vora_cli.__main__ import main as vora_main

        try:
            vora_main()
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
            if isinstance(done.code, str):
                print(done.code, file=sys.stderr)
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
    finally:
        os._exit(code)


def serve() -> None:
    """Read one JSON request a line on stdin, fork a run for each, answer `{status, stderr}`: the
    exit status as subprocess gives it (-9 for SIGKILL). `delay`: SIGKILL the run after that many
    seconds instead of at a call."""
    # imported once, for every run forked below
    import vora_cli.__main__
    import vora_cli.cli.app
    import vora_cli.cli.dispatch  # noqa: F401

    folder = tempfile.mkdtemp(prefix="kill-points-")
    while line := sys.stdin.buffer.readline():
        request = json.loads(line)
        errors = os.path.join(folder, "stderr")
        pid = os.fork()
        if pid == 0:
            _child(request, errors)
        if request.get("delay") is not None:
            time.sleep(request["delay"])
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        returncode = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        stderr = Path(errors).read_text(errors="replace") if os.path.exists(errors) else ""
        sys.stdout.write(json.dumps({"status": returncode, "stderr": stderr}) + "\n")
        sys.stdout.flush()


class Launcher:
    """The `--serve` process, for a test that runs vora many times: `run` returns a forked run's
    (exit status, stderr). Started with the test's environment; its runs inherit it."""

    def __init__(self, env: dict[str, str]) -> None:
        # a session of its own: a run that hangs is killed with the launcher, as one group
        self.process = subprocess.Popen([sys.executable, __file__, "--serve"], env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, start_new_session=True)

    def run(self, args: list[str], kill_at: str | int | None = None, when: str = "before",
            count_file: Path | None = None, delay: float | None = None) -> tuple[int, str]:
        """`vora ARGS` in a fresh process, killed at call `kill_at` (0: counted into `count_file`,
        None: not counted) or after `delay` seconds."""
        assert self.process.stdin and self.process.stdout
        request = {"args": args, "kill_at": None if kill_at is None else str(kill_at), "when": when,
                   "count_file": str(count_file) if count_file else None, "delay": delay}
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], RUN_TIMEOUT)
        if not ready:
            os.killpg(self.process.pid, signal.SIGKILL)
            raise AssertionError(f"vora {' '.join(args)} did not finish within {RUN_TIMEOUT} s")
        answer = self.process.stdout.readline()
        assert answer, "the launcher died"
        done = json.loads(answer)
        return done["status"], done["stderr"]

    def __enter__(self) -> Launcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        # closing its stdin ends it; a caller that gave up on a hung run killed the group already
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        self.process.wait(timeout=RUN_TIMEOUT)


if __name__ == "__main__":
    serve() if sys.argv[1:] == ["--serve"] else main()
