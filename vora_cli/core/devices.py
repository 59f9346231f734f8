"""The gateway's pairing store and its rules (spec devices.md).

Two JSON object maps in `<stateDir>/devices/`: `pending.json` (requestId -> request) and
`paired.json` (deviceId -> device). The gateway reads and rewrites the same files without a
lock, so every change here runs in `transact`: vora's own lock, a fresh read of both files, the
change, and a replace that checks just before each rename that neither file moved meanwhile
(else the change is redone on the fresh content, a few times, then `conflict`).

Only `json`, `hashlib` and the standard library are imported here: `vora devices list` must
start fast (bench/devices_bench.py). Keys and signatures live in `identity.py`.
"""

from __future__ import annotations

import base64
import json
import math
import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from vora_cli.core import writer
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths

JsonObj = dict[str, Any]
T = TypeVar("T")

PENDING_TTL_MS = 5 * 60 * 1000  # spec devices.md, "Rules": a request expires 5 minutes after `ts`
MAX_ATTEMPTS = 5  # redo a change on fresh content this often before giving up with `conflict`
MIN_PREFIX = 8  # a device id may be given by a unique prefix of at least 8 hex digits
OPERATOR_SCOPE_PREFIX = "operator."
IMPLIED_SCOPES: Mapping[str, tuple[str, ...]] = {
    "operator.admin": ("operator.read", "operator.write"),
    "operator.write": ("operator.read",),
}
# The identity fields a paired record copies verbatim from the approved request (spec "Rules").
IDENTITY_FIELDS = ("publicKey", "displayName", "platform", "deviceFamily", "clientId", "clientMode")
PAIRED_FIELD_ORDER = (
    "deviceId", "publicKey", "displayName", "platform", "deviceFamily", "clientId", "clientMode",
    "role", "roles", "scopes", "approvedScopes", "remoteIp", "label", "tokens", "createdAtMs", "approvedAtMs",
)
TAKES_EFFECT = "takes effect at the device's next connect attempt (the gateway re-reads the store on every connect)"
AUDIT_FILE = "devices-audit.jsonl"
SEEN_FILE = "devices-requests-seen.jsonl"
SEEN_KEEP = 2000  # the seen-requests journal is compacted to this many lines past twice as many

KIND_NEW = "new-device"
KIND_REPAIR = "repair"
KIND_ROLE_UPGRADE = "role-upgrade"
KIND_SCOPE_UPGRADE = "scope-upgrade"
KIND_METADATA = "metadata-change"
KIND_LABELS = {
    KIND_NEW: "new device",
    KIND_REPAIR: "repair",
    KIND_ROLE_UPGRADE: "role upgrade",
    KIND_SCOPE_UPGRADE: "scope upgrade",
    KIND_METADATA: "metadata change",
}

_HEX_RE = re.compile(r"^[0-9a-f]+$")
# The gateway is JavaScript: a time outside the range of a JS Date (±8.64e15 ms) is no time at all.
MAX_TIME_MS = 8_640_000_000_000_000


# -- small rules -----------------------------------------------------------------------------------

def now_ms() -> int:
    return time.time_ns() // 1_000_000


def mint_token() -> str:
    """A fresh device token: 32 bytes from the OS's cryptographic source, base64url, no padding (43 chars)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode("ascii")


def time_ms(value: object) -> int | None:
    """A stored time (ms since epoch) as an int, or None when it is not one.

    The store is written by another program and may be edited by hand: absent, a string, a bool,
    NaN, ±Infinity (`1e400` parses as inf) or a number beyond a JS Date's range is unknown, never
    a crash.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if not -MAX_TIME_MS <= value <= MAX_TIME_MS:
        return None
    return int(value)


def str_list(value: object) -> list[str]:
    """The strings of a JSON list; anything else (a string, a number, an object) is no list at all."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def raw_text(value: object, limit: int = 40) -> str:
    """A stored value as short text, for a message about it."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def normalize_scopes(scopes: Iterable[object] | None) -> list[str]:
    """Trimmed, de-duplicated, sorted, with implied scopes added (spec "Rules").

    Only a list (or tuple/set) counts: a stored `"scopes": "operator.read"` or `5` is no scopes.
    """
    if not isinstance(scopes, list | tuple | set | frozenset):
        scopes = ()
    found = {s.strip() for s in scopes if isinstance(s, str) and s.strip()}
    for scope in list(found):
        found.update(IMPLIED_SCOPES.get(scope, ()))
    return sorted(found)


def requested_roles(entry: Mapping[str, Any]) -> list[str]:
    """`roles`, else `[role]`, trimmed and de-duplicated in order."""
    raw = entry.get("roles")
    values: list[object] = list(raw) if isinstance(raw, list) else []
    if isinstance(entry.get("role"), str):
        values.insert(0, entry["role"])
    out: list[str] = []
    for value in values:
        if isinstance(value, str) and value.strip() and value.strip() not in out:
            out.append(value.strip())
    return out


def approved_scopes_of(device: Mapping[str, Any]) -> list[str]:
    scopes = device.get("approvedScopes")
    if not isinstance(scopes, list):
        scopes = device.get("scopes")
    return normalize_scopes(scopes if isinstance(scopes, list) else [])


def request_ts(entry: Mapping[str, Any]) -> int | None:
    """When the request was made; None when its `ts` is not a usable time."""
    return time_ms(entry.get("ts"))


def is_expired(entry: Mapping[str, Any], now: int) -> bool:
    # A request without a usable `ts` cannot be dated: it counts as expired (dropped on write).
    ts = request_ts(entry)
    return ts is None or now - ts >= PENDING_TTL_MS


def _ts_order(entry: Mapping[str, Any]) -> int:
    ts = request_ts(entry)
    return -MAX_TIME_MS - 1 if ts is None else ts


UNKNOWN_TS = "its age is unknown, so it counts as expired and cannot be approved"


def short_id(device_id: str) -> str:
    return device_id[:12]


def device_name(record: Mapping[str, Any], fallback_id: str) -> str:
    for key in ("label", "displayName"):
        value = record.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return short_id(fallback_id)


