"""The Context X-Ray manifest: what the model sees now, one segment per message, keeping no message text
beyond its bounded, redacted preview (spec sessions.md, "What the model sees now").
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

from vora_cli.core.records import dataclass, field
from vora_cli.core.sessions.counting import Counter
from vora_cli.core.sessions.jsfmt import js_stringify
from vora_cli.core.sessions.redact import SCAN_MAX
from vora_cli.core.sessions.transcript import TranscriptScan, leaf_path, read_entries
from vora_cli.core.text import estimate_tokens, utf16_len

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

IMAGE_CHARS = 4_800  # what the gateway counts for an image in a tool result or custom message
LARGEST = 10


@dataclass(frozen=True, slots=True)
class Segment:
    """One entry of a transcript's context manifest."""
    index: int
    entry_id: str
    kind: str
    chars: int
    hash: str
    preview: str | None
    tool_calls: tuple[dict[str, Any], ...] = ()
    tool_name: str | None = None
    is_error: bool | None = None
    attachments: tuple[dict[str, Any], ...] = ()

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.chars)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "entryId": self.entry_id,
            "kind": self.kind,
            "chars": self.chars,
            "tokens": self.tokens,
            "hash": self.hash,
            "preview": self.preview,
        }
        if self.tool_calls:
            out["toolCalls"] = list(self.tool_calls)
        if self.tool_name is not None:
            out["toolName"] = self.tool_name
        if self.is_error is not None:
            out["isError"] = self.is_error
        if self.attachments:
            out["attachments"] = list(self.attachments)
        return out


