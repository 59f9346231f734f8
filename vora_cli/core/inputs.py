"""Reading what the operator hands vora as input: a file, or a stream (`-`, `/dev/stdin`, a FIFO, `<(…)`),
read to its end, never past `limit` bytes. Unlike a state file (`writer.read_bytes` refuses FIFOs), a
stream the operator names is the point: `vora config patch <(jq … )`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO


def _too_large(label: str, limit: int) -> VoraError:
    return VoraError("invalid", f"{label}: more than {limit:,} bytes of input",
                     f"inputs are limited to {limit:,} bytes; pass a smaller file")


def read_stream(stream: BinaryIO, limit: int, label: str) -> bytes:
    """Everything `stream` holds, up to `limit` bytes (one more is an error, not a cut)."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = stream.read(min(65536, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise _too_large(label, limit)


def read_input_bytes(path: Path, limit: int) -> bytes | None:
    """The bytes of the input file `path` (None when it does not exist): a regular file, or a
    pipe or character device read as a stream (`/dev/stdin`, `<(…)`, a FIFO)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}") from exc
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise VoraError("io_error", f"{path} is a directory, not a file", "pass a file, or - for stdin")
    if stat.S_ISREG(mode) and info.st_size > limit:
        raise _too_large(str(path), limit)
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise VoraError("io_error", f"{path} is not a file, a pipe or a device vora can read",
                        "pass a file, or - for stdin")
    try:
        with open(path, "rb") as stream:
            return read_stream(stream, limit, str(path))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}") from exc
