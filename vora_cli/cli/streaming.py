"""Output held back or streamed: a `Spool` keeps text until what goes above it is known, and `stream_json`
writes a document whose last list is given item by item; both write through `cli/output.py`'s helpers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from vora_cli.cli.json_text import to_json
from vora_cli.cli.output import ASCII_SYMBOLS, fit_to_stream, stream_is_unicode
from vora_cli.core.text import escape_controls

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO


class Spool:
    """Text held back until what goes before it is known (a total printed above a list): in
    memory up to `MEMORY_BYTES`, then in an anonymous temporary file (no name, gone when closed),
    so a list of any length never has to be held whole. Written out with `copy_out`."""

    MEMORY_BYTES = 4 * 1024 * 1024

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._size = 0
        self._file: TextIO | None = None

    def write(self, text: str) -> None:
        if self._file is not None:
            self._file.write(text)
            return
        self._parts.append(text)
        self._size += len(text)
        if self._size > self.MEMORY_BYTES:
            import tempfile

            self._file = tempfile.TemporaryFile(  # noqa: SIM115 (closed by copy_out)
                mode="w+", encoding="utf-8", errors="surrogatepass", newline="")
            for part in self._parts:
                self._file.write(part)
            self._parts = []

    def copy_out(self) -> None:
        """Everything written, to stdout as it is (it was made for stdout); then closed."""
        if self._file is None:
            for part in self._parts:
                sys.stdout.write(part)
            self._parts = []
            return
        with self._file as held:
            held.seek(0)
            while chunk := held.read(1024 * 1024):
                sys.stdout.write(chunk)


class LineSpool(Spool):
    """`Output.line` (no style) into a `Spool`: nothing in JSON mode; folded to `width` at word
    boundaries when one is given (a terminal's), as `Output.line` folds."""

    def __init__(self, json_mode: bool, width: int | None = None, *, ascii_only: bool = False) -> None:
        super().__init__()
        self.json_mode = json_mode
        self.width = width
        self.ascii_only = ascii_only  # `--ascii`: symbols as `Output.line` shows them

    def line(self, text: str = "", hanging: str | None = None) -> None:
        if self.json_mode:
            return
        if self.ascii_only and not text.isascii():
            text = text.translate(ASCII_SYMBOLS)
        text = fit_to_stream(escape_controls(text), sys.stdout)
        if self.width is not None and len(text) > self.width:
            from vora_cli.cli.wrapping import fold_line

            text = "\n".join(fold_line(text, self.width, hanging))
        self.write(text + "\n")


STREAM_BATCH = 256  # items of a streamed list encoded together (memory: these items, not the list)


def stream_json(head: Any, items: Iterable[Any]) -> None:
    """The compact document `stdout_json` writes for `head`, with `items` streamed one at a time
    as its last list value (at any depth), so no full list is ever built. `head` holds that list
    empty; compact JSON only. A callable `head` (it holds the items' totals) is built after the
    items, which are spooled meanwhile."""
    ascii_only = not stream_is_unicode(sys.stdout)

    def each(write: Callable[[str], Any]) -> None:
        # `STREAM_BATCH` items a call: the text of a list is its items' texts joined by ", ",
        # so one encoder call per batch writes the same bytes as one per item, without the
        # per-item calls (100,000 rows of `sessions list --json`)
        batch: list[Any] = []
        more = ""
        for item in items:
            batch.append(item)
            if len(batch) == STREAM_BATCH:
                write(more + _items_json(batch, ascii_only))
                batch.clear()
                more = ", "
        if batch:
            write(more + _items_json(batch, ascii_only))

    if callable(head):
        spool = Spool()
        each(spool.write)
        prefix, closing = _split_json(head(), ascii_only)
        sys.stdout.write(prefix)
        spool.copy_out()
    else:
        prefix, closing = _split_json(head, ascii_only)
        sys.stdout.write(prefix)
        each(sys.stdout.write)
    sys.stdout.write(closing + "\n")


def _items_json(batch: list[Any], ascii_only: bool) -> str:
    return to_json(batch, indent=None, ascii_only=ascii_only)[1:-1]


def _split_json(head: Any, ascii_only: bool) -> tuple[str, str]:
    """`head` as compact JSON, cut inside its last value, an empty list: (up to `[`, `]}…}`)."""
    text = to_json(head, indent=None, ascii_only=ascii_only)
    braces = len(text) - len(text.rstrip("}"))
    assert text[: len(text) - braces].endswith("[]"), "the streamed list must be the document's last value"
    return text[: len(text) - braces - 1], "]" + "}" * braces
