"""The pairing store on disk (spec devices.md, "The store"): `pending.json` and `paired.json`, read, parsed
and written in the gateway's layout; every change runs in `transaction.transact`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from json.encoder import encode_basestring
from pathlib import Path

from vora_cli.core import nesting, reading
from vora_cli.core.devices.rules import JsonObj
from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.records import dataclass
from vora_cli.core.strict_json import dumps_overflowing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

JOURNAL_NAME = ".vora-change.json"



@dataclass(frozen=True)
class StoreFiles:
    """The pairing store's folder and its two files."""
    devices_dir: Path
    pending: Path
    paired: Path

    @classmethod
    def of(cls, paths: VoraPaths) -> StoreFiles:
        return cls(paths.devices_dir, paths.devices_dir / "pending.json", paths.devices_dir / "paired.json")

    @property
    def lock(self) -> Path:
        # `file_lock` locks `<path>.lock` beside it: devices/pairing.lock guards both files.
        return self.devices_dir / "pairing"

    @property
    def journal(self) -> Path:
        """The change in flight (`inflight.py`): there only while a change lands, or after a kill."""
        return self.devices_dir / JOURNAL_NAME


@dataclass(frozen=True)
class Layout:
    """Where each entry of a store file in the gateway's layout lies (`scan_map`), so a write
    copies every unchanged entry as it was read. `entries`: key -> (its place, its line start,
    its value's start and end, whether its key is written as `dump_map` writes one). `data`: the
    file's bytes when they are its text one for one (ASCII), copied from directly."""

    text: str
    data: bytes | None
    entries: dict[str, tuple[int, int, int, int, bool]]


def dump_map(obj: Mapping[str, Any], layout: Layout | None = None, changed: Collection[str] = ()) -> bytes:
    """The gateway's format: 2-space indent, no trailing newline, UTF-8 (JSON.stringify(o, null, 2)).
    `layout` (`scan_map`): entries not in `changed` are copied back byte for byte; the result
    equals `json.dumps(obj, indent=2)` when the file did."""
    try:
        if layout is None or not layout.entries:
            return _dumps(obj).encode("utf-8")
        text, entries = layout.text, layout.entries
        raw = memoryview(layout.data) if layout.data is not None else None
        pieces: list[Any] = []  # text, or with `raw` bytes and views of it
        run_start = run_end = -1  # the run of entries as read, not yet copied
        last = -2  # the place of the entry before, in the file
        for key, value in obj.items():
            where = entries.get(key) if key not in changed else None
            if where is not None and where[4]:
                place, line, _at, end, _same = where
                if place == last + 1 and run_start >= 0:
                    run_end = end
                else:
                    if run_start >= 0:
                        pieces.append(raw[run_start:run_end] if raw is not None else text[run_start:run_end])
                    run_start, run_end = line, end
                last = place
                continue
            if run_start >= 0:
                pieces.append(raw[run_start:run_end] if raw is not None else text[run_start:run_end])
                run_start = -1
            last = -2
            # the value as read when only its key is written otherwise; `encode_basestring` is what
            # `json.dumps(key, ensure_ascii=False)` returns for text, without an encoder per key
            shown = text[where[2]:where[3]] if where is not None else _dumps(value).replace("\n", "\n  ")
            piece = f"  {encode_basestring(key)}: {shown}"
            pieces.append(piece.encode("utf-8") if raw is not None else piece)
        if run_start >= 0:
            pieces.append(raw[run_start:run_end] if raw is not None else text[run_start:run_end])
        if not pieces:
            return b"{}"
        if raw is not None:
            return b"{\n" + b",\n".join(pieces) + b"\n}"
        return ("{\n" + ",\n".join(pieces) + "\n}").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON.stringify escapes those, so do we
        return _dumps(obj, ensure_ascii=True).encode("utf-8")


def _dumps(value: Any, ensure_ascii: bool = False) -> str:
    """`json.dumps(value, indent=2)`, but strict JSON: a non-finite number read from the store
    (`1e400` parses as inf) is written back as `1e400`/`-1e400` (core/strict_json.py)."""
    return dumps_overflowing(value, indent=2, ensure_ascii=ensure_ascii)


_DECODER = json.JSONDecoder()
# The C scanner, called directly (as `core/sessions/storefile.py` reads a session store): each
# member bounded by `nesting.parsed_deeper_than`, a RecursionError caught like any bad text.
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]


