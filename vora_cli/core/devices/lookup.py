"""Finding things in the store: device ids by prefix, the request a selection names, and why
a request id no longer works (expired, superseded, handled, never seen)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from vora_cli.core.devices.journal import SEEN_FILE, read_seen, remember_requests
from vora_cli.core.devices.rules import (
    MIN_PREFIX,
    PENDING_TTL_MS,
    UNKNOWN_TS,
    JsonObj,
    device_name,
    format_duration,
    is_expired,
    is_hex,
    raw_text,
    request_ts,
    short_id,
    text_or_none,
    time_ms,
    ts_order,
)
from vora_cli.core.devices.store import Snapshot, StoreFiles, read_store
from vora_cli.core.devices.validation import require_approvable
from vora_cli.core.devices.views import PendingView, pending_view
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.records import dataclass
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.install import Install


def resolve_device_id(given: str, candidates: Iterable[str], *, where: str) -> str | None:
    """The one device id that `given` names (full id or unique prefix of 8+ hex digits), or None."""
    wanted = given.strip().lower()
    if len(wanted) < MIN_PREFIX or not is_hex(wanted):
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
        waiting = resolve_device_id(given, {text_or_none(e.get("deviceId")) or "" for e in pending.values()},
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
        if best is None or ts_order(entry) > ts_order(best[1]):
            best = (rid, entry)
    return best


def explain_missing_request(paths: VoraPaths, request_id: str, snap: Snapshot, now: int) -> VoraError:
    """Why `request_id` cannot be acted on: expired, superseded, already handled, or never seen here."""
    entry = snap.pending.get(request_id) or read_seen(paths.logs_dir / SEEN_FILE).get(request_id)
    if entry is None:
        hint = "'vora devices list --pending' shows the live requests"
        looks_like_device = len(request_id) >= MIN_PREFIX and is_hex(request_id.lower())
        if looks_like_device:
            ids = {text_or_none(e.get("deviceId")) or "" for e in snap.pending.values()} | set(snap.paired)
            if any(i.startswith(request_id.lower()) for i in ids):
                hint = f"that looks like a device id: use --device {request_id}"
        return VoraError(
            "not_found",
            f"request {request_id} was never seen in the state dir {paths.state_dir} "
            "(not in devices/pending.json, and vora has no record of it)",
            hint + "; if the device pairs with another gateway, pass --state-dir or --profile",
        )
    device_id = text_or_none(entry.get("deviceId")) or ""
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
            f"({short_id(device_id)}, {format_duration(now - ts_order(newer[1]))} old)",
            f"approve the newer one: {command_line('vora', 'devices', 'approve', newer[0])}  (or: vora devices approve --device {short_id(device_id)})",
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
    if record is not None and (time_ms(record.get("approvedAtMs")) or 0) >= ts:
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


@dataclass(frozen=True)
class Selection:
    """Which request an approve/reject names: by id, by device, or the newest of all."""

    request_id: str | None = None
    device: str | None = None
    latest: bool = False


def resolve_request_id(paths: VoraPaths, given: str, snap: Snapshot) -> str:
    """The request id `given` names: the id itself, or a unique prefix of at least MIN_PREFIX
    characters (what `vora devices list` shows on a narrow terminal) of a request in pending.json,
    else of one vora remembers (so an expired or handled one is explained, not "never seen")."""
    if given in snap.pending or len(given) < MIN_PREFIX:
        return given
    for pool, where in ((snap.pending, "devices/pending.json"), (read_seen(paths.logs_dir / SEEN_FILE), None)):
        matches = sorted(rid for rid in pool if rid.startswith(given))
        if len(matches) > 1:
            shown = ", ".join(matches[:10])
            raise VoraError("refused", f"{given!r} is the start of {len(matches)} request ids"
                            f"{f' in {where}' if where else ''}: {shown}",
                            "give more characters of the request id ('vora devices list --pending' shows them)")
        if matches:
            return matches[0]
    return given


def select_request(paths: VoraPaths, snap: Snapshot, selection: Selection, now: int) -> tuple[str, JsonObj]:
    """The live request a selection names, or an error that explains why there is none."""
    if selection.request_id is not None:
        request_id = resolve_request_id(paths, selection.request_id, snap)
        entry = snap.pending.get(request_id)
        if entry is None or is_expired(entry, now):
            raise explain_missing_request(paths, request_id, snap, now)
        return request_id, entry
    if selection.device is not None:
        ids = {text_or_none(e.get("deviceId")) or "" for e in snap.pending.values()}
        device_id = resolve_device_id(selection.device, ids, where="pending.json")
        found = newest_live_request(snap.pending, device_id, now) if device_id else None
        if found is not None:
            return found
        if device_id is not None:
            last = max((e for e in snap.pending.values() if e.get("deviceId") == device_id), key=ts_order)
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


def previewed(install: Install, selection: Selection) -> tuple[PendingView, Snapshot]:
    """The request a selection names, classified, without changing anything (for --latest's
    question), and the store as it was read (an approval that follows parses it again only when its
    bytes changed meanwhile: `read_store(reuse=...)`)."""
    paths, now = install.paths, install.now_ms
    snap = read_store(StoreFiles.of(paths))
    if install.may_write_state:  # vora's own note of the ids seen (core/newer_line.py)
        remember_requests(paths, snap.pending, now, install.lock_timeout)
    request_id, entry = select_request(paths, snap, selection, now)
    require_approvable(request_id, entry, now)  # never ask "approve?" about a request approve refuses
    return pending_view(request_id, entry, snap.paired, now), snap