def format_duration(ms: int) -> str:
    """`4m 59s`, `2h 3m`, `3d 4h`: precise enough for an operator, short enough for a table."""
    seconds = max(0, ms) // 1000
    if seconds < 60:
        return f"{seconds}s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m {seconds}s" if seconds else f"{minutes}m"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    days, hours = divmod(hours, 24)
    return f"{days}d {hours}h" if hours else f"{days}d"


def _meta(value: object) -> str:
    # Compare platform/deviceFamily as the gateway pins them in the v3 signature: trimmed, A-Z lowered.
    return value.strip().translate(_ASCII_LOWER) if isinstance(value, str) else ""


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def to_json_data(value: Any) -> Any:
    """A result dataclass as JSON data: camelCase keys, tuples as lists (the data's own shape)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [to_json_data(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json_data(v) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {camel: to_json_data(getattr(value, name)) for name, camel in _json_fields(type(value))}
    return value


_FIELD_CACHE: dict[type, tuple[tuple[str, str], ...]] = {}


def _json_fields(cls: type) -> tuple[tuple[str, str], ...]:
    cached = _FIELD_CACHE.get(cls)
    if cached is None:
        cached = _FIELD_CACHE[cls] = tuple((f.name, _camel(f.name)) for f in fields(cls))
    return cached


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


# -- the store on disk -----------------------------------------------------------------------------

@dataclass(frozen=True)
class StoreFiles:
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
            parts.append(f"  {json.dumps(key, ensure_ascii=False)}: {text}")
        return ("{\n" + ",\n".join(parts) + "\n}" if parts else "{}").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON.stringify escapes those, so do we
        return _dumps(obj, ensure_ascii=True).encode("utf-8")


_POS_INF = "\x00vora:+inf\x00"
_NEG_INF = "\x00vora:-inf\x00"


def _dumps(value: Any, ensure_ascii: bool = False) -> str:
    """`json.dumps(value, indent=2)`, but strict JSON: a non-finite number read from the store
    (`1e400` parses as inf) is written back as `1e400`/`-1e400` (what JSON.parse reads as
    ±Infinity too), and NaN (only a hand edit can put it there) as null.
    """
    try:
        return json.dumps(value, indent=2, ensure_ascii=ensure_ascii, allow_nan=False)
    except ValueError:
        text = json.dumps(_finite(value), indent=2, ensure_ascii=ensure_ascii, allow_nan=False)
        return text.replace(json.dumps(_POS_INF), "1e400").replace(json.dumps(_NEG_INF), "-1e400")


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else _POS_INF if value > 0 else _NEG_INF
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


_DECODER = json.JSONDecoder()


def scan_map(text: str) -> tuple[dict[str, Any], dict[str, str]] | None:
    """Parse a store file written in the gateway's format, keeping each entry's text; else None.

    Only a file laid out exactly as `dump_map` writes it qualifies (top level `{\n  "key": ...`,
    entries joined by `,\n`, closing `\n}`); anything else is parsed by `json.loads` and written
    back fully re-encoded.
    """
    if text == "{}":
        return {}, {}
    if not text.startswith('{\n  "') or not text.endswith("\n}") or "\t" in text or "\r" in text:
        return None
    doc: dict[str, Any] = {}
    spans: dict[str, str] = {}
    pos = 4
    try:
        while True:
            key, pos = _DECODER.raw_decode(text, pos)
            if not isinstance(key, str) or text[pos:pos + 2] != ": ":
                return None
            value, end = _DECODER.raw_decode(text, pos + 2)
            doc[key] = value
            spans[key] = text[pos + 2:end]
            if text[end:end + 5] == ',\n  "':
                pos = end + 4
            elif end == len(text) - 2:
                return doc, spans
            else:
                return None
    except json.JSONDecodeError:
        return None


def parse_map(path: Path, data: bytes | None, what: str) -> dict[str, JsonObj]:
    """A store file's object map; a missing file is empty; anything unreadable is an error naming it."""
    return parse_map_with_spans(path, data, what)[0]


def parse_map_with_spans(path: Path, data: bytes | None, what: str) -> tuple[dict[str, JsonObj], dict[str, str]]:
    """`parse_map`, plus each entry's text as read when the file is in the gateway's layout."""
    if data is None:
        return {}, {}
    hint = "vora never overwrites a store it could not read: fix the file or move it aside, then retry"
    try:
        text = data.decode("utf-8")
        scanned = scan_map(text)
        if scanned is not None and all(isinstance(v, dict) for v in scanned[0].values()):
            return scanned
        doc = json.loads(text)
    except UnicodeDecodeError as exc:
        raise VoraError("parse_error", f"{path}: not UTF-8 text (byte {exc.start})", hint) from None
    except json.JSONDecodeError as exc:
        raise VoraError("parse_error", f"{path}:{exc.lineno}:{exc.colno}: {exc.msg}", hint) from None
    if not isinstance(doc, dict):
        raise VoraError("parse_error", f"{path}: expected a JSON object of {what}, found {type(doc).__name__}", hint)
    for key, value in doc.items():
        if not isinstance(value, dict):
            raise VoraError("parse_error", f"{path}: entry {key!r} is not a JSON object", hint)
    return doc, {}


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


def read_store(files: StoreFiles) -> Snapshot:
    pending_bytes = writer.read_bytes(files.pending)
    paired_bytes = writer.read_bytes(files.paired)
    pending, pending_spans = parse_map_with_spans(files.pending, pending_bytes, "pending requests")
    paired, paired_spans = parse_map_with_spans(files.paired, paired_bytes, "paired devices")
    return Snapshot(files, pending_bytes, paired_bytes, pending, paired, pending_spans, paired_spans)


@dataclass
class Change:
    """What a change function works on: the fresh store, and what it did (set by the function)."""

    pending: dict[str, JsonObj]
    paired: dict[str, JsonObj]
    now: int
    expired: dict[str, JsonObj] = field(default_factory=dict)  # dropped because this is a write
    pending_changed: bool = False
    paired_changed: bool = False
    touched: set[str] = field(default_factory=set)  # keys of entries added or changed (re-encoded on write)
    audit: list[JsonObj] = field(default_factory=list)

    def changed_paired(self, device_id: str | None = None) -> None:
        """Say the paired map changed; name the device whose record was added or edited in place."""
        self.paired_changed = True
        if device_id is not None:
            self.touched.add(device_id)

    def changed_pending(self, request_id: str | None = None) -> None:
        self.pending_changed = True
        if request_id is not None:
            self.touched.add(request_id)

    def record(self, action: str, device_id: str | None, request_id: str | None = None,
               roles: Iterable[str] = (), scopes: Iterable[str] = (), **extra: Any) -> None:
        # Never a token here: the audit log is readable by whoever reads logs.
        self.audit.append({"action": action, "deviceId": device_id, "requestId": request_id,
                           "roles": list(roles), "scopes": list(scopes), **extra})


