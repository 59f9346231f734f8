"""Every other change to the store: reject, remove, revoke, rename, rotate, clear, stage."""

from __future__ import annotations

from collections.abc import Callable

from vora_cli.core.devices.lookup import Selection, require_paired, select_request
from vora_cli.core.devices.rules import (
    TAKES_EFFECT,
    JsonObj,
    approved_scopes_of,
    device_name,
    normalize_scopes,
    requested_roles,
    short_id,
    shown,
    str_list,
    text_or_none,
    time_ms,
)
from vora_cli.core.devices.store import Snapshot, StoreFiles
from vora_cli.core.devices.tokens import mint_token, new_token_record
from vora_cli.core.devices.transaction import Change, WriteReport, transact, with_report
from vora_cli.core.errors import VoraError
from vora_cli.core.json_data import CamelJson
from vora_cli.core.records import dataclass, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.install import Install


@dataclass(frozen=True)
class RequestResult(CamelJson):
    """A request that was rejected (or staged by demo-request)."""

    action: str
    request_id: str
    device_id: str
    name: str
    was_expired: bool
    report: WriteReport


def reject_request(install: Install, selection: Selection, *, dry_run: bool = False) -> RequestResult:
    """Remove a pending request. An expired one is dropped all the same (and said so)."""
    paths, now = install.paths, install.now_ms

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
        device_id = text_or_none(entry.get("deviceId")) or ""
        work.record("reject", device_id, request_id, requested_roles(entry), normalize_scopes(entry.get("scopes")))
        return RequestResult("reject", request_id, device_id, device_name(entry, device_id), expired,
                             WriteReport(dry_run, (), 0, ()))

    result, report = transact(install, change, dry_run=dry_run)
    return with_report(result, report)


@dataclass(frozen=True)
class DeviceResult(CamelJson):
    """A change to one paired device: remove, revoke, rename (tokens never included)."""

    action: str
    device_id: str
    name: str
    role: str | None
    detail: str
    changed: bool
    report: WriteReport


def _device_change(install: Install, given: str, dry_run: bool,
                   apply: Callable[[Change, str, JsonObj], DeviceResult]) -> DeviceResult:
    def change(work: Change) -> DeviceResult:
        device_id = require_paired(work.paired, given, install.paths.state_dir, {**work.pending, **work.expired})
        return apply(work, device_id, work.paired[device_id])

    result, report = transact(install, change, dry_run=dry_run)
    return with_report(result, report)


def remove_device(install: Install, device: str, *, dry_run: bool = False) -> DeviceResult:
    def apply(work: Change, device_id: str, record: JsonObj) -> DeviceResult:
        del work.paired[device_id]
        work.changed_paired()
        work.record("remove", device_id, None, requested_roles(record), approved_scopes_of(record))
        return DeviceResult("remove", device_id, device_name(record, device_id), None,
                            "unpaired; its tokens no longer work", True, WriteReport(dry_run, (), 0, ()))

    return _device_change(install, device, dry_run, apply)


def _token_of(record: JsonObj, device_id: str, role: str) -> JsonObj:
    tokens = record.get("tokens")
    token = tokens.get(role) if isinstance(tokens, dict) else None
    if not isinstance(token, dict):
        have = ", ".join(sorted(tokens)) if isinstance(tokens, dict) and tokens else "none"
        raise VoraError("not_found", f"device {short_id(device_id)} has no {role!r} token (tokens: {have})",
                        "'vora devices list --paired' shows each device's tokens")
    return token


def revoke_token(install: Install, device: str, role: str, *, dry_run: bool = False) -> DeviceResult:
    now = install.now_ms

    def apply(work: Change, device_id: str, record: JsonObj) -> DeviceResult:
        token = _token_of(record, device_id, role)
        name = device_name(record, device_id)
        if time_ms(token.get("revokedAtMs")) is not None:
            return DeviceResult("revoke", device_id, name, role, "already revoked", False,
                                WriteReport(dry_run, (), 0, ()))
        token["revokedAtMs"] = now
        work.changed_paired(device_id)
        work.record("revoke", device_id, None, [role], str_list(token.get("scopes")))
        return DeviceResult("revoke", device_id, name, role,
                            f"{role} token revoked; the entry stays ('rotate' issues a new one)", True,
                            WriteReport(dry_run, (), 0, ()))

    return _device_change(install, device, dry_run, apply)


def rename_device(install: Install, device: str, label: str, *, dry_run: bool = False) -> DeviceResult:
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
        detail = f"label: {shown(old)} -> {clean}"
        return DeviceResult("rename", device_id, clean, None, detail, True, WriteReport(dry_run, (), 0, ()))

    return _device_change(install, device, dry_run, apply)


@dataclass(frozen=True)
class RotateResult(CamelJson):
    """A role's new token (`vora devices rotate`)."""
    device_id: str
    name: str
    role: str
    scopes: tuple[str, ...]
    token: str | None  # the one place a token leaves vora: printed once, never logged
    takes_effect: str
    report: WriteReport


def rotate_token(install: Install, device: str, role: str, scopes: list[str] | None, *,
                 dry_run: bool = False, mint: Callable[[], str] = mint_token) -> RotateResult:
    """Mint a new token for one role; its scopes (given, else the current token's) lie within approvedScopes."""
    paths, now = install.paths, install.now_ms

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

    result, report = transact(install, change, dry_run=dry_run)
    if dry_run:  # a token that was never stored must not be shown as if it were
        return replace(result, token=None, report=report)
    return with_report(result, report)


@dataclass(frozen=True)
class ClearResult(CamelJson):
    """What `vora devices clear` removed and rejected."""
    removed_devices: tuple[str, ...]
    rejected_requests: tuple[str, ...]
    report: WriteReport


def clear_store(install: Install, *, pending: bool, dry_run: bool = False) -> ClearResult:
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
                work.record("reject", text_or_none(entry.get("deviceId")), request_id, requested_roles(entry),
                            normalize_scopes(entry.get("scopes")), via="clear")
            work.pending.clear()
            work.pending_changed = bool(rejected) or bool(work.expired)
        return ClearResult(removed, rejected, WriteReport(dry_run, (), 0, ()))

    result, report = transact(install, change, dry_run=dry_run)
    return with_report(result, report)


def stage_request(install: Install, request: JsonObj, *, dry_run: bool = False) -> RequestResult:
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

    result, report = transact(install, change, dry_run=dry_run)
    return with_report(result, report)
