"""Run the real `vora` in this process and SIGKILL it at its N-th file system call.

    python kill_points.py COUNT_FILE KILL_AT WHEN -- devices approve ...

Every call that can change a file (`os.open`, `os.write`, `os.fsync`, `os.fchmod`, `os.chmod`,
`os.replace`, `os.rename`, `os.link`, `os.unlink`) is counted from the moment vora's `main`
starts; at call number KILL_AT the process sends itself SIGKILL, `before` or `after` the call.
KILL_AT 0 kills nothing and writes the number of calls to COUNT_FILE at exit, so a test learns
how many kill points a command has and then picks among them at random. KILL_AT `CALL:SUFFIX`
kills at the first `CALL` (one of the names above) whose last path argument ends with SUFFIX
(`link:/vora.json`: as the restore lands that file). A real kill: no Python clean-up, no
`finally`, no atexit runs after it.
"""

from __future__ import annotations

import atexit
import functools
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

CALLS = ("open", "write", "fsync", "fchmod", "chmod", "replace", "rename", "link", "unlink")


def main() -> None:
    count_file, point, when = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    assert sys.argv[4] == "--" and when in ("before", "after")
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
    if kill_at == 0:
        atexit.register(lambda: count_file.write_text(str(calls)))
    sys.argv = ["vora", *sys.argv[5:]]
    from vora_cli.__main__ import main as vora_main

    vora_main()


if __name__ == "__main__":
    main()