@dataclass(frozen=True)
class WriteReport:
    """Where a change landed (or would have, with --dry-run)."""

    dry_run: bool
    written: tuple[str, ...]
    attempts: int
    dropped_expired: tuple[str, ...]
    warnings: tuple[str, ...] = ()


def transact(paths: VoraPaths, change: Callable[[Change], T], *, now: int, dry_run: bool = False) -> tuple[T, WriteReport]:
    """Apply `change` to the store under the devices lock, beside a gateway that takes none.

    Each attempt re-reads both files, drops expired requests, runs `change` and writes the files
    it changed (paired first: an approval never leaves a request gone with no device) through
    `writer.replace_files_if_unchanged`. A file that moved in between means a redo on the fresh
    content; after MAX_ATTEMPTS, `conflict`.
    """
    files = StoreFiles.of(paths)
    landed: tuple[Path, ...] = ()
    with writer.file_lock(files.lock):
        for attempt in range(1, MAX_ATTEMPTS + 1):
            snap = read_store(files)
            if attempt == 1 and not dry_run:
                remember_requests(paths, snap.pending, now)
            work = Change(pending=snap.pending, paired=snap.paired, now=now)
            for request_id, entry in list(work.pending.items()):
                if is_expired(entry, now):
                    work.expired[request_id] = work.pending.pop(request_id)
            result = change(work)
            if not (work.pending_changed or work.paired_changed):
                return result, WriteReport(dry_run, (), attempt, ())
            writes: list[tuple[Path, bytes]] = []
            if work.paired_changed:
                writes.append((files.paired, dump_map(work.paired, _unchanged(snap.paired_spans, work.touched))))
            if work.pending_changed or work.expired:
                writes.append((files.pending, dump_map(work.pending, _unchanged(snap.pending_spans, work.touched))))
            writes = [(p, data) for p, data in writes
                      if data != (snap.paired_bytes if p == files.paired else snap.pending_bytes)]
            dropped = tuple(work.expired)
            if dry_run:
                return result, WriteReport(True, tuple(str(p) for p, _ in writes), attempt, dropped)
            try:
                # The store holds device tokens: 0600 files in a 0700 folder, whatever they were before.
                writer.ensure_dir(files.devices_dir)
                _tighten_dir(files.devices_dir)
                done = writer.replace_files_if_unchanged(
                    writes, {files.pending: snap.pending_bytes, files.paired: snap.paired_bytes}, force_mode=True
                )
            except writer.ContentChanged as changed:
                landed = changed.written
                continue
            for request_id, entry in work.expired.items():
                work.record("expire", _str(entry.get("deviceId")), request_id, requested_roles(entry),
                            normalize_scopes(entry.get("scopes")))
            warnings = _append_audit(paths, work.audit, now)
            return result, WriteReport(False, tuple(str(r.path) for r in done), attempt, dropped, warnings)
    partial = f" ({', '.join(map(str, landed))} was replaced before the last change was seen)" if landed else ""
    raise VoraError(
        "conflict",
        f"the pairing store in {files.devices_dir} kept changing while vora wrote it "
        f"({MAX_ATTEMPTS} attempts){partial}",
        "the gateway rewrites it whenever a device connects or asks to pair; run the command again",
    )


def _unchanged(spans: dict[str, str], touched: set[str]) -> dict[str, str]:
    for key in touched:
        spans.pop(key, None)
    return spans


def _tighten_dir(directory: Path) -> None:
    try:
        if directory.stat().st_mode & 0o077:
            directory.chmod(0o700)
    except OSError:
        pass  # not ours to chmod (another owner): the files are still written 0600


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _append_audit(paths: VoraPaths, events: list[JsonObj], now: int) -> tuple[str, ...]:
    if not events:
        return ()
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now / 1000)) + f".{now % 1000:03d}Z"
    lines = "\n".join(json.dumps({"time": stamp, "atMs": now, **event}, ensure_ascii=False) for event in events)
    try:
        writer.append_line(paths.logs_dir / AUDIT_FILE, lines)
    except VoraError as error:  # the change has landed; a lost audit line must not claim otherwise
        return (f"the change was written but its audit line was not: {error.message}",)
    return ()


# -- the seen-requests journal (for "superseded" and "never seen") --------------------------------

def remember_requests(paths: VoraPaths, pending: Mapping[str, JsonObj], now: int) -> None:
    """Note every request id vora has seen, so a stale id can be explained later (best effort).

    Devices replace their request every few seconds; an operator who copied an id from `list`
    a minute ago deserves "superseded by <newer id>", not "unknown requestId".
    """
    path = paths.logs_dir / SEEN_FILE
    try:
        known = _read_seen(path)
        new = [
            json.dumps({"requestId": rid, "deviceId": _str(entry.get("deviceId")), "ts": request_ts(entry),
                        "seenAtMs": now})
            for rid, entry in pending.items() if rid not in known
        ]
        if new:
            writer.append_line(path, "\n".join(new))
        if len(known) + len(new) > 2 * SEEN_KEEP:
            writer.update_file(path, _compact_seen)
    except VoraError:
        pass  # a read-only state dir still lists and approves; only the explanations get poorer


def _compact_seen(data: bytes | None) -> bytes | None:
    if data is None:
        return None
    lines = data.splitlines()[-SEEN_KEEP:]
    return b"\n".join(lines) + b"\n"


def _read_seen(path: Path) -> dict[str, JsonObj]:
    data = writer.read_bytes(path)
    seen: dict[str, JsonObj] = {}
    for line in (data or b"").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("requestId"), str):
            seen[entry["requestId"]] = entry
    return seen


# -- classification --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Classification:
    kind: str  # the headline: new-device, role-upgrade, scope-upgrade, metadata-change or repair
    kinds: tuple[str, ...]  # every kind that applies (an upgrade can also change metadata)
    changes: tuple[str, ...]  # "role: +node", "+operator.write", "platform: macos 15.1 -> macos 15.2"
    public_key_changed: bool  # a different key claims a known device id: flag it loudly


