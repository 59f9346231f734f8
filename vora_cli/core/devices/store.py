"""The pairing store on disk and its transactions (spec devices.md, "The store").

Two JSON object maps in `<stateDir>/devices/`: `pending.json` (requestId -> request) and
`paired.json` (deviceId -> device). The gateway reads and rewrites the same files without a
lock, so every change here runs in `transact`: vora's own lock, a fresh read of both files, the
change, and a replace that checks just before each rename that neither file moved meanwhile
(else the change is redone on the fresh content, a few times, then `conflict`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, TypeVar

from vora_cli.core import nesting, reading
from vora_cli.core.devices.rules import JsonObj
from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.records import dataclass, field
from vora_cli.core.strict_json import dumps_overflowing

T = TypeVar("T")

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


def dump_map(obj: Mapping[str, Any], reuse: Mapping[str, str] | None = None) -> bytes:
    """The gateway's format: 2-space indent, no trailing newline, UTF-8 (as JSON.stringify(o, null, 2)).

    `reuse` maps keys of entries known to be unchanged to their text as read (see `scan_map`):
    those are written back byte for byte instead of being encoded again, which keeps a write to
    a store of 1,000 devices fast. The result is the same as `json.dumps(obj, indent=2)`.
    """
    try:
        if not reuse:
            return _dumps(obj).encode("utf-8")
        parts = []
        for key, value in obj.items():
            text = reuse.get(key)
            if text is None:
                text = _dumps(value).replace("\n", "\n  ")
            # what `json.dumps(key, ensure_ascii=False)` returns for a key (always text), by its C
            # function, without making an encoder for each of 1,000 keys
            parts.append(f"  {encode_basestring(key)}: {text}")
        return ("{\n" + ",\n".join(parts) + "\n}" if parts else "{}").encode("utf-8")
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


def scan_map(text: str) -> tuple[dict[str, Any], dict[str, str]] | None:
    """Parse a store file written in the gateway's format, keeping each entry's text; else None.

    Only a file laid out exactly as `dump_map` writes it qualifies (top level `{\n  "key": ...`,
    entries joined by `,\n`, closing `\n}`); anything else is parsed by `json.loads` and written
    back fully re-encoded. An entry nested deeper than `nesting.MAX_NESTING` is anything else too.
    """
    if text == "{}":
        return {}, {}
    if not text.startswith('{\n  "') or not text.endswith("\n}") or "\t" in text or "\r" in text:
        return None
    doc: dict[str, Any] = {}
    spans: dict[str, str] = {}
    scan, last = _SCAN, len(text) - 2
    pos = 4
    try:
        while True:
            key, pos = scan(text, pos)  # a string: the text holds `"` here
            if not text.startswith(": ", pos):
                return None
            start = pos + 2
            value, end = scan(text, start)
            if nesting.parsed_deeper_than(value, text, start, end):
                return None
            doc[key] = value
            spans[key] = text[start:end]
            if text.startswith(',\n  "', end):
                pos = end + 4
            elif end == last:
                return doc, spans
            else:
                return None
    except (StopIteration, ValueError, RecursionError):  # ValueError: json.JSONDecodeError
        return None


def parse_map(path: Path, data: bytes | None, what: str) -> dict[str, JsonObj]:
    """A store file's object map; a missing file is empty; anything unreadable is an error naming it.

    Without the entries' texts (`parse_map_with_spans`), for what only reads: one C parse of the
    whole file, whose keys the parser makes once (a scan entry by entry makes every record's keys
    anew and copies each entry's text: ~2x the time of a first read of a 1 MB store)."""
    return _parse(path, data, what, spans=False)[0]


def parse_map_with_spans(path: Path, data: bytes | None, what: str) -> tuple[dict[str, JsonObj], dict[str, str]]:
    """`parse_map`, plus each entry's text as read when the file is in the gateway's layout."""
    return _parse(path, data, what, spans=True)


def _parse(path: Path, data: bytes | None, what: str, *, spans: bool) -> tuple[dict[str, JsonObj], dict[str, str]]:
    if data is None:
        return {}, {}
    hint = "vora never overwrites a store it could not read: fix the file or move it aside, then retry"
    try:
        text = data.decode("utf-8")
        if spans:
            scanned = scan_map(text)
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
    return doc, {}


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
    pending_spans: dict[str, str] = field(default_factory=dict)
    paired_spans: dict[str, str] = field(default_factory=dict)
    reused: bool = False  # the parse of an earlier read of the same bytes (`read_store(reuse=...)`)


def read_store(files: StoreFiles, *, spans: bool = True, reuse: Snapshot | None = None) -> Snapshot:
    """Both files, read and parsed; `spans=False` for a reader that never writes them back (no
    entry texts: `parse_map`). `reuse`: an earlier read of the same files (with spans); when both
    still hold its bytes, its parse is taken instead of parsing again: its maps copied, which the
    caller may change (entries are replaced whole, never edited in place: `transaction.Change`)."""
    pending_bytes = reading.read_bytes(files.pending)
    paired_bytes = reading.read_bytes(files.paired)
    if (reuse is not None and reuse.files == files and reuse.pending_bytes == pending_bytes
            and reuse.paired_bytes == paired_bytes):
        return Snapshot(files, pending_bytes, paired_bytes, dict(reuse.pending), dict(reuse.paired),
                        dict(reuse.pending_spans), dict(reuse.paired_spans), reused=True)
    pending, pending_spans = _parse(files.pending, pending_bytes, "pending requests", spans=spans)
    paired, paired_spans = _parse(files.paired, paired_bytes, "paired devices", spans=spans)
    return Snapshot(files, pending_bytes, paired_bytes, pending, paired, pending_spans, paired_spans)
