"""Reading a file the gateway may be writing, so the archive holds a consistent copy of it
(docs/backup.md, "While the gateway runs").
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.backup.limits import CHUNK
from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

TAIL_PARSE_MAX = 8 * 1024 * 1024  # a last line without "\n" up to this size is parsed to see if it is whole
STORE_SPOOL_MEMORY = 8 * 1024 * 1024  # a bigger store spills to a temp file: memory stays flat
STORE_READS = 5
LOCK_WAIT_S = 2.0
_BLOCK = 64 * 1024


def identity(info: os.stat_result) -> tuple[int, int, int, int]:
    """(device, inode, size, mtime in ns): what says a file is still the one seen (the backup's
    reads here, the restore's plan against landing)."""
    return info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns


class SourceGone(Exception):
    """The file vanished, or stopped being a regular file, between the walk and the read."""


class SourceShrank(VoraError):
    def __init__(self, path: Path) -> None:
        super().__init__("conflict", f"{path} got shorter while it was being backed up; no archive was written",
                         "something rewrote it in place; run the backup again")


class SourceRead:
    """Exactly `size` bytes of one source file (the tar header needs the size before the data)."""

    def __init__(self, path: Path, fd: int, info: os.stat_result, size: int, left_out: int = 0,
                 spool: IO[bytes] | None = None, change: str | None = None) -> None:
        self.path = path
        self._fd = fd
        self._info = info
        self.size = size
        self.left_out = left_out
        self._spool = spool
        self._change = change
        self._left = size

    def read(self, count: int = CHUNK) -> bytes:
        """The next `count` bytes (fewer only at the end of `size`); a file that ends sooner
        was cut while it was read, which no consistent copy survives: `SourceShrank`."""
        want = min(count, self._left)
        pieces: list[bytes] = []
        while want > 0:
            data = self._spool.read(want) if self._spool is not None else os.read(self._fd, want)
            if not data:
                raise SourceShrank(self.path)
            pieces.append(data)
            want -= len(data)
            self._left -= len(data)
        return b"".join(pieces)

    def change(self) -> str | None:
        """How the source changed since it was opened: `appended`, `modified`, `replaced`, `removed`."""
        if self._change is not None or self._spool is not None:
            return self._change
        now = os.fstat(self._fd)
        try:
            current = os.lstat(self.path)
        except FileNotFoundError:
            return "removed"
        if (current.st_dev, current.st_ino) != (self._info.st_dev, self._info.st_ino):
            return "replaced"
        if now.st_size > self._info.st_size:
            return "appended"
        if identity(now) != identity(self._info):
            return "modified"
        return None

    def close(self) -> None:
        if self._spool is not None:
            self._spool.close()
        os.close(self._fd)


def _open(path: Path) -> tuple[int, os.stat_result]:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise SourceGone() from None
    except OSError as exc:
        if exc.errno in (getattr(os, "ELOOP", -1),):
            raise SourceGone() from None
        raise
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise SourceGone()
    return fd, info


def whole_lines_size(fd: int, size: int) -> int:
    """The size up to the end of the last whole line (spec sessions.md's torn-tail rule)."""
    end = size
    while end > 0:
        start = max(0, end - _BLOCK)
        block = os.pread(fd, end - start, start)
        cut = block.rfind(b"\n")
        if cut >= 0:
            last_newline = start + cut
            break
        end = start
    else:
        last_newline = -1
    tail = size - (last_newline + 1)
    if tail == 0:
        return size
    if tail <= TAIL_PARSE_MAX:
        try:
            whole = isinstance(nesting.loads(os.pread(fd, tail, last_newline + 1)), dict)
        except ValueError:
            whole = False
        if whole:
            return size
    return last_newline + 1


def _store_lock_live(path: Path, now_ms: int) -> bool:
    """Whether the gateway's lock beside the store is live, judged at the run's clock (as the
    doctor judges it: `VORA_NOW_MS` pins both)."""
    from vora_cli.core.gateway_locks import judge_lock

    judged = judge_lock(path.with_name(path.name + ".lock"), now_ms)
    return judged is not None and not judged.stale


def _read_store(path: Path, now_ms: int) -> SourceRead:
    import tempfile

    change: str | None = None
    for attempt in range(STORE_READS):
        deadline = time.monotonic() + LOCK_WAIT_S
        while _store_lock_live(path, now_ms) and time.monotonic() < deadline:
            time.sleep(0.02)
        try:
            before = os.stat(path)
        except FileNotFoundError:
            raise SourceGone() from None
        fd, info = _open(path)
        spool: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=STORE_SPOOL_MEMORY)  # noqa: SIM115 - handed to SourceRead, closed there
        while chunk := os.read(fd, CHUNK):
            spool.write(chunk)
        size = spool.tell()
        try:
            after = os.stat(path)
        except FileNotFoundError:
            after = None
        steady = (after is not None and identity(before) == identity(info) == identity(after)
                  == identity(os.fstat(fd)) and size == info.st_size and not _store_lock_live(path, now_ms))
        if steady or attempt == STORE_READS - 1:
            change = None if steady else "modified"
            spool.seek(0)
            return SourceRead(path, fd, info, size, spool=spool, change=change)
        spool.close()
        os.close(fd)
    raise AssertionError("unreachable")  # pragma: no cover


def open_source(path: Path, reading: str, now_ms: int) -> SourceRead:
    """Open one file for the archive by its reading rule (`store`, `jsonl` or `plain`); `now_ms`
    is the run's clock a store's lock is judged by. Raises `SourceGone` when it is no longer a
    regular file."""
    if reading == "store":
        return _read_store(path, now_ms)
    fd, info = _open(path)
    size = whole_lines_size(fd, info.st_size) if reading == "jsonl" else info.st_size
    return SourceRead(path, fd, info, size, left_out=info.st_size - size)
