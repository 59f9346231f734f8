"""Read-only views of the store for `list` and `approve`: what each entry is, never a token."""

from __future__ import annotations

import os
from collections.abc import Mapping

from vora_cli.core.devices.classify import Classification, classify_request
from vora_cli.core.devices.journal import remember_requests
from vora_cli.core.devices.rules import (
    PENDING_TTL_MS,
    UNKNOWN_TS,
    JsonObj,
    approved_scopes_of,
    device_name,
    format_duration,
    is_expired,
    normalize_scopes,
    raw_text,
    request_ts,
    requested_roles,
    str_list,
    text_or_none,
    time_ms,
)
from vora_cli.core.devices.store import StoreFiles, read_store
from vora_cli.core.devices.validation import future_by_ms, key_problem
from vora_cli.core.json_data import CamelJson
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install


@dataclass(frozen=True)
class PendingView(CamelJson):
    """A pending pairing request, as `devices list` shows it."""
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
    # the stored `ts` (JSON `requestedAtMs`: epoch ms in a `…Ms` field, docs/exit-codes-and-json.md);
    # None: it is not a usable time (the request counts as expired)
    requested_at_ms: int | None
    age_ms: int | None
    expires_in_ms: int | None  # None: dated in the future, no time left can be known
    expired: bool
    classification: Classification
    problems: tuple[str, ...] = ()  # fields vora could not understand (reported, never fatal)
    future_by_ms: int | None = None  # requested_at_ms lies this far ahead (beyond the clock skew): age and time left unknown


@dataclass(frozen=True)
class TokenState(CamelJson):
    """One role's token of a paired device, as `devices list` shows it."""
    role: str
    state: str  # active | revoked | unknown (revokedAtMs is set but is not a time)
    scopes: tuple[str, ...]
    created_at_ms: int | None
    rotated_at_ms: int | None
    revoked_at_ms: int | None
    last_used_at_ms: int | None


@dataclass(frozen=True)
class PairedView(CamelJson):
    """A paired device, as `devices list` shows it."""
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
    """The pairing store as `vora devices list` shows it."""
    state_dir: str
    now_ms: int
    pending: tuple[PendingView, ...]
    paired: tuple[PairedView, ...]


def _time(value: object, key: str, problems: list[str], where: str = "") -> int | None:
    """A stored time (None: absent or no time), noting in `problems` a value that is there but is
    not a time."""
    if value is None:
        return None
    ms = time_ms(value)
    if ms is None:
        problems.append(f"{where}{key} is not a time ({raw_text(value)}): shown as unknown")
    return ms


def pending_view(request_id: str, entry: Mapping[str, Any], paired: Mapping[str, JsonObj], now: int) -> PendingView:
    device_id = text_or_none(entry.get("deviceId")) or ""
    known = paired.get(device_id)
    ts = request_ts(entry)
    problems = []
    if ts is None:
        raw = raw_text(entry["ts"]) if "ts" in entry else "missing"
        problems.append(f"ts is not a time ({raw}): {UNKNOWN_TS}")
    problems += [f"{key} is not a list of strings ({raw_text(entry[key])}): ignored"
                 for key in ("roles", "scopes") if key in entry and not isinstance(entry[key], list)]
    ahead = future_by_ms(entry, now)
    if ahead is not None:
        problems.append(f"ts is {format_duration(ahead)} in the future ({raw_text(entry.get('ts'))}): this host's "
                        "clock or the gateway's is off; its age is unknown and approve refuses it")
    bad_key = key_problem(entry)
    if bad_key is not None:
        problems.append(f"{bad_key}: approve refuses it")
    display_name = entry.get("displayName")
    # named by the operator's label of the paired device, else as the request names itself
    named = {"label": None if known is None else known.get("label"), "displayName": display_name}
    return PendingView(  # positional, in the fields' order (a call with 21 keywords costs twice as much)
        request_id,
        device_id,
        device_name(named, device_id),
        text_or_none(display_name),
        text_or_none(entry.get("platform")),
        text_or_none(entry.get("deviceFamily")),
        text_or_none(entry.get("clientId")),
        text_or_none(entry.get("clientMode")),
        tuple(requested_roles(entry)),
        tuple(normalize_scopes(entry.get("scopes"))),
        text_or_none(entry.get("remoteIp")),
        entry.get("isRepair") is True,
        entry.get("silent") is True,
        ts,
        None if ts is None or ahead is not None else now - ts,
        None if ahead is not None else 0 if ts is None else max(0, ts + PENDING_TTL_MS - now),
        is_expired(entry, now),
        classify_request(entry, known),
        tuple(problems),
        ahead,
    )


