"""The gateway's lock files, judged: who holds one, and whether it is live or stale (session locks, spec
sessions.md "Doctor"; the gateway's process lock, docs/backup.md).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from vora_cli.core.processes import pid_alive
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LOCK_STALE_MS = 30 * 60 * 1000
LOCK_READ_MAX = 64 * 1024

_ISO = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$"


@dataclass(frozen=True)
class LockJudgement:
    """Whether a gateway lock file is stale, and why."""
    path: Path
    stale: bool
    reason: str
    mtime_ns: int
    size: int


def _created_ms(value: Any) -> int | None:
    from vora_cli.core.sessions.jsfmt import is_finite_number

    if is_finite_number(value) and value > 0:
        return int(value)
    if isinstance(value, str) and re.match(_ISO, value.strip()):
        from vora_cli.core.clock import parse_iso_ms

        return parse_iso_ms(value)
    return None


def judge_lock(path: Path, now_ms: int) -> LockJudgement | None:
    """Is this lock stale (spec: pid missing or dead, createdAt missing/invalid or > 30 min;
    with neither a valid pid nor createdAt, mtime > 30 min)? None when it is gone."""
    from vora_cli.core.sessions.jsfmt import loads

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return None  # not a lock the gateway writes (and a FIFO would block)
        with open(path, "rb") as handle:
            data = handle.read(LOCK_READ_MAX)
    except OSError:
        return None
    try:
        value = loads(data)
    except (ValueError, RecursionError):
        value = None
    value = value if isinstance(value, dict) else {}
    raw_pid = value.get("pid")
    pid = raw_pid if isinstance(raw_pid, int) and not isinstance(raw_pid, bool) and raw_pid > 0 else None
    created = _created_ms(value.get("createdAt"))

    def verdict(stale: bool, reason: str) -> LockJudgement:
        return LockJudgement(path, stale, reason, info.st_mtime_ns, info.st_size)

    if pid is None and created is None:
        age = now_ms - info.st_mtime_ns // 1_000_000
        return verdict(age > LOCK_STALE_MS, f"no valid pid or createdAt; modified {max(0, age) // 60000} min ago")
    if pid is None:
        return verdict(True, "no valid pid")
    if not pid_alive(pid, value.get("starttime")):
        return verdict(True, f"pid {pid} is not running")
    if created is None:
        return verdict(True, "createdAt missing or invalid")
    age = now_ms - created
    if age > LOCK_STALE_MS:
        return verdict(True, f"created {age // 60000} min ago")
    return verdict(False, f"pid {pid} is running")
