"""Counting one segment: UTF-16 units, the content hash, and a bounded preview text.

Shared by the transcript reader (compaction summaries, read once) and the manifest.
"""

from __future__ import annotations

from vora_cli.core.sessions.jsfmt import utf8
from vora_cli.core.sessions.redact import SCAN_MAX, bounded_join, make_preview
from vora_cli.core.text import utf16_len

HASH_DIGITS = 12


class Counter:
    """Counts UTF-16 units and hashes the counted pieces; keeps a bounded preview text."""

    def __init__(self, previews: bool, *, small: bool = False) -> None:
        """`small`: one short text (a summary) is hashed, by `core/digests.py`; else every segment
        of a transcript, by hashlib (OpenSSL's SHA-256, faster per byte)."""
        self.chars = 0
        if small:
            from vora_cli.core.digests import sha256

            self.digest = sha256()
        else:
            import hashlib  # loaded on the first segment: a scan without one never loads OpenSSL

            self.digest = hashlib.sha256()
        self.previews = previews
        self.shown: list[str] = []
        self.shown_size = 0

    def count(self, text: str, *, units: int | None = None, show: str | None = None) -> None:
        self.chars += utf16_len(text) if units is None else units
        self.digest.update(utf8(text))
        shown = text if show is None else show
        if shown:
            self.show(shown)

    def show(self, text: str) -> None:
        if self.previews and self.shown_size <= SCAN_MAX:
            piece = text[:SCAN_MAX]
            self.shown.append(piece)
            self.shown_size += len(piece) + 1

    def hash(self) -> str:
        digits: str = self.digest.hexdigest()
        return digits[:HASH_DIGITS]

    def preview(self) -> str | None:
        if not self.previews:
            return None
        text, more = bounded_join(self.shown)
        return make_preview(text, more or self.shown_size > SCAN_MAX)


def summary_stats(summary: str, previews: bool) -> tuple[int, str, str | None]:
    """(chars, hash, preview) of a compaction or branch summary."""
    counter = Counter(previews, small=True)
    counter.count(summary)
    return counter.chars, counter.hash(), counter.preview()