def paired_view(device_id: str, record: Mapping[str, Any]) -> PairedView:
    get = record.get
    raw_tokens = get("tokens")
    problems: list[str] = []
    if isinstance(raw_tokens, dict):
        tokens = raw_tokens
    else:
        tokens = {}
        if raw_tokens is not None:
            problems.append(f"tokens is not an object ({raw_text(raw_tokens)}): no token state shown")
    created_at = _time(get("createdAtMs"), "createdAtMs", problems)
    approved_at = _time(get("approvedAtMs"), "approvedAtMs", problems)
    states = []
    for role in sorted(tokens):
        token = tokens[role]
        if not isinstance(token, dict):
            problems.append(f"tokens.{role} is not a token record ({raw_text(token)}): ignored")
            continue
        value = token.get("revokedAtMs")
        if value is None:
            revoked, state = None, "active"
        else:
            revoked = time_ms(value)
            state = "revoked"
            if revoked is None:
                state = "unknown"
                problems.append(f"tokens.{role}.revokedAtMs is not a time ({raw_text(value)}): whether the token "
                                "is revoked is unknown; 'vora devices revoke' or 'rotate' settles it")
        where = f"tokens.{role}."
        token_created = _time(token.get("createdAtMs"), "createdAtMs", problems, where)
        rotated = _time(token.get("rotatedAtMs"), "rotatedAtMs", problems, where)
        last_used = _time(token.get("lastUsedAtMs"), "lastUsedAtMs", problems, where)
        scopes = token.get("scopes")
        if not isinstance(scopes, list) and (scopes is not None or "scopes" in token):
            problems.append(f"tokens.{role}.scopes is not a list ({raw_text(scopes)}): shown as none")
        states.append(TokenState(role, state, tuple(str_list(scopes)), token_created, rotated, revoked, last_used))
    label, display_name, platform = get("label"), get("displayName"), get("platform")
    family, client_id, client_mode, remote_ip = get("deviceFamily"), get("clientId"), get("clientMode"), get("remoteIp")
    return PairedView(  # positional, in the fields' order: a call with 15 keywords costs twice as much
        device_id,
        device_name(record, device_id),
        label if isinstance(label, str) else None,
        display_name if isinstance(display_name, str) else None,
        platform if isinstance(platform, str) else None,
        family if isinstance(family, str) else None,
        client_id if isinstance(client_id, str) else None,
        client_mode if isinstance(client_mode, str) else None,
        tuple(requested_roles(record)),
        tuple(approved_scopes_of(record)),
        remote_ip if isinstance(remote_ip, str) else None,
        created_at,
        approved_at,
        tuple(states),
        tuple(problems),
    )


def list_devices(install: Install, *, pending: bool = True, paired: bool = True) -> Listing:
    """Pending requests (newest first, expired ones included and marked) and paired devices."""
    paths, now = install.paths, install.now_ms
    files = StoreFiles.of(paths)
    # vora's own bookkeeping (a change a killed vora left, the request ids seen), skipped in a
    # newer gateway line's state dir (core/newer_line.py)
    if os.path.lexists(files.journal) and install.may_write_state:  # finished first (`inflight` only then)
        from vora_cli.core.devices.inflight import repair_before_reading

        repair_before_reading(install, files)
    snap = read_store(files, layout=False)
    if install.may_write_state:
        remember_requests(paths, snap.pending, now, install.lock_timeout)
    pending_views = sorted(
        (pending_view(rid, entry, snap.paired, now) for rid, entry in snap.pending.items()),
        key=lambda v: (v.requested_at_ms is None, -(v.requested_at_ms or 0)),
    ) if pending else []
    paired_views = [paired_view(did, rec) for did, rec in snap.paired.items()] if paired else []
    return Listing(str(paths.state_dir), now, tuple(pending_views), tuple(paired_views))
