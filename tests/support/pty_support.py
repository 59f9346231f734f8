"""Running a real `vora` process with a pseudo-terminal for stderr (and stdout unless piped)."""

from __future__ import annotations

import os
import pty
import subprocess


def run_with_pty(args: list[str], env: dict[str, str], *, stdout_on_pty: bool = True,
                 timeout: float = 60) -> tuple[int, str, str]:
    """Run `args`: (exit code, what went to stdout when it is piped, what the terminal showed)."""
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL,
                            stdout=secondary if stdout_on_pty else subprocess.PIPE, stderr=secondary)
    os.close(secondary)
    chunks = []
    while True:
        try:
            data = os.read(primary, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    piped = proc.stdout.read().decode() if proc.stdout else ""
    proc.wait(timeout=timeout)
    os.close(primary)
    return proc.returncode, piped, b"".join(chunks).decode("utf-8", "replace")
