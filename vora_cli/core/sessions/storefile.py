"""Reading `sessions.json` in bounded memory, one member at a time, and (`scan_layout`) from the layout the
gateway writes; a store the gateway could not load is refused unread (docs/sessions.md, "Decisions").
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Callable, Iterator
from json.decoder import scanstring  # type: ignore[attr-defined]

from vora_cli.core import nesting
from vora_cli.core.sessions.jsonl import DECODER, SCAN_ONCE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO

# The gateway reads the store with `fs.readFileSync(path, "utf-8")`, which fails from 536,870,888
# bytes on (Node's string limit, 2**29 - 24 characters; measured with openclaw 2026.4.12 on
# Node 24.22): such a store is empty to the gateway.
STORE_MAX_BYTES = 536_870_887
# 256 KiB a read: each chunk becomes a fresh string of its size and more (decoded, then joined to
# the text left over), new memory each time and a page fault per page: a small chunk reuses it.
CHUNK_BYTES = 256 * 1024

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_BLANKS = frozenset(" \t\n\r")
_BLANK = rb"[ \t\n\r]*"
_CONTROL = rb"[\x00-\x1f]"


class StartOver(Exception):
    """The member reader cannot go on: parse the whole file instead (it holds the error)."""


class _Text:
    """The file as decoded text, from a moving start: `text` holds what is not consumed yet."""

    def __init__(self, handle: BinaryIO, first: bytes) -> None:
        self.handle = handle
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.eof = not first
        self.text = self._decode(first)
        self.size = CHUNK_BYTES

    def _decode(self, data: bytes) -> str:
        try:
            return self.decoder.decode(data, final=not data)
        except UnicodeDecodeError:
            raise StartOver from None  # the whole-file path decodes with U+FFFD, as before

    def more(self, keep_from: int) -> int:
        """Drop the text before `keep_from` and read on; the new index of `keep_from` (0).
        Each call for the same member reads twice as much, so a long member costs linear time."""
        if self.eof:
            raise StartOver
        data = self.handle.read(self.size)
        self.size = min(self.size * 2, 64 * 1024 * 1024)
        self.eof = not data
        self.text = self.text[keep_from:] + self._decode(data)
        return 0

    def done(self) -> None:
        self.size = CHUNK_BYTES

    def skip(self, i: int) -> int:
        """The index of the next non-blank character at or after `i`, reading on as needed."""
        while True:
            i = _WHITESPACE.match(self.text, i).end()  # type: ignore[union-attr]
            if i < len(self.text) or self.eof:
                return i
            i = self.more(i)


def members(handle: BinaryIO) -> Iterator[tuple[str, Any]]:
    """(key, value) of each top-level member of a JSON object, in file order (duplicates as they
    come: the caller keeps the last, in the place of the first, as `json.loads` does).

    Raises `StartOver` when the file needs the whole-file parse (that one reports every error)."""
    first = handle.read(CHUNK_BYTES)
    if json.detect_encoding(first) != "utf-8":
        raise StartOver  # a BOM, UTF-16 or UTF-32: `json.loads` of bytes reads those, so the whole-file path
    src = _Text(handle, first)
    i = src.skip(0)
    if i >= len(src.text) or src.text[i] != "{":
        raise StartOver
    i = src.skip(i + 1)
    if i < len(src.text) and src.text[i] == "}":
        _rest_is_blank(src, i + 1)
        return
    blank = _WHITESPACE.match
    while True:
        start = i
        while True:
            text = src.text
            try:
                if text[i] != '"':  # past the end: IndexError, read on
                    raise StartOver
                key, j = scanstring(text, i + 1, True)
                # The gateway writes `"key": value,`: each blank is tried with a character
                # comparison before the regex (per member of a store of 100,000)
                if text[j] != ":":
                    j = blank(text, j).end()  # type: ignore[union-attr]
                    if text[j] != ":":
                        raise StartOver
                j += 1
                if text[j] == " " and text[j + 1] not in _BLANKS:
                    j += 1
                elif text[j] in _BLANKS:
                    j = blank(text, j).end()  # type: ignore[union-attr]
                value_at = j
                value, j = SCAN_ONCE(text, j)
                if nesting.parsed_deeper_than(value, text, value_at, j, _MEMBER_LIMIT):
                    raise StartOver  # the whole-file parse names where it goes too deep
                # a number right at the end of the text may go on in the next chunk: see what
                # follows (past the end: IndexError, read on)
                if text[j] in _BLANKS:
                    j = blank(text, j).end()  # type: ignore[union-attr]
                    text[j]  # the IndexError at the end of the text
                break
            except StartOver:
                raise
            except (IndexError, StopIteration, ValueError, RecursionError) as error:
                if _broken_here(error, len(text)):
                    raise StartOver from None
                i = start = src.more(start)  # cut by the end of what is read: read on
        src.size = CHUNK_BYTES  # `done`, inline
        yield key, value
        after = text[j]
        if after == "}":
            _rest_is_blank(src, j + 1)
            return
        if after != ",":
            raise StartOver
        i = blank(text, j + 1).end()  # type: ignore[union-attr]
        if i >= len(text):
            i = src.skip(i)


_NEAR_END = 16  # a value cut by the end of the text fails within its last token


# A member's own level is the second: the store's object is the first (`core/nesting.py`, whose
# bound every other reader keeps; the C scanner reads far deeper).
_MEMBER_LIMIT = nesting.MAX_NESTING - 1


def _broken_here(error: Exception, size: int) -> bool:
    """Whether a failed member is broken for good, not just cut by the end of the text read so
    far (then the whole-file parse starts at once instead of reading the rest first)."""
    if isinstance(error, RecursionError):
        return True
    if isinstance(error, StopIteration):
        return isinstance(error.value, int) and error.value < size - _NEAR_END
    if isinstance(error, json.JSONDecodeError):
        return error.pos < size - _NEAR_END and not error.msg.startswith("Unterminated string")
    return isinstance(error, ValueError)  # NaN / Infinity, refused wherever they stand


def _rest_is_blank(src: _Text, i: int) -> None:
    """Only whitespace may follow the object ("Extra data" otherwise, from the whole-file parse)."""
    while True:
        if _WHITESPACE.match(src.text, i).end() != len(src.text):  # type: ignore[union-attr]
            raise StartOver
        if src.eof:
            return
        i = src.more(len(src.text))


# --- the gateway's layout, at byte speed (context --session) ---------------------------------

_MEMBER = b'\n  "'  # a line with exactly two spaces and a quote: a top-level key in the layout
_CLOSE = b"\n  }"  # the first line that is exactly `  }` after an entry's `{`: its end


def scan_layout(handle: BinaryIO, wanted: Callable[[str], bool],
                maybe: Callable[[bytes, int, int], bool]) -> dict[str, Any] | None:
    """The entries (parsed, in file order, the last of a duplicate key in the place of the first)
    whose key is `wanted`, or whose raw text `maybe(buffer, start, end)` says could be. None when
    the file is not in the gateway's layout or a returned entry does not parse: the caller reads
    the whole store. Other entries are skipped unparsed (docs/sessions.md)."""
    buf = handle.read(CHUNK_BYTES)
    eof = not buf
    pos = re.match(_BLANK, buf).end()  # type: ignore[union-attr]
    control = re.compile(_CONTROL)
    if buf[pos : pos + 1] != b"{":
        return None
    pos += 1
    order: dict[str, None] = {}  # every key, in the order of its first appearance
    found: dict[str, Any] = {}
    while len(buf) - pos < 4 and not eof:
        buf, pos, eof = _read_on(handle, buf, pos)
    if buf[pos : pos + 1] == b"}":  # `{}`: an empty store
        return {} if _blank_after(handle, buf, pos + 1) else None
    while True:
        if buf[pos : pos + 4] != _MEMBER:
            return None
        line_end = buf.find(b"\n", pos + 1)
        while line_end == -1 and not eof:
            buf, pos, eof = _read_on(handle, buf, pos)
            line_end = buf.find(b"\n", pos + 1)
        if line_end == -1:
            return None
        parsed = _key_line(buf[pos + 3 : line_end], control)
        if parsed is None:
            return None
        key, rest = parsed
        value_at = line_end - len(rest) - pos  # from the member's start (which moves when reading on)
        if rest == b"{}" or rest == b"{},":
            end = line_end - len(rest) + 2
        elif rest == b"{":
            close = buf.find(_CLOSE, line_end)
            while close == -1 and not eof:
                searched = len(buf) - pos
                buf, pos, eof = _read_on(handle, buf, pos)
                close = buf.find(_CLOSE, pos + max(searched - len(_CLOSE), 0))
            if close == -1:
                return None
            end = close + len(_CLOSE)
        else:
            return None  # not an object on the layout's terms (a scalar or an array entry)
        value_start = pos + value_at
        order.setdefault(key)
        if key in found or wanted(key) or maybe(buf, value_start, end):
            try:
                found[key] = DECODER.decode(buf[value_start:end].decode("utf-8"))
            except (ValueError, RecursionError):
                return None
            if nesting.parsed_deeper_than(found[key], buf, value_start, end, _MEMBER_LIMIT):
                return None
        pos = end
        while len(buf) - pos < 6 and not eof:
            buf, pos, eof = _read_on(handle, buf, pos)
        if buf[pos : pos + 1] == b",":
            pos += 1
        elif buf[pos : pos + 2] == b"\n}":
            if not _blank_after(handle, buf, pos + 2):
                return None
            return {k: found[k] for k in order if k in found}
        else:
            return None


def _blank_after(handle: BinaryIO, buf: bytes, pos: int) -> bool:
    """Only whitespace from `pos` to the end of the file."""
    if buf[pos:].strip(b" \t\n\r"):
        return False
    while data := handle.read(CHUNK_BYTES):
        if data.strip(b" \t\n\r"):
            return False
    return True


def _read_on(handle: BinaryIO, buf: bytes, pos: int) -> tuple[bytes, int, bool]:
    """Drop what is before `pos`, append the next chunk: (buffer, new pos (0), eof)."""
    data = handle.read(CHUNK_BYTES)
    return buf[pos:] + data, 0, not data


def _key_line(line: bytes, control: re.Pattern[bytes]) -> tuple[str, bytes] | None:
    """(key, what follows `": `) of a member line `"key": …`, or None (`control`: `_CONTROL`, compiled)."""
    quote = line.find(b'"', 1)
    if quote == -1:
        return None
    if b"\\" in line[1:quote] or not line[1:quote].isascii():
        try:
            text = line.decode("utf-8")
            key, end = scanstring(text, 1, True)
        except (UnicodeDecodeError, ValueError):
            return None
        tail = text[end:].encode("utf-8")
    else:
        if control.search(line, 1, quote):
            return None  # a raw control character: not JSON
        key = line[1:quote].decode("ascii")
        tail = line[quote + 1 :]
    if tail[:2] != b": ":
        return None
    return key, tail[2:]
