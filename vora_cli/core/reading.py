"""Reading a state file safely: the one reader under every load (the writer re-checks with it too)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from vora_cli.core.errors import VoraError


def read_bytes(path: Path | str, most: int | None = None, *, from_end: bool = False) -> bytes | None:
    """A regular file's bytes (its first `most` when given, its last with `from_end`: a check that
    needs one end never holds the rest), or None when it does not exist. A FIFO, socket or device is refused, before opening
    and again on the open file (opened without blocking: one put in the file's place between the
    two is never waited on)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}") from exc
    _refuse_unless_regular(path, info.st_mode)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}") from exc
    try:
        info = os.fstat(fd)
        _refuse_unless_regular(path, info.st_mode)
        if from_end and most is not None and info.st_size > most:
            os.lseek(fd, info.st_size - most, os.SEEK_SET)
        block = max(info.st_size + 1, 65536)  # the whole file and its end in one read when it does not grow
        chunks = []
        left = most if most is not None else -1
        while left != 0:
            chunk = os.read(fd, block if left < 0 else min(left, block))
            if not chunk:
                break
            chunks.append(chunk)
            if left > 0:
                left -= len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}") from exc
    finally:
        os.close(fd)


def _refuse_unless_regular(path: Path | str, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise VoraError("io_error", f"{path} is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise VoraError("io_error", f"{path} is not a regular file", "point vora at a regular file")


def read_own_file(path: Path, most: int) -> tuple[str, bytes, int]:
    """One of vora's own cache files: ("ok", its first `most` bytes, its size), ("missing", b"", 0),
    or ("foreign", b"", 0) for anything vora may not trust as its own (another owner, group- or
    world-writable, not a regular file, a link: opened without following one) or cannot read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return "missing", b"", 0
    except OSError:
        return "foreign", b"", 0
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
            return "foreign", b"", 0
        chunks = []
        left = min(info.st_size, most)
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return "ok", b"".join(chunks), info.st_size
    except OSError:
        return "foreign", b"", 0
    finally:
        os.close(fd)
