"""Running a real `vora` process with a pseudo-terminal for stderr (and stdout unless piped)."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import termios


def run_with_pty(args: list[str], env: dict[str, str], *, stdout_on_pty: bool = True,
                 timeout: float = 60, columns: int | None = None, cwd: str | None = None,
                 default_pager: bool = True) -> tuple[int, str, str]:
    """Run `args`: (exit code, what went to stdout when it is piped, what the terminal showed).
    `columns`: the terminal's width (its size as the child asks the terminal for it). A long view
    is printed, not paged (`PAGER=cat`), unless `env` names a pager or `default_pager` is False (the
    pager setting decides): nobody presses q here."""
    if default_pager:
        env = {"PAGER": "cat", **env}
    primary, secondary = pty.openpty()
    if columns is not None:
        fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    proc = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, cwd=cwd,
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
