"""A streaming reader of one transcript: one pass, a few numbers per entry, a torn last line reported as
`tornTail`, the entries the model sees read again later (spec sessions.md, "Transcripts").
"""

from __future__ import annotations

import os
import stat
import sys
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.records import dataclass, field
from vora_cli.core.sessions.jsfmt import is_finite_number
from vora_cli.core.sessions.jsonl import BLANK, line_values, values_at

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NO_PARENT = -1


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

    def last_index(self, key: int | str) -> int:
        """The index of the last entry whose `key` this is, or NO_PARENT: a search of the array
        (done rarely: see `_IdIndex`)."""
        if isinstance(key, str):
            return max((i for i, other in self._others.items() if other == key), default=NO_PARENT)
        data = self._numbers.tobytes()
        packed = key.to_bytes(self._numbers.itemsize, sys.byteorder, signed=True)
        pos = data.rfind(packed)
        while pos != -1 and pos % self._numbers.itemsize:
            pos = data.rfind(packed, 0, pos + self._numbers.itemsize - 1)
        return pos // self._numbers.itemsize if pos != -1 else NO_PARENT

    def indices_of(self, entry_id: str) -> list[int]:
        """Every index whose id is `entry_id`, ascending (a search of the array)."""
        key = self.key(entry_id)
        if isinstance(key, str):
            return sorted(i for i, other in self._others.items() if other == key)
        size = self._numbers.itemsize
        data = self._numbers.tobytes()
        packed = key.to_bytes(size, sys.byteorder, signed=True)
        found: list[int] = []
        pos = data.find(packed)
        while pos != -1:
            if pos % size == 0:
                found.append(pos // size)
            pos = data.find(packed, pos + 1)
        return found

    def numbers(self) -> array[int]:
        return self._numbers

    def __getitem__(self, index: int) -> str:
        number = self._numbers[index]
        if number < 0:
            return self._others[index if index >= 0 else len(self._numbers) + index]
        return f"{number:08x}"

    def __len__(self) -> int:
        return len(self._numbers)


class _IdIndex:
    """Where each entry id was last seen, for a `parentId` that is not the entry before (only a
    branch). Lookups search the id array; past `_SEARCHES` lookups a dict is built once and kept
    up to date, so lookups stay linear overall."""

    _SEARCHES = 16

    def __init__(self, ids: EntryIds) -> None:
        self.ids = ids
        self.others: dict[str, int] = {}  # ids that are not 8 hex digits: few, always kept
        self.table: dict[int, int] | None = None
        self.searches = 0

    def add(self, key: int | str, index: int) -> None:
        if isinstance(key, str):
            self.others[key] = index
        elif self.table is not None:
            self.table[key] = index

    def find(self, key: int | str) -> int:
        if isinstance(key, str):
            return self.others.get(key, NO_PARENT)
        if self.table is None:
            self.searches += 1
            if self.searches <= self._SEARCHES:
                return self.ids.last_index(key)
            self.table = {number: i for i, number in enumerate(self.ids.numbers()) if number >= 0}
        return self.table.get(key, NO_PARENT)


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
    # The entry tree, a few bytes an entry.
    ids: EntryIds = field(default_factory=EntryIds)
    parents: array[int] = field(default_factory=lambda: array("i"))
    types: list[str] = field(default_factory=list)  # interned names: a pointer an entry
    offsets: array[int] = field(default_factory=lambda: array("q"))
    sizes: array[int] = field(default_factory=lambda: array("i"))  # a kept line is under MAX_LINE_BYTES
    # {index: children that are not the next entry} (a branch); the next entry's is in `parents`
    other_children: dict[int, int] = field(default_factory=dict)
    compactions: list[CompactionInfo] = field(default_factory=list)
    # The setting an entry carries, as an index into `setting_values` (-1: none):
    # ("thinking", level) | ("model", "provider/model").
    setting_of: array[int] = field(default_factory=lambda: array("i"))
    setting_values: list[tuple[str, str]] = field(default_factory=list)
    path_cache: array[int] | None = field(default=None, repr=False)

    def setting(self, index: int) -> tuple[str, str] | None:
        found = self.setting_of[index]
        return self.setting_values[found] if found >= 0 else None

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
        parents, entries = self.parents, len(self.parents)
        return [self.ids[p] for p in sorted(self.other_children)
                if self.other_children[p] + (p + 1 < entries and parents[p + 1] == p) > 1]

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
    scan = TranscriptScan(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return scan  # a FIFO or a device would block or never end: not a transcript
        handle = open(path, "rb")  # noqa: SIM115 (closed below; the loop is long)
    except (FileNotFoundError, NotADirectoryError):
        return scan
    scan.exists = True
    index_of = _IdIndex(scan.ids)
    key_of = EntryIds.key
    settings_seen: dict[tuple[str, str], int] = {}  # each distinct setting, by its index
    type_names: dict[str, str] = {}
    chain = False  # header version < 3: entries form a chain in file order
    seen_first = False
    # The gateway appends each entry as a child of the one before: that parent is found by
    # comparing two strings, without computing a lookup key.
    previous_id: str | None = None
    ids, parents, types, offsets, sizes, other_children, setting_of = (
        scan.ids, scan.parents, scan.types, scan.offsets, scan.sizes, scan.other_children, scan.setting_of)
    by_role, setting_values = scan.by_role, scan.setting_values
    append_id, append_number = ids.append_key, ids.numbers().append
    position = 0
    line_no = 0
    lines = 0
    i = 0  # the next entry's index
    with handle:
        for obj, size, complete in line_values(handle):
            line_no += 1
            offset = position
            position += size
            if obj is BLANK:
                continue
            if not isinstance(obj, dict):
                if not complete:
                    scan.torn_tail = True  # the gateway is still writing this line
                    break
                lines += 1
                scan.bad_lines.append(line_no)
                if max_bad is not None and len(scan.bad_lines) >= max_bad:
                    scan.stopped_early = True
                    break
                if not seen_first:
                    seen_first = True
                    scan.first_line_is_header = False
                continue
            lines += 1
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
            entry_id = obj.get("id")
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
                    parent = index_of.find(key_of(parent_id))
                    if parent != NO_PARENT and parent != i - 1:
                        other_children[parent] = other_children.get(parent, 0) + 1
            entry_key = key_of(entry_id)
            if type(entry_key) is int and index_of.table is None:
                append_number(entry_key)  # the usual id: 8 hex digits, no lookup table yet
            else:
                append_id(entry_key)
                index_of.add(entry_key, i)
            previous_id = entry_id
            parents.append(parent)
            types.append(kind)
            offsets.append(offset)
            sizes.append(size)
            found = None
            if kind == "message":
                message = obj.get("message")
                role = message.get("role") if isinstance(message, dict) else None
                role_name = role if isinstance(role, str) else "?"
                by_role[role_name] = by_role.get(role_name, 0) + 1
                if role == "assistant":
                    model = message.get("model")  # type: ignore[union-attr]
                    if isinstance(model, str) and model:
                        provider = message.get("provider")  # type: ignore[union-attr]
                        found = ("model", f"{provider}/{model}" if isinstance(provider, str) and provider else model)
            elif kind in ("model_change", "thinking_level_change"):
                found = _settings_of(obj, kind)
            elif kind == "compaction":
                # Imported here: a transcript without a compaction (what `vora doctor` scans,
                # mostly) needs none of the counting module.
                from vora_cli.core.sessions.counting import summary_stats

                summary = _text_of(obj.get("summary"))
                chars, digest, preview = summary_stats(summary, previews)
                scan.compactions.append(
                    CompactionInfo(i, entry_id, line_no, obj.get("timestamp"), chars, digest, preview,
                                   obj.get("firstKeptEntryId"), obj.get("tokensBefore"), obj.get("fromHook"))
                )
            if found:
                number = settings_seen.get(found)
                if number is None:
                    number = settings_seen[found] = len(setting_values)
                    setting_values.append(found)
                setting_of.append(number)
            else:
                setting_of.append(-1)
            i += 1
    scan.lines = lines
    scan.bytes = position
    scan.by_type.update(Counter(types))  # every entry's type, in the order first seen
    return scan


def leaf_path(scan: TranscriptScan) -> array[int]:
    """Entry indices from the root to the leaf (the last entry in the file), ascending (a parent
    comes before its children in the file); walked once per scan (the manifest and the
    compaction history both ask). Do not change it."""
    if scan.path_cache is None:
        path = array("i")
        parents = scan.parents
        current = scan.leaf if scan.leaf is not None else NO_PARENT
        while current != NO_PARENT:
            path.append(current)
            parent = parents[current]
            current = parent if parent < current else NO_PARENT  # a parent is always an earlier entry
        path.reverse()
        scan.path_cache = path
    return scan.path_cache


def read_entries(path: Path, scan: TranscriptScan,
                 indices: Sequence[int]) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """Re-read the entries at `indices` by seeking to their offsets (None if one changed)."""
    for i, obj, brackets in values_at(path, scan.offsets, scan.sizes, indices):
        if brackets > nesting.MAX_NESTING and isinstance(obj, dict) and nesting.deeper_than(obj):
            # what the model sees is walked to be shown: past the bound it is cut, and says so
            obj = nesting.cut_below(obj)
        yield i, obj if isinstance(obj, dict) else None