def scan_map(text: str, data: bytes | None = None) -> tuple[dict[str, Any], Layout] | None:
    """Parse a store file written exactly as `dump_map` writes it, keeping where each entry lies;
    else None (the caller parses with `json.loads` and re-encodes fully), also for an entry
    nested deeper than `nesting.MAX_NESTING`. `data`: the file's bytes, kept when ASCII.
    """
    if text == "{}":
        return {}, Layout(text, None, {})
    if not text.startswith('{\n  "') or not text.endswith("\n}") or "\t" in text or "\r" in text:
        return None
    doc: dict[str, Any] = {}
    entries: dict[str, tuple[int, int, int, int, bool]] = {}
    scan, last = _SCAN, len(text) - 2
    pos = 4
    place = 0  # the entry's place in the file: a key written twice takes two (its last one is kept)
    try:
        while True:
            key, after_key = scan(text, pos)  # a string: the text holds `"` here
            if not text.startswith(": ", after_key):
                return None
            start = after_key + 2
            value, end = scan(text, start)
            if nesting.parsed_deeper_than(value, text, start, end):
                return None
            doc[key] = value
            # a key without an escape is written as `dump_map` writes it (`encode_basestring`
            # escapes only what JSON text cannot hold raw, which the scanner refused)
            same = text.find("\\", pos, after_key) < 0 or text[pos:after_key] == encode_basestring(key)
            entries[key] = (place, pos - 2, start, end, same)
            place += 1
            if text.startswith(',\n  "', end):
                pos = end + 4
            elif end == last:
                return doc, Layout(text, data if data is not None and data.isascii() else None, entries)
            else:
                return None
    except (StopIteration, ValueError, RecursionError):  # ValueError: json.JSONDecodeError
        return None


def parse_map(path: Path, data: bytes | None, what: str) -> dict[str, JsonObj]:
    """A store file's object map; a missing file is empty; anything unreadable is an error naming
    it. For readers only: no entry positions (`parse_map_with_layout` keeps them)."""
    return _parse(path, data, what, layout=False)[0]


def parse_map_with_layout(path: Path, data: bytes | None, what: str) -> tuple[dict[str, JsonObj], Layout | None]:
    """`parse_map`, plus where each entry lies when the file is in the gateway's layout."""
    return _parse(path, data, what, layout=True)


def _parse(path: Path, data: bytes | None, what: str, *, layout: bool) -> tuple[dict[str, JsonObj], Layout | None]:
    if data is None:
        return {}, None
    hint = "vora never overwrites a store it could not read: fix the file or move it aside, then retry"
    try:
        text = data.decode("utf-8")
        if layout:
            scanned = scan_map(text, data)
            if scanned is not None and all(isinstance(v, dict) for v in scanned[0].values()):
                return scanned
            doc = nesting.loads(text)
        else:
            doc = _loads_map(text)
    except UnicodeDecodeError as exc:
        raise VoraError("parse_error", f"{path}: not UTF-8 text (byte {exc.start})", hint) from None
    except json.JSONDecodeError as exc:
        raise ParseError(str(path), exc.lineno, exc.colno, exc.msg, hint) from None
    if not isinstance(doc, dict):
        raise VoraError("parse_error", f"{path}: expected a JSON object of {what}, found {type(doc).__name__}", hint)
    for key, value in doc.items():
        if not isinstance(value, dict):
            raise VoraError("parse_error", f"{path}: entry {key!r} is not a JSON object", hint)
    return doc, None


def _loads_map(text: str) -> Any:
    """The file parsed whole, as `scan_map` and its fallback would parse it: in the gateway's layout
    the bound holds for each entry (`scan_map`), so one nested exactly as deep as it allows, whose
    file is one level deeper, is still read."""
    try:
        return nesting.loads(text)
    except nesting.TooDeep:
        scanned = scan_map(text)
        if scanned is None or not all(isinstance(v, dict) for v in scanned[0].values()):
            raise
        return scanned[0]


@dataclass
class Snapshot:
    """Both store files as read: their bytes (for the replace check) and their parsed maps."""

    files: StoreFiles
    pending_bytes: bytes | None
    paired_bytes: bytes | None
    pending: dict[str, JsonObj]
    paired: dict[str, JsonObj]
    pending_layout: Layout | None = None  # where each entry lies (a file in the gateway's layout)
    paired_layout: Layout | None = None
    reused: bool = False  # the parse of an earlier read of the same bytes (`read_store(reuse=...)`)


def read_store(files: StoreFiles, *, layout: bool = True, reuse: Snapshot | None = None) -> Snapshot:
    """Both files, read and parsed; `layout=False` for a reader that never writes them back (no
    `Layout`: `parse_map`). `reuse`: an earlier read of the same files (with layouts); when both
    still hold its bytes, its parse is taken instead of parsing again: its maps copied, which the
    caller may change (entries are replaced whole, never edited in place: `transaction.Change`)."""
    pending_bytes = reading.read_bytes(files.pending)
    paired_bytes = reading.read_bytes(files.paired)
    if (reuse is not None and reuse.files == files and reuse.pending_bytes == pending_bytes
            and reuse.paired_bytes == paired_bytes):
        return Snapshot(files, pending_bytes, paired_bytes, dict(reuse.pending), dict(reuse.paired),
                        reuse.pending_layout, reuse.paired_layout, reused=True)
    pending, pending_layout = _parse(files.pending, pending_bytes, "pending requests", layout=layout)
    paired, paired_layout = _parse(files.paired, paired_bytes, "paired devices", layout=layout)
    return Snapshot(files, pending_bytes, paired_bytes, pending, paired, pending_layout, paired_layout)
