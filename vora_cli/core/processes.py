"""Is a process alive? The pid, and where there is /proc the start time, say (a ground rule): a pid alone
can be reused, so a recorded start time that differs means the recorded process is gone.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def process_start(pid: int) -> int | None:
    """Field 22 of /proc/PID/stat (start time in clock ticks), None where there is no /proc."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = text.rsplit(")", 1)[-1].split()
    try:
        return int(fields[19])
    except (IndexError, ValueError):
        return None


def pid_alive(pid: int, starttime: Any = None) -> bool:
    """Whether `pid` runs (and, given its recorded `starttime`, is still that process)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    except OSError:
        return False
    if isinstance(starttime, int) and not isinstance(starttime, bool):
        actual = process_start(pid)
        if actual is not None and actual != starttime:
            return False  # the pid was reused by another process
    return True