def classify_request(request: Mapping[str, Any], paired: Mapping[str, Any] | None) -> Classification:
    """What kind of request this is, against the paired record of the same device (spec "What kind")."""
    if paired is None:
        return Classification(KIND_NEW, (KIND_NEW,), (), False)
    kinds: list[str] = []
    changes: list[str] = []
    have_roles = requested_roles(paired)
    new_roles = [r for r in requested_roles(request) if r not in have_roles]
    if new_roles:
        kinds.append(KIND_ROLE_UPGRADE)
        changes.extend(f"role: +{role}" for role in new_roles)
    approved = approved_scopes_of(paired)
    new_scopes = [s for s in normalize_scopes(request.get("scopes")) if s not in approved]
    if new_scopes:
        kinds.append(KIND_SCOPE_UPGRADE)
        changes.extend(f"+{scope}" for scope in new_scopes)
    for key in ("platform", "deviceFamily"):
        if _meta(request.get(key)) != _meta(paired.get(key)):
            if KIND_METADATA not in kinds:
                kinds.append(KIND_METADATA)
            changes.append(f"{key}: {_show(paired.get(key))} -> {_show(request.get(key))}")
    if request.get("displayName") != paired.get("displayName") and "displayName" in request:
        changes.append(f"displayName: {_show(paired.get('displayName'))} -> {_show(request.get('displayName'))}")
    key_changed = request.get("publicKey") != paired.get("publicKey")
    if key_changed:
        changes.append("publicKey: DIFFERENT KEY for this device id")
    if not kinds:
        kinds.append(KIND_REPAIR)
    return Classification(kinds[0], tuple(kinds), tuple(changes), key_changed)


def _show(value: object) -> str:
    return value if isinstance(value, str) and value else "(none)"


# -- read-only views -------------------------------------------------------------------------------

@dataclass(frozen=True)
class PendingView:
    request_id: str
    device_id: str
    name: str
    display_name: str | None
    platform: str | None
    device_family: str | None
    client_id: str | None
    client_mode: str | None
    roles: tuple[str, ...]
    scopes: tuple[str, ...]
    remote_ip: str | None
    is_repair: bool
    silent: bool
    ts: int | None  # None: the stored `ts` is not a usable time (the request counts as expired)
    age_ms: int | None
    expires_in_ms: int
    expired: bool
    classification: Classification
    problems: tuple[str, ...] = ()  # fields vora could not understand (reported, never fatal)


@dataclass(frozen=True)
class TokenState:
    role: str
    state: str  # active | revoked | unknown (revokedAtMs is set but is not a time)
    scopes: tuple[str, ...]
    created_at_ms: int | None
    rotated_at_ms: int | None
    revoked_at_ms: int | None
    last_used_at_ms: int | None


@dataclass(frozen=True)
class PairedView:
    device_id: str
    name: str
    label: str | None
    display_name: str | None
    platform: str | None
    device_family: str | None
    client_id: str | None
    client_mode: str | None
    roles: tuple[str, ...]
    approved_scopes: tuple[str, ...]
    remote_ip: str | None
    created_at_ms: int | None
    approved_at_ms: int | None
    tokens: tuple[TokenState, ...]
    problems: tuple[str, ...] = ()  # fields vora could not understand (reported, never fatal)


@dataclass(frozen=True)
class Listing:
    state_dir: str
    now_ms: int
    pending: tuple[PendingView, ...]
    paired: tuple[PairedView, ...]


def _int(value: object) -> int | None:
    return time_ms(value)


def _time_problem(record: Mapping[str, Any], key: str, where: str = "") -> str | None:
    value = record.get(key)
    if value is None or time_ms(value) is not None:
        return None
    return f"{where}{key} is not a time ({raw_text(value)}): shown as unknown"


def pending_view(request_id: str, entry: Mapping[str, Any], paired: Mapping[str, JsonObj], now: int) -> PendingView:
    device_id = _str(entry.get("deviceId")) or ""
    known = paired.get(device_id)
    ts = request_ts(entry)
    problems = []
    if ts is None:
        raw = raw_text(entry["ts"]) if "ts" in entry else "missing"
        problems.append(f"ts is not a time ({raw}): {UNKNOWN_TS}")
    problems += [f"{key} is not a list of strings ({raw_text(entry[key])}): ignored"
                 for key in ("roles", "scopes") if key in entry and not isinstance(entry[key], list)]
    return PendingView(
        request_id=request_id,
        device_id=device_id,
        name=device_name({**entry, "label": (known or {}).get("label")}, device_id),
        display_name=_str(entry.get("displayName")),
        platform=_str(entry.get("platform")),
        device_family=_str(entry.get("deviceFamily")),
        client_id=_str(entry.get("clientId")),
        client_mode=_str(entry.get("clientMode")),
        roles=tuple(requested_roles(entry)),
        scopes=tuple(normalize_scopes(entry.get("scopes"))),
        remote_ip=_str(entry.get("remoteIp")),
        is_repair=entry.get("isRepair") is True,
        silent=entry.get("silent") is True,
        ts=ts,
        age_ms=None if ts is None else now - ts,
        expires_in_ms=0 if ts is None else max(0, ts + PENDING_TTL_MS - now),
        expired=is_expired(entry, now),
        classification=classify_request(entry, known),
        problems=tuple(problems),
    )


