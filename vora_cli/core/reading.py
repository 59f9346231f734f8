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
