"""JSON Lines read in bounded memory, one line at a time (spec sessions.md, "Transcripts"; docs/sessions.md);
`DECODER`, the one decoder of the gateway's JSON, serves the transcript and the session store.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from vora_cli.core.nesting import reading_huge_integers
from vora_cli.core.sessions.jsfmt import js_load_float
from vora_cli.core.strict_json import refuse_non_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# A line longer than this is never held in memory: it is read through in chunks and reported
# as a bad line (the gateway's own lines stay far below: tool results are capped well under it).
MAX_LINE_BYTES = 16 * 1024 * 1024
READ_CHUNK_BYTES = 1024 * 1024


DECODER = json.JSONDecoder(parse_float=js_load_float, parse_constant=refuse_non_finite)
# `DECODER.decode` called without its Python wrapper (two whitespace regex calls and a method
# hop per line): the same C scanner, the same whitespace rule around the value.
SCAN_ONCE: Callable[[str, int], tuple[Any, int]] = DECODER.scan_once  # type: ignore[attr-defined]
WHITESPACE = re.compile(r"[ \t\n\r]*")
_LEADINGWHITESPACE = frozenset(" \t\n\r")


def parse_line(raw: bytes) -> Any:
    """One JSONL line as JSON (UTF-8; invalid bytes become U+FFFD); raises ValueError."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "replace")
    start = WHITESPACE.match(text).end() if text[:1] in _LEADINGWHITESPACE else 0  # type: ignore[union-attr]
    try:
        value, end = SCAN_ONCE(text, start)
    except StopIteration as err:
        raise ValueError(f"no JSON value at column {err.value + 1}") from None
    except ValueError as err:  # an integer past `int()`'s digit limit, which JSON.parse reads
        if isinstance(err, json.JSONDecodeError):
            raise
        value, end = reading_huge_integers(DECODER).scan_once(text, start)  # type: ignore[attr-defined]
    if end != len(text) and WHITESPACE.match(text, end).end() != len(text):  # type: ignore[union-attr]
        raise ValueError(f"extra data at column {end + 1}")
    return value



BLANK: Any = object()  # what `line_value` gives for a blank line


def line_value(raw: bytes | None) -> Any:
    """A line as the transcript scan takes it: BLANK, its JSON value, or None (too long, or not JSON)."""
    if raw is None:
        return None
    if raw.isspace():
        return BLANK
    try:
        return parse_line(raw)
    except (ValueError, RecursionError):
        return None


def value_in_text(text: str, chunk: bytes, start: int, end: int) -> Any:
    """`line_value(chunk[start:end + 1])` for a line of an ASCII chunk, parsed in place in the chunk's
    text (no copy, no decode per line). Only the usual line, an object followed by its newline,
    is taken here; anything else (a blank or odd line, a parse error) goes to `line_value`."""
    i = start
    if text[i] in _LEADINGWHITESPACE:
        i = WHITESPACE.match(text, i).end()  # type: ignore[union-attr]
        if i > end:
            return BLANK  # only JSON whitespace up to the newline
    if text[i] != "{":
        return line_value(chunk[start : end + 1])
    try:
        value, stop = SCAN_ONCE(text, i)
    except (StopIteration, ValueError, RecursionError):
        return line_value(chunk[start : end + 1])
    # the object must end on this line (the scanner reads on across newlines) and only
    # whitespace may follow it there
    if stop > end or (stop != end and WHITESPACE.match(text, stop).end() <= end):  # type: ignore[union-attr]
        return line_value(chunk[start : end + 1])
    return value


def _spans(handle: BinaryIO) -> Iterator[tuple[bytes | None, int, int, bool, str | None]]:
    """(buffer, start, size, complete, text) per line: the line is `buffer[start:start + size]`
    (buffer None: too long to hold), `complete` whether it ends with a newline, `text` the
    buffer decoded when it is an ASCII chunk holding the whole line (else None). A line is held
    only while under MAX_LINE_BYTES, then only counted."""
    parts: list[bytes] = []  # the current line's pieces from earlier chunks
    pending = 0  # their size (the line's size so far, also once no longer held)
    while True:
        chunk = handle.read(READ_CHUNK_BYTES)
        if not chunk:
            if pending:
                yield (b"".join(parts) if pending < MAX_LINE_BYTES else None), 0, pending, False, None
            return
        text = chunk.decode("ascii") if chunk.isascii() else None
        find = chunk.find
        start = 0
        end = find(b"\n")
        while end != -1:
            text_size = pending + end - start
            if text_size >= MAX_LINE_BYTES:
                yield None, 0, text_size + 1, True, None
            elif parts:
                parts.append(chunk[start : end + 1])
                yield b"".join(parts), 0, text_size + 1, True, None
            else:
                yield chunk, start, text_size + 1, True, text
            parts = []
            pending = 0
            start = end + 1
            end = find(b"\n", start)
        rest = len(chunk) - start
        if rest:
            if pending + rest < MAX_LINE_BYTES:
                parts.append(chunk[start:] if start else chunk)
            else:
                parts = []
            pending += rest


def _split_lines(handle: BinaryIO) -> Iterator[tuple[bytes | None, int, bool]]:
    """(line or None when longer than MAX_LINE_BYTES, its size, whether it ends with a newline)."""
    for buffer, start, size, complete, _text in _spans(handle):
        yield (buffer[start : start + size] if buffer is not None else None), size, complete


def line_values(handle: BinaryIO) -> Iterator[tuple[Any, int, bool]]:
    """(the line as `line_value` takes it, its size, whether it ends with a newline); the lines of
    an ASCII chunk (the usual transcript) are parsed inside the chunk's text."""
    for buffer, start, size, complete, text in _spans(handle):
        if buffer is None:
            yield None, size, complete
        elif text is not None:
            yield value_in_text(text, buffer, start, start + size - 1), size, complete
        else:
            yield line_value(buffer[start : start + size] if start or size != len(buffer) else buffer), size, complete


RUN_BYTES = 4 * 1024 * 1024  # lines that follow each other in the file are read together, up to this


def values_at(path: Path, offsets: Sequence[int], sizes: Sequence[int],
              indices: Sequence[int]) -> Iterator[tuple[int, Any, int]]:
    """(index, the line's JSON value or None when it does not parse, its count of `{` and `[`)
    for each of `indices`; adjacent lines are read in one call up to RUN_BYTES. The count bounds
    the nesting, so a caller walks only a value that could be too deep."""
    count = len(indices)
    with open(path, "rb") as handle:
        k = 0
        while k < count:
            start = offsets[indices[k]]
            end = start + sizes[indices[k]]
            j = k + 1
            while j < count and offsets[indices[j]] == end and end + sizes[indices[j]] - start <= RUN_BYTES:
                end += sizes[indices[j]]
                j += 1
            handle.seek(start)
            data = handle.read(end - start)
            text = data.decode("ascii") if data.isascii() else None
            at = 0
            for i in indices[k:j]:
                size = sizes[i]
                if text is not None and data[at + size - 1 : at + size] == b"\n":
                    value = value_in_text(text, data, at, at + size - 1)
                else:
                    value = line_value(data[at : at + size])
                yield i, None if value is BLANK else value, data.count(b"{", at, at + size) + data.count(b"[", at, at + size)
                at += size
            k = j