def paired_view(device_id: str, record: Mapping[str, Any]) -> PairedView:
    raw_tokens = record.get("tokens")
    tokens = raw_tokens if isinstance(raw_tokens, dict) else {}
    problems: list[str] = []
    if raw_tokens is not None and not isinstance(raw_tokens, dict):
        problems.append(f"tokens is not an object ({raw_text(raw_tokens)}): no token state shown")
    problems += [p for p in (_time_problem(record, k) for k in ("createdAtMs", "approvedAtMs")) if p]
    states = []
    for role, token in sorted(tokens.items()):
        if not isinstance(token, dict):
            problems.append(f"tokens.{role} is not a token record ({raw_text(token)}): ignored")
            continue
        revoked = _int(token.get("revokedAtMs"))
        state = "revoked" if revoked is not None else "active"
        if revoked is None and token.get("revokedAtMs") is not None:
            state = "unknown"
            problems.append(f"tokens.{role}.revokedAtMs is not a time ({raw_text(token['revokedAtMs'])}): "
                            "whether the token is revoked is unknown; 'vora devices revoke' or 'rotate' settles it")
        problems += [p for p in (_time_problem(token, k, f"tokens.{role}.")
                                 for k in ("createdAtMs", "rotatedAtMs", "lastUsedAtMs")) if p]
        if "scopes" in token and not isinstance(token["scopes"], list):
            problems.append(f"tokens.{role}.scopes is not a list ({raw_text(token['scopes'])}): shown as none")
        states.append(TokenState(
            role=role,
            state=state,
            scopes=tuple(str_list(token.get("scopes"))),
            created_at_ms=_int(token.get("createdAtMs")),
            rotated_at_ms=_int(token.get("rotatedAtMs")),
            revoked_at_ms=revoked,
            last_used_at_ms=_int(token.get("lastUsedAtMs")),
        ))
    return PairedView(
        device_id=device_id,
        name=device_name(record, device_id),
        label=_str(record.get("label")),
        display_name=_str(record.get("displayName")),
        platform=_str(record.get("platform")),
        device_family=_str(record.get("deviceFamily")),
        client_id=_str(record.get("clientId")),
        client_mode=_str(record.get("clientMode")),
        roles=tuple(requested_roles(record)),
        approved_scopes=tuple(approved_scopes_of(record)),
        remote_ip=_str(record.get("remoteIp")),
        created_at_ms=_int(record.get("createdAtMs")),
        approved_at_ms=_int(record.get("approvedAtMs")),
        tokens=tuple(states),
        problems=tuple(problems),
    )


def list_devices(paths: VoraPaths, *, now: int, pending: bool = True, paired: bool = True) -> Listing:
    """Pending requests (newest first, expired ones included and marked) and paired devices."""
    snap = read_store(StoreFiles.of(paths))
    remember_requests(paths, snap.pending, now)
    pending_views = sorted(
        (pending_view(rid, entry, snap.paired, now) for rid, entry in snap.pending.items()),
        key=lambda v: (v.ts is None, -(v.ts or 0)),
    ) if pending else []
    paired_views = [paired_view(did, rec) for did, rec in snap.paired.items()] if paired else []
    return Listing(str(paths.state_dir), now, tuple(pending_views), tuple(paired_views))


# -- finding things --------------------------------------------------------------------------------

def resolve_device_id(given: str, candidates: Iterable[str], *, where: str) -> str | None:
    """The one device id that `given` names (full id or unique prefix of 8+ hex digits), or None."""
    wanted = given.strip().lower()
    if len(wanted) < MIN_PREFIX or not _HEX_RE.match(wanted):
        raise VoraError(
            "usage",
            f"{given!r} is not a device id: give the full id or a prefix of at least {MIN_PREFIX} hex digits",
            "'vora devices list' shows device ids",
        )
    ids = list(candidates)
    if wanted in ids:
        return wanted
    matches = sorted(i for i in ids if i.startswith(wanted))
    if len(matches) > 1:
        raise VoraError(
            "refused",
            f"{given!r} matches {len(matches)} devices in {where}: " + ", ".join(short_id(m) for m in matches[:10]),
            "give more hex digits of the device id",
        )
    return matches[0] if matches else None


def require_paired(paired: Mapping[str, JsonObj], given: str, state_dir: Path,
                   pending: Mapping[str, JsonObj] | None = None) -> str:
    device_id = resolve_device_id(given, paired, where="paired.json")
    if device_id is not None:
        return device_id
    hint = "'vora devices list --paired' shows paired devices"
    if pending:
        waiting = resolve_device_id(given, {_str(e.get("deviceId")) or "" for e in pending.values()},
                                    where="pending.json")
        if waiting:
            hint = f"it is not paired yet but has a pending request: vora devices approve --device {short_id(waiting)}"
    raise VoraError("not_found", f"no paired device {given!r} in {state_dir}", hint)


def newest_live_request(pending: Mapping[str, JsonObj], device_id: str | None, now: int) -> tuple[str, JsonObj] | None:
    best: tuple[str, JsonObj] | None = None
    for rid, entry in pending.items():
        if device_id is not None and entry.get("deviceId") != device_id:
            continue
        if is_expired(entry, now):
            continue
        if best is None or _ts_order(entry) > _ts_order(best[1]):
            best = (rid, entry)
    return best


def explain_missing_request(paths: VoraPaths, request_id: str, snap: Snapshot, now: int) -> VoraError:
    """Why `request_id` cannot be acted on: expired, superseded, already handled, or never seen here."""
    entry = snap.pending.get(request_id) or _read_seen(paths.logs_dir / SEEN_FILE).get(request_id)
    if entry is None:
        hint = "'vora devices list --pending' shows the live requests"
        looks_like_device = len(request_id) >= MIN_PREFIX and _HEX_RE.match(request_id.lower())
        if looks_like_device:
            ids = {_str(e.get("deviceId")) or "" for e in snap.pending.values()} | set(snap.paired)
            if any(i.startswith(request_id.lower()) for i in ids):
                hint = f"that looks like a device id: use --device {request_id}"
        return VoraError(
            "not_found",
            f"request {request_id} was never seen in the state dir {paths.state_dir} "
            "(not in devices/pending.json, and vora has no record of it)",
            hint + "; if the device pairs with another gateway, pass --state-dir or --profile",
        )
    device_id = _str(entry.get("deviceId")) or ""
    newer = newest_live_request(snap.pending, device_id, now)
    ts = request_ts(entry)
    expired_ago = 0 if ts is None else now - ts - PENDING_TTL_MS
    if newer is not None and newer[0] != request_id:
        state = f"expired {format_duration(expired_ago)} ago and was" if expired_ago >= 0 else "was"
        if ts is None:
            state = "has no usable ts (age unknown) and was"
        return VoraError(
            "not_found",
            f"request {request_id} {state} superseded by a newer request {newer[0]} of the same device "
            f"({short_id(device_id)}, {format_duration(now - _ts_order(newer[1]))} old)",
            f"approve the newer one: vora devices approve {newer[0]}  (or: vora devices approve --device {short_id(device_id)})",
        )
    if ts is None:
        raw = raw_text(entry["ts"]) if "ts" in entry else "missing"
        return VoraError(
            "invalid",
            f"request {request_id} of device {short_id(device_id)} has no usable timestamp (ts: {raw}): {UNKNOWN_TS}",
            f"have the device reconnect so it asks again, then: vora devices approve --device {short_id(device_id)}",
        )
    if expired_ago >= 0:
        return VoraError(
            "invalid",
            f"request {request_id} of device {short_id(device_id)} expired {format_duration(expired_ago)} ago "
            f"(requests live {format_duration(PENDING_TTL_MS)})",
            f"have the device reconnect so it asks again, then: vora devices approve --device {short_id(device_id)}",
        )
    record = snap.paired.get(device_id)
    if record is not None and (_int(record.get("approvedAtMs")) or 0) >= ts:
        return VoraError(
            "not_found",
            f"request {request_id} is no longer pending: device {device_name(record, device_id)} "
            f"({short_id(device_id)}) was approved since",
            "'vora devices list --paired' shows it",
        )
    return VoraError(
        "not_found",
        f"request {request_id} of device {short_id(device_id)} is no longer pending (rejected or withdrawn)",
        f"have the device reconnect so it asks again, then: vora devices approve --device {short_id(device_id)}",
    )


