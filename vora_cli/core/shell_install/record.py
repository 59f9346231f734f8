"""vora's record of a completion script it wrote: its last line, the sha256 of every line above it
(docs/settings.md, "vora's own files only"). The record lives in the file, so nothing else can go stale.
"""

from __future__ import annotations

import hashlib

RECORD_PREFIX = "# vora-record sha256="
RECORD_NOTE = " (vora replaces or removes this file only while this matches the lines above)"


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def seal_script(text: str) -> str:
    """`text` with vora's record line appended (the script as vora prints and installs it)."""
    body = text if text.endswith("\n") else text + "\n"
    return f"{body}{RECORD_PREFIX}{_digest(body.encode('utf-8'))}{RECORD_NOTE}\n"


def written_by_vora(data: bytes) -> bool:
    """Whether `data` ends with a record line that matches everything above it."""
    if not data.endswith(b"\n"):
        return False
    cut = data.rfind(b"\n", 0, len(data) - 1) + 1
    last = data[cut:].decode("utf-8", errors="replace")
    if not last.startswith(RECORD_PREFIX):
        return False
    digest = last[len(RECORD_PREFIX):len(RECORD_PREFIX) + 64]
    return last == f"{RECORD_PREFIX}{digest}{RECORD_NOTE}\n" and digest == _digest(data[:cut])


def looks_like_vora_script(data: bytes) -> bool:
    """The header every vora completion script starts with (an edited or older one too)."""
    return b"completion for vora" in data[:400]
