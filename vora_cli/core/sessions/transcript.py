"""A streaming reader of one transcript (spec sessions.md, "Transcripts").

One pass, line by line: memory holds a few numbers per entry (id, parent index, type, byte
offset and length), never the file. A torn last line (no trailing newline, does not parse) is
the gateway still writing: skipped and reported as `tornTail`. A line that does not parse is
skipped and reported by its 1-based number. The entries that the model sees are read again
later by seeking to their offsets (`read_entries`).
"""

from __future__ import annotations

import json
import os
import re
import stat
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from vora_cli.core import nesting
from vora_cli.core.sessions.jsfmt import is_finite_number, js_load_float
from vora_cli.core.strict_json import refuse_non_finite

NO_PARENT = -1
# A line longer than this is never held in memory: it is read through in chunks and reported
# as a bad line (the gateway's own lines stay far below: tool results are capped well under it).
MAX_LINE_BYTES = 16 * 1024 * 1024
READ_CHUNK_BYTES = 1024 * 1024


_DECODER = json.JSONDecoder(parse_float=js_load_float, parse_constant=refuse_non_finite)
# `_DECODER.decode` called without its Python wrapper (two whitespace regex calls and a method
# hop per line, a fifth of a scan): the same C scanner, the same whitespace rule around the value.
_SCAN_ONCE: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_LEADING_WHITESPACE = frozenset(" \t\n\r")