# -- changes ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MintedToken:
    role: str
    scopes: tuple[str, ...]
    rotated: bool  # the role had a token: its createdAtMs is kept, rotatedAtMs set


@dataclass(frozen=True)
class ApproveResult:
    request_id: str
    device_id: str
    name: str
    classification: Classification
    roles: tuple[str, ...]
    approved_scopes: tuple[str, ...]
    tokens: tuple[MintedToken, ...]
    approved_at_ms: int
    takes_effect: str
    report: WriteReport


@dataclass(frozen=True)
class Selection:
    """Which request an approve/reject names: by id, by device, or the newest of all."""

    request_id: str | None = None
    device: str | None = None
    latest: bool = False


def select_request(paths: VoraPaths, snap: Snapshot, selection: Selection, now: int) -> tuple[str, JsonObj]:
    """The live request a selection names, or an error that explains why there is none."""
    if selection.request_id is not None:
        entry = snap.pending.get(selection.request_id)
        if entry is None or is_expired(entry, now):
            raise explain_missing_request(paths, selection.request_id, snap, now)
        return selection.request_id, entry
    if selection.device is not None:
        ids = {_str(e.get("deviceId")) or "" for e in snap.pending.values()}
        device_id = resolve_device_id(selection.device, ids, where="pending.json")
        found = newest_live_request(snap.pending, device_id, now) if device_id else None
        if found is not None:
            return found
        if device_id is not None:
            last = max((e for e in snap.pending.values() if e.get("deviceId") == device_id), key=_ts_order)
            last_ts = request_ts(last)
            why = (f"its newest expired {format_duration(now - last_ts - PENDING_TTL_MS)} ago" if last_ts is not None
                   else f"its request has no usable timestamp (ts: {raw_text(last.get('ts'))}): {UNKNOWN_TS}")
            raise VoraError(
                "invalid",
                f"device {short_id(device_id)} has no live request: {why}",
                "have the device reconnect so it asks again, then run this command again",
            )
        paired_hint = ""
        if resolve_device_id(selection.device, snap.paired, where="paired.json"):
            paired_hint = " (it is already paired; a paired device asks again only to repair or upgrade)"
        raise VoraError(
            "not_found",
            f"device {selection.device} has no pending request in {paths.state_dir}{paired_hint}",
            "'vora devices list --pending' shows the live requests",
        )
    found = newest_live_request(snap.pending, None, now)
    if found is None:
        raise VoraError(
            "not_found",
            f"no live pairing request in {paths.state_dir}",
            "have the device connect (it asks to pair), then run this again within 5 minutes",
        )
    return found


def preview_request(paths: VoraPaths, selection: Selection, *, now: int) -> PendingView:
    """The request a selection names, classified, without changing anything (for --latest's question)."""
    snap = read_store(StoreFiles.of(paths))
    remember_requests(paths, snap.pending, now)
    request_id, entry = select_request(paths, snap, selection, now)
    return pending_view(request_id, entry, snap.paired, now)


def approve_request(paths: VoraPaths, selection: Selection, *, now: int, dry_run: bool = False,
                    allow_key_change: bool = False, mint: Callable[[], str] = mint_token) -> ApproveResult:
    """Approve one live request: merge roles and scopes, mint one fresh token per requested role."""

    def change(work: Change) -> ApproveResult:
        snap = Snapshot(StoreFiles.of(paths), None, None, {**work.pending, **work.expired}, work.paired)
        request_id, request = select_request(paths, snap, selection, now)
        device_id = _str(request.get("deviceId"))
        if not device_id:
            raise VoraError("invalid", f"request {request_id} in pending.json has no deviceId", None)
        existing = work.paired.get(device_id)
        classification = classify_request(request, existing)
        if classification.public_key_changed and not allow_key_change:
            raise VoraError(
                "confirmation_required",
                f"request {request_id} carries a DIFFERENT public key for the paired device {short_id(device_id)}",
                "approving replaces the device's key; if you expected this, approve again with --yes",
            )
        record, minted = merge_approval(existing, request, now, mint)
        work.paired[device_id] = record
        del work.pending[request_id]
        work.changed_paired(device_id)
        work.changed_pending()
        work.record("approve", device_id, request_id, [m.role for m in minted], record["approvedScopes"],
                    kind=classification.kind)
        return ApproveResult(
            request_id=request_id,
            device_id=device_id,
            name=device_name(record, device_id),
            classification=classification,
            roles=tuple(record["roles"]),
            approved_scopes=tuple(record["approvedScopes"]),
            tokens=tuple(minted),
            approved_at_ms=now,
            takes_effect=TAKES_EFFECT,
            report=WriteReport(dry_run, (), 0, ()),
        )

    result, report = transact(paths, change, now=now, dry_run=dry_run)
    return _with_report(result, report)


