"""Reading a state file safely: the one reader under every load (the writer re-checks with it too)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from vora_cli.core.errors import VoraError


def read_bytes(path: Path) -> bytes | None:
    """A regular file's bytes, or None when it does not exist (a FIFO or device is refused:
    reading one could block forever)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}") from exc
    if not stat.S_ISREG(info.st_mode) and not stat.S_ISDIR(info.st_mode):
        raise VoraError("io_error", f"{path} is not a regular file", "point vora at a regular file")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise VoraError("io_error", f"{path} is a directory, not a file") from exc
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}") from exc


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
