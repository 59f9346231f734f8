"""The Context X-Ray manifest: what the model sees now, one segment per message (spec
sessions.md, "What the model sees now" and `sessions show` section 4).

chars are the gateway's per-message estimate in UTF-16 units, tokens `ceil(chars / 4)`, the
hash the first 12 hex digits of SHA-256 over the counted pieces, the preview redacted and
bounded. Segments keep no message text beyond their preview.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vora_cli.core.sessions.counting import Counter
from vora_cli.core.sessions.jsfmt import js_stringify
from vora_cli.core.sessions.redact import SCAN_MAX
from vora_cli.core.sessions.transcript import TranscriptScan, leaf_path, read_entries
from vora_cli.core.text import estimate_tokens, utf16_len

IMAGE_CHARS = 4_800  # what the gateway counts for an image in a tool result or custom message
LARGEST = 10


@dataclass(frozen=True, slots=True)
class Segment:
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


@dataclass(frozen=True)
class ContextManifest:
    leaf_id: str | None
    compaction_id: str | None
    summary_chars: int | None
    segments: tuple[Segment, ...]
    thinking_level: str | None
    model: str | None

    @property
    def total_chars(self) -> int:
        return sum(s.chars for s in self.segments)

    @property
    def total_tokens(self) -> int:
        return sum(s.tokens for s in self.segments)

    def by_kind(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for s in self.segments:
            row = out.setdefault(s.kind, {"count": 0, "chars": 0, "tokens": 0})
            row["count"] += 1
            row["chars"] += s.chars
            row["tokens"] += s.tokens
        return out

    def largest(self, n: int = LARGEST) -> list[Segment]:
        return sorted(self.segments, key=lambda s: (-s.tokens, s.index))[:n]

    def to_dict(self, segments: bool = True) -> dict[str, Any]:
        return {
            "leafId": self.leaf_id,
            "compactionId": self.compaction_id,
            "summaryChars": self.summary_chars,
            "messages": len(self.segments),
            "totalChars": self.total_chars,
            "totalTokens": self.total_tokens,
            "byKind": self.by_kind(),
            "thinkingLevel": self.thinking_level,
            "model": self.model,
            "segments": [s.to_dict() for s in self.segments] if segments else [],
        }


def context_indices(scan: TranscriptScan) -> tuple[int | None, list[int], list[int]]:
    """(index of C, the path, the path entries the model sees besides C's summary).

    C is the last compaction on the leaf path; with C, the kept entries before it (from its
    `firstKeptEntryId`, none if that id is not on the path) and every entry after it.
    """
    path = leaf_path(scan)
    c_pos = next((p for p in range(len(path) - 1, -1, -1) if scan.types[path[p]] == "compaction"), None)
    if c_pos is None:
        return None, path, path
    compaction = next(c for c in scan.compactions if c.index == path[c_pos])
    first_kept = compaction.first_kept_entry_id
    before = path[:c_pos]
    kept: list[int] = []
    if isinstance(first_kept, str):
        start = next((p for p, i in enumerate(before) if scan.ids[i] == first_kept), None)
        if start is not None:
            kept = before[start:]
    return path[c_pos], path, kept + path[c_pos + 1 :]


_CONTRIBUTING = frozenset({"message", "custom_message", "branch_summary"})


def build_manifest(path: Path, scan: TranscriptScan, *, previews: bool = True) -> ContextManifest:
    """What the model sees now, from a scan and a seek-back read of those entries only."""
    c_index, full_path, seen = context_indices(scan)
    thinking: str | None = None
    model: str | None = None
    for i in full_path:
        found = scan.settings.get(i)
        if found is not None:
            if found[0] == "thinking":
                thinking = found[1]
            else:
                model = found[1]
    segments: list[Segment] = []
    compaction_id: str | None = None
    summary_chars: int | None = None
    if c_index is not None:
        info = next(c for c in scan.compactions if c.index == c_index)
        compaction_id, summary_chars = info.entry_id, info.summary_chars
        segments.append(Segment(0, info.entry_id, "compaction-summary", info.summary_chars, info.summary_hash,
                                info.preview if previews else None))
    wanted = [i for i in seen if scan.types[i] in _CONTRIBUTING]
    for _i, obj in _entries(path, scan, wanted):
        if obj is None:
            continue
        segment = segment_of(obj, len(segments), previews)
        if segment is not None:
            segments.append(segment)
    return ContextManifest(scan.leaf_id, compaction_id, summary_chars, tuple(segments), thinking, model)


def _entries(path: Path, scan: TranscriptScan, indices: list[int]) -> Iterator[tuple[int, dict[str, Any] | None]]:
    if not indices:
        return iter(())
    return read_entries(path, scan, indices)
