"""Repairing a restore that a kill interrupted: finish it (every file had landed) or roll it back, from a
journal read under its lock and checked field by field (docs/backup.md, "All or nothing").
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Sequence
from pathlib import Path

from vora_cli.core.backup import journal_dir, pending_journals
from vora_cli.core.backup.landing import (
    JOURNAL_VERSION,
    Cleanup,
    Journal,
    Op,
    Recovered,
    holding,
    landed,
    roll_back,
)
from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

JOURNAL_MAX = 64 * 1024 * 1024
_ID = re.compile(r"[0-9a-f]{1,64}")


def _finish(journal: Journal, ops: Sequence[Op]) -> Recovered:
    cleanup = Cleanup()
    for op in ops:
        if op.action == "replace":
            cleanup.unlink(op.keep(journal.id))
        cleanup.unlink(op.temp)  # a create killed between its link and its unlink: a second name
    if not cleanup.stuck:
        journal.remove()
    return Recovered(str(journal.path), str(journal.data.get("archive", "")), "finished", len(ops), (),
                     cleanup.removed, tuple(cleanup.stuck))


def _valid(parsed: Any) -> bool:
    """Whether a journal holds what the repair relies on, each field of its type (a hand-edited
    or foreign file is refused, not half read)."""
    if not isinstance(parsed, dict) or parsed.get("version") != JOURNAL_VERSION or not isinstance(parsed.get("ops"), list):
        return False
    if not isinstance(parsed.get("id"), str) or not _ID.fullmatch(parsed["id"]):
        return False
    for key in ("dirs", "made"):
        value = parsed.get(key)
        if value is not None and not (isinstance(value, list) and all(isinstance(d, str) and d.startswith("/")
                                                                        for d in value)):
            return False
    return all(_valid_op(op) for op in parsed["ops"])


def _valid_op(op: Any) -> bool:
    if not isinstance(op, dict) or not isinstance(op.get("path"), str) or not op["path"].startswith("/"):
        return False
    if op.get("type") not in ("file", "symlink") or op.get("action") not in ("create", "replace"):
        return False
    temp, identity = op.get("temp"), op.get("identity")
    if temp is not None and not (isinstance(temp, str) and os.path.dirname(temp) == os.path.dirname(op["path"])
                                 and os.path.basename(temp).startswith(".") and temp.endswith(".tmp")):
        return False  # a temp file is always beside its target: the repair removes nothing else
    if identity is not None and not (isinstance(identity, list) and len(identity) == 2
                                     and all(type(n) is int for n in identity)):
        return False
    return all(op.get(k) is None or type(op[k]) is kind
               for k, kind in (("mtimeNs", int), ("size", int), ("sha256", str), ("link", str)))


def read_journal(path: Path) -> Journal | None:
    """The journal at `path`, or None when there is none or it is not one vora can act on."""
    from vora_cli.core import nesting
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes

    try:
        data = read_bytes(path, JOURNAL_MAX + 1)
        if data is None:
            return None
        parsed = nesting.loads(data.decode("utf-8", "surrogateescape"))
    except (VoraError, ValueError):
        return None
    return Journal(path, parsed) if _valid(parsed) else None


def running(path: Path) -> bool:
    """Whether the restore that wrote the journal at `path` still holds it (it is alive). Only
    tried, read-only: a live restore holds its lock file; none, or a free one, is a dead restore."""
    import fcntl

    from vora_cli.core.writer import lock_path_for

    try:
        fd = os.open(lock_path_for(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except (OSError, VoraError):
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def recover(path: Path) -> Recovered | None:
    """Finish (every file had landed) or roll back the dead restore whose journal is at `path`;
    None when its restore finished before the lock was had. The journal is read under its lock:
    one read before could describe a restore that has since ended."""
    try:
        with holding(Journal(path, {})):
            journal = read_journal(path)
            if journal is None:
                if not os.path.lexists(path):
                    return None
                raise VoraError("invalid", f"{path} is not a restore journal vora can read",
                                "move it away if no restore of yours is running")
            ops = journal.ops()
            if journal.data.get("phase") == "landing" and ops and all(landed(op) for op in ops):
                return _finish(journal, ops)
            return roll_back(journal, ops)
    except VoraError as error:
        if error.code != "conflict":
            raise
        return Recovered(str(path), "", "in-progress", 0)


def recover_all() -> list[Recovered]:
    """Repair every interrupted restore (those still running are left to finish), and remove what
    dead restores and repairs left in the journals' folder (lock and temp files)."""
    from vora_cli.core.temp_files import clean_dead_temps

    found = [r for r in (recover(path) for path in pending_journals()) if r is not None]
    folder = journal_dir()
    clean_dead_temps(folder)
    locks: list[str] = []
    with contextlib.suppress(OSError), os.scandir(folder) as listing:
        locks = [e.path for e in listing if e.name.endswith(".lock")]
    for lock in locks:
        _remove_free_lock(Path(lock))
    return found


def _remove_free_lock(lock: Path) -> None:
    """A lock file no process holds, whose journal is gone: litter of a killed restore or repair.
    Removed while held, so a waiter that got the same file notices (writer.file_lock)."""
    import fcntl

    if lock.name.endswith(".json.lock") and os.path.lexists(lock.with_name(lock.name[:-5])):
        return
    try:
        fd = os.open(lock, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.path.samestat(os.fstat(fd), os.lstat(lock)):
            os.unlink(lock)
    except OSError:
        return
    finally:
        os.close(fd)