def merge_approval(existing: Mapping[str, Any] | None, request: Mapping[str, Any], now: int,
                   mint: Callable[[], str] = mint_token) -> tuple[JsonObj, list[MintedToken]]:
    """The paired record after approving `request` (spec devices.md, "Rules")."""
    base: JsonObj = dict(existing or {})
    record: JsonObj = {"deviceId": request["deviceId"]}
    for key in IDENTITY_FIELDS:  # verbatim: a field the request lacks is dropped
        base.pop(key, None)
        if key in request:
            record[key] = request[key]
    ask_roles = requested_roles(request)
    roles = requested_roles(base)
    roles += [r for r in ask_roles if r not in roles]
    ask_scopes = normalize_scopes(request.get("scopes"))
    approved = normalize_scopes([*approved_scopes_of(base), *ask_scopes])
    role = request.get("role") if isinstance(request.get("role"), str) else base.get("role")
    if role is not None:
        record["role"] = role
    record["roles"] = roles
    record["scopes"] = approved
    record["approvedScopes"] = approved
    remote_ip = request.get("remoteIp", base.get("remoteIp"))
    if remote_ip is not None:
        record["remoteIp"] = remote_ip
    tokens: JsonObj = dict(base.get("tokens") or {}) if isinstance(base.get("tokens"), dict) else {}
    minted: list[MintedToken] = []
    for ask_role in ask_roles:
        old = tokens.get(ask_role) if isinstance(tokens.get(ask_role), dict) else None
        scopes = token_scopes_for_role(ask_role, ask_scopes, old)
        tokens[ask_role] = new_token_record(ask_role, scopes, old, now, mint)
        minted.append(MintedToken(ask_role, tuple(scopes), old is not None))
    record["tokens"] = tokens
    record["createdAtMs"] = base.get("createdAtMs", now)
    record["approvedAtMs"] = now
    for key, value in base.items():  # keep what the gateway or vora stored beyond the fields above
        record.setdefault(key, value)
    ordered = {k: record[k] for k in PAIRED_FIELD_ORDER if k in record}
    ordered.update((k, v) for k, v in record.items() if k not in ordered)
    return ordered, minted


def token_scopes_for_role(role: str, scopes: Iterable[str], previous: Mapping[str, Any] | None) -> list[str]:
    """`operator` gets only the operator.* scopes, any other role only the others; none: the previous token's."""
    is_operator = role == "operator"
    picked = [s for s in scopes if s.startswith(OPERATOR_SCOPE_PREFIX) == is_operator]
    if not picked and previous is not None:
        picked = str_list(previous.get("scopes"))
    return picked


def new_token_record(role: str, scopes: list[str], old: Mapping[str, Any] | None, now: int,
                     mint: Callable[[], str] = mint_token) -> JsonObj:
    token: JsonObj = {"token": mint(), "role": role, "scopes": scopes}
    token["createdAtMs"] = old.get("createdAtMs", now) if old is not None else now
    if old is not None:
        token["rotatedAtMs"] = now
        if "lastUsedAtMs" in old:
            token["lastUsedAtMs"] = old["lastUsedAtMs"]
        for key, value in old.items():  # unknown fields survive; revokedAtMs is cleared
            if key not in token and key not in ("revokedAtMs", "rotatedAtMs"):
                token[key] = value
    return token


def _with_report(result: T, report: WriteReport) -> T:
    return replace(result, report=report)  # type: ignore[type-var]


@dataclass(frozen=True)
class RequestResult:
    """A request that was rejected (or staged by demo-request)."""

    action: str
    request_id: str
    device_id: str
    name: str
    was_expired: bool
    report: WriteReport


def reject_request(paths: VoraPaths, selection: Selection, *, now: int, dry_run: bool = False) -> RequestResult:
    """Remove a pending request. An expired one is dropped all the same (and said so)."""

    def change(work: Change) -> RequestResult:
        every = {**work.pending, **work.expired}
        snap = Snapshot(StoreFiles.of(paths), None, None, every, work.paired)
        if selection.request_id is not None and selection.request_id in work.expired:
            request_id, entry, expired = selection.request_id, work.expired[selection.request_id], True
        else:
            request_id, entry = select_request(paths, snap, selection, now)
            expired = False
            del work.pending[request_id]
        work.changed_pending()
        device_id = _str(entry.get("deviceId")) or ""
        work.record("reject", device_id, request_id, requested_roles(entry), normalize_scopes(entry.get("scopes")))
        return RequestResult("reject", request_id, device_id, device_name(entry, device_id), expired,
                             WriteReport(dry_run, (), 0, ()))

    result, report = transact(paths, change, now=now, dry_run=dry_run)
    return _with_report(result, report)


@dataclass(frozen=True)
class DeviceResult:
    """A change to one paired device: remove, revoke, rename (tokens never included)."""

    action: str
    device_id: str
    name: str
    role: str | None
    detail: str
    changed: bool
    report: WriteReport


def _device_change(paths: VoraPaths, given: str, now: int, dry_run: bool,
                   apply: Callable[[Change, str, JsonObj], DeviceResult]) -> DeviceResult:
    def change(work: Change) -> DeviceResult:
        device_id = require_paired(work.paired, given, paths.state_dir, {**work.pending, **work.expired})
        return apply(work, device_id, work.paired[device_id])

    result, report = transact(paths, change, now=now, dry_run=dry_run)
    return _with_report(result, report)


def remove_device(paths: VoraPaths, device: str, *, now: int, dry_run: bool = False) -> DeviceResult:
    def apply(work: Change, device_id: str, record: JsonObj) -> DeviceResult:
        del work.paired[device_id]
        work.changed_paired()
        work.record("remove", device_id, None, requested_roles(record), approved_scopes_of(record))
        return DeviceResult("remove", device_id, device_name(record, device_id), None,
                            "unpaired; its tokens no longer work", True, WriteReport(dry_run, (), 0, ()))

    return _device_change(paths, device, now, dry_run, apply)


def _token_of(record: JsonObj, device_id: str, role: str) -> JsonObj:
    tokens = record.get("tokens")
    token = tokens.get(role) if isinstance(tokens, dict) else None
    if not isinstance(token, dict):
        have = ", ".join(sorted(tokens)) if isinstance(tokens, dict) and tokens else "none"
        raise VoraError("not_found", f"device {short_id(device_id)} has no {role!r} token (tokens: {have})",
                        "'vora devices list --paired' shows each device's tokens")
    return token


