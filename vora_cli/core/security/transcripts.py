"""Whether a transcript holds a secret: the check `transcript-secrets`, bounded and linear; what is found is
named by its kind and line, never shown (docs/security.md, "Files").
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_FILE_BYTES = 16 * 1024 * 1024
WINDOW = 64 * 1024
OVERLAP = 512
MAX_HITS = 5


@dataclass(frozen=True)
class SecretHit:
    """A secret found on one line of a transcript (the secret itself never kept)."""
    line: int  # 1-based
    kind: str  # "a bearer token", "the value of a secret in this install's config"


@dataclass(frozen=True)
class TranscriptScan:
    """What the secret scan of one transcript found."""
    hits: tuple[SecretHit, ...]
    scanned_bytes: int
    size: int
    error: str | None = None  # why it could not be read (a FIFO or device in a transcript's place)

    @property
    def truncated(self) -> bool:
        return self.scanned_bytes < self.size


def _strings(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _windows(text: str) -> Iterator[str]:
    if len(text) <= WINDOW:
        yield text
        return
    start = 0
    while start < len(text):
        yield text[start:start + WINDOW]
        start += WINDOW - OVERLAP


def text_secret(text: str, known: frozenset[str]) -> str | None:
    """The kind of the first secret in `text`, or None."""
    from vora_cli.core.sessions.redact import secret_kind

    for window in _windows(text):
        kind = secret_kind(window)
        if kind is not None:
            return kind
    if any(value in text for value in known):
        return "the value of a secret this install's config holds"
    return None


def scan_text(data: bytes, known: frozenset[str]) -> tuple[SecretHit, ...]:
    hits: list[SecretHit] = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        text = raw.decode("utf-8", "replace")
        try:
            pieces: Iterator[str] = _strings(nesting.loads(text))
        except ValueError:  # a torn or foreign line: its text as it is
            pieces = iter((text,))
        kind = next((k for piece in pieces if (k := text_secret(piece, known)) is not None), None)
        if kind is not None:
            hits.append(SecretHit(number, kind))
            if len(hits) >= MAX_HITS:
                break
    return tuple(hits)


def scan_transcript(path: Path, known: frozenset[str]) -> TranscriptScan | None:
    """None when the file cannot be read. Cached by the file's identity: two checks ask."""
    try:
        st = path.stat()
    except OSError:
        return None
    return _scan(str(path), st.st_mtime_ns, st.st_size, known)


@lru_cache(maxsize=512)
def _scan(path: str, mtime_ns: int, size: int, known: frozenset[str]) -> TranscriptScan | None:
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes

    del mtime_ns  # part of the cache key only
    try:
        data = read_bytes(Path(path), MAX_FILE_BYTES)
    except VoraError as error:
        return TranscriptScan((), 0, 0, error.message)
    if data is None:
        return None
    if len(data) == MAX_FILE_BYTES and size > MAX_FILE_BYTES:
        cut = data.rfind(b"\n")
        data = data[: cut + 1] if cut > 0 else data
    return TranscriptScan(scan_text(data, known), len(data), size)