def _base64_bytes(data: str) -> int:
    data = data.strip()
    padding = len(data) - len(data.rstrip("="))
    return max(0, len(data) * 3 // 4 - padding)


def _image(block: dict[str, Any], counter: Counter, attachments: list[dict[str, Any]], units: int) -> None:
    data = block.get("data")
    data = data if isinstance(data, str) else ""
    mime = block.get("mimeType")
    size = _base64_bytes(data)
    attachments.append({"type": "image", "mimeType": mime if isinstance(mime, str) else None, "bytes": size})
    counter.count(data, units=units, show=f"[image {mime if isinstance(mime, str) else '?'} {size} bytes]")


def _blocks(content: Any, counter: Counter) -> Iterator[dict[str, Any]]:
    """Counts a string content and its text blocks; yields every other block (non-dicts are skipped)."""
    if isinstance(content, str):
        counter.count(content)
        return
    if not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            counter.count(block["text"])
        else:
            yield block


def _content(content: Any, counter: Counter, attachments: list[dict[str, Any]], image_units: int) -> None:
    """A string, or text and image blocks (other block types count nothing)."""
    for block in _blocks(content, counter):
        if block.get("type") == "image":
            _image(block, counter, attachments, image_units)


def _assistant(message: dict[str, Any], counter: Counter, calls: list[dict[str, Any]]) -> None:
    for block in _blocks(message.get("content"), counter):
        kind = block.get("type")
        if kind == "thinking" and isinstance(block.get("thinking"), str):
            counter.count(block["thinking"])
        elif kind == "toolCall":
            raw_name = block.get("name")
            name = raw_name if isinstance(raw_name, str) else ""
            args = js_stringify(block.get("arguments", {}))
            call_id = block.get("id")
            counter.count(name, show="")
            counter.count(args, show=f"→ {name}({args[:SCAN_MAX]})")
            calls.append({"id": call_id if isinstance(call_id, str) else None, "name": name,
                          "argsChars": utf16_len(args)})


def segment_of(obj: dict[str, Any], index: int, previews: bool) -> Segment | None:
    """The segment an entry contributes, or None (settings, labels, excluded bash, …)."""
    kind = obj.get("type")
    raw_id = obj.get("id")
    entry_id = raw_id if isinstance(raw_id, str) else ""
    counter = Counter(previews)
    attachments: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    tool_name: str | None = None
    is_error: bool | None = None
    if kind == "branch_summary":
        summary = obj.get("summary")
        if not isinstance(summary, str) or not summary:
            return None
        counter.count(summary)
        seg_kind = "branch-summary"
    elif kind == "custom_message":
        _content(obj.get("content"), counter, attachments, IMAGE_CHARS)
        seg_kind = "custom"
    elif kind == "message":
        message = obj.get("message")
        if not isinstance(message, dict):
            return None
        role = message.get("role")
        if role == "user":
            _content(message.get("content"), counter, attachments, 0)
            seg_kind = "user"
        elif role == "assistant":
            _assistant(message, counter, calls)
            seg_kind = "assistant"
        elif role == "toolResult":
            _content(message.get("content"), counter, attachments, IMAGE_CHARS)
            seg_kind = "tool-result"
            name = message.get("toolName")
            tool_name = name if isinstance(name, str) else None
            is_error = message.get("isError") is True
        elif role == "bashExecution":
            if message.get("excludeFromContext") is True:
                return None
            for field in ("command", "output"):
                value = message.get(field)
                counter.count(value if isinstance(value, str) else "")
            seg_kind = "bash"
        else:
            _content(message.get("content"), counter, attachments, IMAGE_CHARS)
            seg_kind = "custom"
    else:
        return None
    return Segment(index, entry_id, seg_kind, counter.chars, counter.hash(), counter.preview(),
                   tuple(calls), tool_name, is_error, tuple(attachments))


class ManifestTotals:
    """The manifest's totals, added up one segment at a time, so a writer that streams the
    segments never holds them: count, chars, tokens, by kind, and the `LARGEST` largest."""

    def __init__(self) -> None:
        self.messages = 0
        self.total_chars = 0
        self.total_tokens = 0
        self._by_kind: dict[str, dict[str, int]] = {}
        self._largest: list[tuple[int, int, Segment]] = []  # a min-heap of (tokens, -index, segment)

    def add(self, segment: Segment) -> None:
        import heapq

        tokens = segment.tokens
        self.messages += 1
        self.total_chars += segment.chars
        self.total_tokens += tokens
        row = self._by_kind.get(segment.kind)
        if row is None:
            row = self._by_kind[segment.kind] = {"count": 0, "chars": 0, "tokens": 0}
        row["count"] += 1
        row["chars"] += segment.chars
        row["tokens"] += tokens
        item = (tokens, -segment.index, segment)
        if len(self._largest) < LARGEST:
            heapq.heappush(self._largest, item)
        elif item[:2] > self._largest[0][:2]:
            heapq.heapreplace(self._largest, item)

    def by_kind(self) -> dict[str, dict[str, int]]:
        return {kind: dict(row) for kind, row in self._by_kind.items()}

    def largest(self, n: int = LARGEST) -> list[Segment]:
        """The `n` (at most `LARGEST`) largest segments by tokens, the first of equals first."""
        return [s for _t, _i, s in sorted(self._largest, key=lambda item: (-item[0], -item[1]))][:n]


@dataclass(frozen=True)
class _Plan:
    """What the manifest reads again to make its segments: the entries, by index, and the summary."""

    path: Path
    scan: TranscriptScan
    wanted: array[int]
    summary: Segment | None
    previews: bool


@dataclass(frozen=True)
class ContextManifest:
    """What the model sees now. Its segments are made from the transcript on demand:
    `iter_segments()` streams them (memory flat in the transcript's size), `segments` keeps them."""

    leaf_id: str | None
    compaction_id: str | None
    summary_chars: int | None
    thinking_level: str | None
    model: str | None
    plan: _Plan = field(repr=False, compare=False)

    def iter_segments(self) -> Iterator[Segment]:
        """The segments in order, read from the transcript again on every call."""
        plan = self.plan
        index = 0
        if plan.summary is not None:
            yield plan.summary
            index = 1
        if not plan.wanted:
            return
        for _i, obj in read_entries(plan.path, plan.scan, plan.wanted):
            if obj is None:
                continue
            segment = segment_of(obj, index, plan.previews)
            if segment is not None:
                yield segment
                index += 1

    @cached_property
    def segments(self) -> tuple[Segment, ...]:
        return tuple(self.iter_segments())

    @cached_property
    def totals(self) -> ManifestTotals:
        totals = ManifestTotals()
        for segment in self.segments:
            totals.add(segment)
        return totals

    @property
    def total_chars(self) -> int:
        return self.totals.total_chars

    @property
    def total_tokens(self) -> int:
        return self.totals.total_tokens

    def by_kind(self) -> dict[str, dict[str, int]]:
        return self.totals.by_kind()

    def largest(self, n: int = LARGEST) -> list[Segment]:
        return self.totals.largest(n)

    def to_dict(self, segments: bool = True, totals: ManifestTotals | None = None) -> dict[str, Any]:
        """The `context` document; `segments=False` with the `totals` of a streamed pass leaves
        the segments out (for a writer that streams them) without making them again."""
        totals = totals if totals is not None else self.totals
        return {
            "leafId": self.leaf_id,
            "compactionId": self.compaction_id,
            "summaryChars": self.summary_chars,
            "messages": totals.messages,
            "totalChars": totals.total_chars,
            "totalTokens": totals.total_tokens,
            "byKind": totals.by_kind(),
            "thinkingLevel": self.thinking_level,
            "model": self.model,
            "segments": [s.to_dict() for s in self.segments] if segments else [],
        }


def context_indices(scan: TranscriptScan) -> tuple[int | None, array[int], array[int]]:
    """(index of C, the path, the path entries the model sees besides C's summary). C is the last
    compaction on the leaf path; with it, the kept entries before it (from its `firstKeptEntryId`,
    none if that id is not on the path) and every entry after it."""
    path = leaf_path(scan)
    types = scan.types
    c_pos = next((p for p in range(len(path) - 1, -1, -1) if types[path[p]] == "compaction"), None)
    if c_pos is None:
        return None, path, path
    compaction = next(c for c in scan.compactions if c.index == path[c_pos])
    first_kept = compaction.first_kept_entry_id
    before = path[:c_pos]
    kept = array("i")
    if isinstance(first_kept, str):
        start = _first_position(scan, before, first_kept)
        if start is not None:
            kept = before[start:]
    return path[c_pos], path, kept + path[c_pos + 1 :]


def _first_position(scan: TranscriptScan, path: array[int], entry_id: str) -> int | None:
    """The first position on `path` (entry indices, ascending from the root) of an entry with
    this id: the entries with that id are found in the id array, then on the path by bisection."""
    import bisect

    best: int | None = None
    for index in scan.ids.indices_of(entry_id):
        p = bisect.bisect_left(path, index)
        if p < len(path) and path[p] == index and (best is None or p < best):
            best = p
    return best


_CONTRIBUTING = frozenset({"message", "custom_message", "branch_summary"})


def build_manifest(path: Path, scan: TranscriptScan, *, previews: bool = True) -> ContextManifest:
    """What the model sees now, from a scan; its segments come from a seek-back read of those
    entries only, when they are asked for."""
    c_index, full_path, seen = context_indices(scan)
    thinking: str | None = None
    model: str | None = None
    setting_of, values = scan.setting_of, scan.setting_values
    for i in full_path:
        number = setting_of[i]
        if number >= 0:
            kind, value = values[number]
            if kind == "thinking":
                thinking = value
            else:
                model = value
    summary: Segment | None = None
    compaction_id: str | None = None
    summary_chars: int | None = None
    if c_index is not None:
        info = next(c for c in scan.compactions if c.index == c_index)
        compaction_id, summary_chars = info.entry_id, info.summary_chars
        summary = Segment(0, info.entry_id, "compaction-summary", info.summary_chars, info.summary_hash,
                          info.preview if previews else None)
    types = scan.types
    wanted = array("i", (i for i in seen if types[i] in _CONTRIBUTING))
    return ContextManifest(scan.leaf_id, compaction_id, summary_chars, thinking, model,
                           _Plan(path, scan, wanted, summary, previews))