def revoke_token(paths: VoraPaths, device: str, role: str, *, now: int, dry_run: bool = False) -> DeviceResult:
    def apply(work: Change, device_id: str, record: JsonObj) -> DeviceResult:
        token = _token_of(record, device_id, role)
        name = device_name(record, device_id)
        if _int(token.get("revokedAtMs")) is not None:
            return DeviceResult("revoke", device_id, name, role, "already revoked", False,
                                WriteReport(dry_run, (), 0, ()))
        token["revokedAtMs"] = now
        work.changed_paired(device_id)
        work.record("revoke", device_id, None, [role], str_list(token.get("scopes")))
        return DeviceResult("revoke", device_id, name, role,
                            f"{role} token revoked; the entry stays ('rotate' issues a new one)", True,
                            WriteReport(dry_run, (), 0, ()))

    return _device_change(paths, device, now, dry_run, apply)


def rename_device(paths: VoraPaths, device: str, label: str, *, now: int, dry_run: bool = False) -> DeviceResult:
    clean = label.strip()
    if not clean:
        raise VoraError("usage", "the label is empty", "give a name, for example: vora devices rename 96ce6dad 'ops laptop'")

    def apply(work: Change, device_id: str, record: JsonObj) -> DeviceResult:
        old = record.get("label")
        if old == clean:
            return DeviceResult("rename", device_id, clean, None, "label unchanged", False,
                                WriteReport(dry_run, (), 0, ()))
        updated = {k: v for k, v in record.items() if k not in ("label", "tokens", "createdAtMs", "approvedAtMs")}
        updated["label"] = clean
        updated.update((k, record[k]) for k in ("tokens", "createdAtMs", "approvedAtMs") if k in record)
        work.paired[device_id] = updated
        work.changed_paired(device_id)
        work.record("rename", device_id, None, label=clean)
        detail = f"label: {_show(old)} -> {clean}"
        return DeviceResult("rename", device_id, clean, None, detail, True, WriteReport(dry_run, (), 0, ()))

    return _device_change(paths, device, now, dry_run, apply)


@dataclass(frozen=True)
class RotateResult:
    device_id: str
    name: str
    role: str
    scopes: tuple[str, ...]
    token: str | None  # the one place a token leaves vora: printed once, never logged
    takes_effect: str
    report: WriteReport


def rotate_token(paths: VoraPaths, device: str, role: str, scopes: list[str] | None, *, now: int,
                 dry_run: bool = False, mint: Callable[[], str] = mint_token) -> RotateResult:
    """Mint a new token for one role; its scopes (given, else the current token's) lie within approvedScopes."""

    def change(work: Change) -> RotateResult:
        device_id = require_paired(work.paired, device, paths.state_dir)
        record = work.paired[device_id]
        tokens = record.get("tokens") if isinstance(record.get("tokens"), dict) else None
        old = tokens.get(role) if tokens is not None and isinstance(tokens.get(role), dict) else None
        if old is None and role not in requested_roles(record):
            raise VoraError("refused", f"device {short_id(device_id)} has no role {role!r} "
                            f"(roles: {', '.join(requested_roles(record)) or 'none'})",
                            "a device gets a new role by asking for it and being approved")
        wanted = normalize_scopes(scopes) if scopes else normalize_scopes((old or {}).get("scopes"))
        approved = approved_scopes_of(record)
        outside = [s for s in wanted if s not in approved]
        if outside:
            raise VoraError("refused", f"scopes outside the device's approvedScopes: {', '.join(outside)}",
                            f"approved: {', '.join(approved) or 'none'}; the device must ask for more and be approved")
        fresh = new_token_record(role, wanted, old, now, mint)
        record["tokens"] = {**(tokens or {}), role: fresh}
        work.changed_paired(device_id)
        work.record("rotate", device_id, None, [role], wanted)
        return RotateResult(device_id, device_name(record, device_id), role, tuple(wanted), fresh["token"],
                            TAKES_EFFECT, WriteReport(dry_run, (), 0, ()))

    result, report = transact(paths, change, now=now, dry_run=dry_run)
    if dry_run:  # a token that was never stored must not be shown as if it were
        return replace(result, token=None, report=report)
    return _with_report(result, report)


@dataclass(frozen=True)
class ClearResult:
    removed_devices: tuple[str, ...]
    rejected_requests: tuple[str, ...]
    report: WriteReport


def clear_store(paths: VoraPaths, *, pending: bool, now: int, dry_run: bool = False) -> ClearResult:
    """Remove every paired device; with `pending`, also reject every pending request."""

    def change(work: Change) -> ClearResult:
        removed = tuple(work.paired)
        for device_id, record in work.paired.items():
            work.record("remove", device_id, None, requested_roles(record), approved_scopes_of(record), via="clear")
        work.paired.clear()
        work.paired_changed = bool(removed)
        rejected: tuple[str, ...] = ()
        if pending:
            rejected = tuple(work.pending)
            for request_id, entry in work.pending.items():
                work.record("reject", _str(entry.get("deviceId")), request_id, requested_roles(entry),
                            normalize_scopes(entry.get("scopes")), via="clear")
            work.pending.clear()
            work.pending_changed = bool(rejected) or bool(work.expired)
        return ClearResult(removed, rejected, WriteReport(dry_run, (), 0, ()))

    result, report = transact(paths, change, now=now, dry_run=dry_run)
    return _with_report(result, report)


def stage_request(paths: VoraPaths, request: JsonObj, *, now: int, dry_run: bool = False) -> RequestResult:
    """Add a pending request as the gateway would (used by `demo-request`); same lock, same checks."""

    def change(work: Change) -> RequestResult:
        request_id = request["requestId"]
        device_id = request["deviceId"]
        request["isRepair"] = device_id in work.paired
        for rid, entry in list(work.pending.items()):  # the gateway keeps one request per device
            if entry.get("deviceId") == device_id:
                del work.pending[rid]
        work.pending[request_id] = request
        work.changed_pending(request_id)
        work.record("stage", device_id, request_id, requested_roles(request), normalize_scopes(request.get("scopes")),
                    via="demo-request")
        return RequestResult("stage", request_id, device_id, device_name(request, device_id), False,
                             WriteReport(dry_run, (), 0, ()))

    result, report = transact(paths, change, now=now, dry_run=dry_run)
    return _with_report(result, report)