def parse_line(raw: bytes) -> Any:
    """One JSONL line as JSON (UTF-8; invalid bytes become U+FFFD); raises ValueError."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "replace")
    start = _WHITESPACE.match(text).end() if text[:1] in _LEADING_WHITESPACE else 0  # type: ignore[union-attr]
    try:
        value, end = _SCAN_ONCE(text, start)
    except StopIteration as err:
        raise ValueError(f"no JSON value at column {err.value + 1}") from None
    if end != len(text) and _WHITESPACE.match(text, end).end() != len(text):  # type: ignore[union-attr]
        raise ValueError(f"extra data at column {end + 1}")
    return value


class EntryIds:
    """Entry ids by index, compactly: the gateway's ids are 8 hex digits, kept as numbers in an
    array (no object per entry); any other id is kept as a string on the side."""

    def __init__(self) -> None:
        self._numbers: array[int] = array("q")
        self._others: dict[int, str] = {}

    @staticmethod
    def key(entry_id: str) -> int | str:
        """What an id is looked up by: its number when it is 8 lower-case hex digits."""
        if len(entry_id) == 8:
            try:
                number = int(entry_id, 16)
            except ValueError:
                return entry_id
            if f"{number:08x}" == entry_id:
                return number
        return entry_id

    def append(self, entry_id: str) -> None:
        self.append_key(self.key(entry_id))

    def append_key(self, key: int | str) -> None:
        """Append the id whose `key` this is (a scan computes it once for two uses)."""
        if isinstance(key, int):
            self._numbers.append(key)
        else:
            self._others[len(self._numbers)] = key
            self._numbers.append(-1)

    def __getitem__(self, index: int) -> str:
        number = self._numbers[index]
        if number < 0:
            return self._others[index if index >= 0 else len(self._numbers) + index]
        return f"{number:08x}"

    def __len__(self) -> int:
        return len(self._numbers)


@dataclass(frozen=True)
class CompactionInfo:
    """A `compaction` entry, without its summary text (only its size, hash and preview)."""

    index: int
    entry_id: str
    line: int
    timestamp: Any
    summary_chars: int
    summary_hash: str
    preview: str | None
    first_kept_entry_id: Any
    tokens_before: Any
    from_hook: Any


@dataclass
class TranscriptScan:
    """What one pass over a transcript found; the entry tree as parallel arrays."""

    path: Path
    exists: bool = False
    bytes: int = 0
    lines: int = 0
    by_type: dict[str, int] = field(default_factory=dict)
    by_role: dict[str, int] = field(default_factory=dict)
    bad_lines: list[int] = field(default_factory=list)
    torn_tail: bool = False
    header: dict[str, Any] | None = None
    first_line_is_header: bool = True
    stopped_early: bool = False
    ids: EntryIds = field(default_factory=EntryIds)
    parents: array[int] = field(default_factory=lambda: array("q"))
    types: list[str] = field(default_factory=list)
    offsets: array[int] = field(default_factory=lambda: array("q"))
    sizes: array[int] = field(default_factory=lambda: array("q"))
    children: array[int] = field(default_factory=lambda: array("q"))
    compactions: list[CompactionInfo] = field(default_factory=list)
    # index -> ("thinking", level) | ("model", "provider/model"): the settings a path carries
    settings: dict[int, tuple[str, str]] = field(default_factory=dict)

    @property
    def entries(self) -> int:
        return len(self.ids)

    @property
    def leaf(self) -> int | None:
        return len(self.ids) - 1 if self.ids else None

    @property
    def leaf_id(self) -> str | None:
        return self.ids[-1] if self.ids else None

    @property
    def branch_points(self) -> list[str]:
        return [self.ids[i] for i, n in enumerate(self.children) if n > 1]

    def header_summary(self) -> dict[str, Any] | None:
        if self.header is None:
            return None
        return {k: self.header.get(k) for k in ("id", "version", "timestamp", "cwd")}

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "exists": self.exists,
            "bytes": self.bytes if self.exists else None,
            "lines": self.lines,
            "entries": self.entries,
            "byType": dict(self.by_type),
            "byRole": dict(self.by_role),
            "badLines": list(self.bad_lines),
            "tornTail": self.torn_tail,
            "branchPoints": self.branch_points,
            "leafId": self.leaf_id,
            "header": self.header_summary(),
        }


def _text_of(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _settings_of(obj: dict[str, Any], kind: str) -> tuple[str, str] | None:
    if kind == "thinking_level_change":
        level = obj.get("thinkingLevel")
        return ("thinking", level) if isinstance(level, str) else None
    if kind == "model_change":
        provider, model = obj.get("provider"), obj.get("modelId")
    else:
        message = obj.get("message")
        if not isinstance(message, dict):
            return None
        provider, model = message.get("provider"), message.get("model")
    if not isinstance(model, str) or not model:
        return None
    return ("model", f"{provider}/{model}" if isinstance(provider, str) and provider else model)


def scan_transcript(path: Path, *, previews: bool = True, max_bad: int | None = None) -> TranscriptScan:
    """One streamed pass over `path` (read-only; a missing file is `exists: False`).

    `max_bad` stops at that many bad lines (doctor); `previews` False keeps no text at all.
    """
    from vora_cli.core.sessions.counting import summary_stats

    scan = TranscriptScan(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return scan  # a FIFO or a device would block or never end: not a transcript
        handle = open(path, "rb")  # noqa: SIM115 (closed below; the loop is long)
    except (FileNotFoundError, NotADirectoryError):
        return scan
    scan.exists = True
    index_of: dict[int | str, int] = {}
    key_of = EntryIds.key
    settings_seen: dict[tuple[str, str], tuple[str, str]] = {}  # one tuple per distinct setting
    type_names: dict[str, str] = {}
    chain = False  # header version < 3: entries form a chain in file order
    seen_first = False
    # The gateway appends each entry as a child of the one before: that parent is found by
    # comparing two strings, without computing a lookup key.
    previous_id: str | None = None
    ids, parents, types, offsets, sizes, children = (
        scan.ids, scan.parents, scan.types, scan.offsets, scan.sizes, scan.children)
    by_type, by_role = scan.by_type, scan.by_role
    append_id = ids.append_key
    position = 0
    line_no = 0
    with handle:
        for raw, size, complete in _lines(handle):
            line_no += 1
            offset = position
            position += size
            if raw is not None and raw.isspace():
                continue
            obj = None
            if raw is not None:
                try:
                    obj = parse_line(raw)
                except (ValueError, RecursionError):
                    obj = None
            if not isinstance(obj, dict):
                if not complete:
                    scan.torn_tail = True  # the gateway is still writing this line
                    break
                scan.lines += 1
                scan.bad_lines.append(line_no)
                if max_bad is not None and len(scan.bad_lines) >= max_bad:
                    scan.stopped_early = True
                    break
                if not seen_first:
                    seen_first = True
                    scan.first_line_is_header = False
                continue
            scan.lines += 1
            raw_kind = obj.get("type")
            kind = type_names.setdefault(raw_kind, raw_kind) if isinstance(raw_kind, str) else "?"
            if not seen_first:
                seen_first = True
                if kind == "session":
                    scan.header = obj
                    version = obj.get("version")
                    chain = not is_finite_number(version) or version < 3
                    continue
                scan.first_line_is_header = False
            elif kind == "session":
                continue  # a second header is not an entry
            by_type[kind] = by_type.get(kind, 0) + 1
            entry_id = obj.get("id")
            i = len(ids)
            if not isinstance(entry_id, str) or not entry_id:
                entry_id = f"line-{line_no}"
            if chain:
                parent = i - 1 if i else NO_PARENT
            else:
                parent_id = obj.get("parentId")
                if not isinstance(parent_id, str):
                    parent = NO_PARENT
                elif parent_id == previous_id:  # entry i - 1 was the last one keyed
                    parent = i - 1
                else:
                    parent = index_of.get(key_of(parent_id), NO_PARENT)
            entry_key = key_of(entry_id)
            append_id(entry_key)
            index_of[entry_key] = i
            previous_id = entry_id
            parents.append(parent)
            types.append(kind)
            offsets.append(offset)
            sizes.append(size)
            children.append(0)
            if parent != NO_PARENT:
                children[parent] += 1
            if kind == "message":
                message = obj.get("message")
                role = message.get("role") if isinstance(message, dict) else None
                role_name = role if isinstance(role, str) else "?"
                by_role[role_name] = by_role.get(role_name, 0) + 1
                if role == "assistant":
                    found = _settings_of(obj, kind)
                    if found:
                        scan.settings[i] = settings_seen.setdefault(found, found)
            elif kind in ("model_change", "thinking_level_change"):
                found = _settings_of(obj, kind)
                if found:
                    scan.settings[i] = settings_seen.setdefault(found, found)
            elif kind == "compaction":
                summary = _text_of(obj.get("summary"))
                chars, digest, preview = summary_stats(summary, previews)
                scan.compactions.append(
                    CompactionInfo(i, entry_id, line_no, obj.get("timestamp"), chars, digest, preview,
                                   obj.get("firstKeptEntryId"), obj.get("tokensBefore"), obj.get("fromHook"))
                )
    scan.bytes = position
    return scan


def _lines(handle: BinaryIO) -> Iterator[tuple[bytes | None, int, bool]]:
    """(line or None when longer than MAX_LINE_BYTES, its size, whether it ends with a newline).

    Reads READ_CHUNK_BYTES at a time and splits on b"\n" (a `readline` per line costs twice as
    much); a line is held only while its text stays under MAX_LINE_BYTES, then only counted.
    """
    parts: list[bytes] = []  # the current line's pieces from earlier chunks
    pending = 0  # their size (the line's size so far, also once no longer held)
    while True:
        chunk = handle.read(READ_CHUNK_BYTES)
        if not chunk:
            if pending:
                yield (b"".join(parts) if pending < MAX_LINE_BYTES else None), pending, False
            return
        find = chunk.find
        start = 0
        end = find(b"\n")
        while end != -1:
            text_size = pending + end - start
            if text_size >= MAX_LINE_BYTES:
                yield None, text_size + 1, True
            elif parts:
                parts.append(chunk[start : end + 1])
                yield b"".join(parts), text_size + 1, True
            else:
                yield chunk[start : end + 1], text_size + 1, True
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


def leaf_path(scan: TranscriptScan) -> list[int]:
    """Entry indices from the root to the leaf (the last entry in the file)."""
    path: list[int] = []
    seen: set[int] = set()
    current = scan.leaf if scan.leaf is not None else NO_PARENT
    while current != NO_PARENT and current not in seen:
        seen.add(current)
        path.append(current)
        current = scan.parents[current]
    path.reverse()
    return path


def read_entries(path: Path, scan: TranscriptScan, indices: list[int]) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """Re-read the entries at `indices` by seeking to their offsets (None if one changed)."""
    with open(path, "rb") as handle:
        for i in indices:
            handle.seek(scan.offsets[i])
            raw = handle.read(scan.sizes[i])
            try:
                obj = parse_line(raw)
            except (ValueError, RecursionError):
                obj = None
            if isinstance(obj, dict) and nesting.deeper_than(obj):
                # what the model sees is walked to be shown: past the bound it is cut, and says so
                obj = nesting.cut_below(obj)
            yield i, obj if isinstance(obj, dict) else None

