"""Approving a pairing request (spec devices.md, "Rules")."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from vora_cli.core.devices.classify import Classification, classify_request, grants_text
from vora_cli.core.devices.lookup import Selection, previewed, select_request
from vora_cli.core.devices.rules import (
    IDENTITY_FIELDS,
    PAIRED_FIELD_ORDER,
    TAKES_EFFECT,
    JsonObj,
    approved_scopes_of,
    device_name,
    normalize_scopes,
    requested_roles,
    short_id,
    text_or_none,
)
from vora_cli.core.devices.store import Snapshot, StoreFiles
from vora_cli.core.devices.tokens import mint_token, new_token_record, token_scopes_for_role
from vora_cli.core.devices.transaction import Change, WriteReport, transact, with_report
from vora_cli.core.devices.validation import require_approvable
from vora_cli.core.errors import VoraError
from vora_cli.core.json_data import CamelJson
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.devices.views import PendingView
    from vora_cli.core.install import Install


@dataclass(frozen=True)
class MintedToken(CamelJson):
    """A role's token made by an approval (new, or rotated)."""
    role: str
    scopes: tuple[str, ...]
    rotated: bool  # the role had a token: its createdAtMs is kept, rotatedAtMs set


@dataclass(frozen=True)
class ApproveResult(CamelJson):
    """What `vora devices approve` did to a pending request."""
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


def approve_request(install: Install, selection: Selection, *, dry_run: bool = False,
                    allow_key_change: bool = False, allow_widening: bool = False, mint: Callable[[], str] = mint_token,
                    look: Callable[[PendingView], bool] | None = None) -> ApproveResult:
    """Approve one live request: merge roles and scopes, mint one fresh token per requested role.

    An approval that widens what the device holds (`Classification.widens`) is made only when
    `look` returned True for it or `allow_widening` (`--yes`); else it is a usage error naming
    what it would grant, nothing written (docs/devices.md). A dry run shows it without asking.

    `look` sees the selected request read without the lock (`previewed`: a refused request is
    refused before it is shown); it may raise, or return True to approve exactly that request,
    a changed public key included. That parse is reused under the lock when the bytes match.
    """
    paths, now = install.paths, install.now_ms
    seen: Snapshot | None = None
    if look is not None:
        view, seen = previewed(install, selection)
        if look(view):
            selection, allow_key_change, allow_widening = Selection(request_id=view.request_id), True, True

    def change(work: Change) -> ApproveResult:
        snap = Snapshot(StoreFiles.of(paths), None, None, {**work.pending, **work.expired}, work.paired)
        request_id, request = select_request(paths, snap, selection, now)
        device_id = text_or_none(request.get("deviceId"))
        if not device_id:
            raise VoraError("invalid", f"request {request_id} in pending.json has no deviceId", None)
        require_approvable(request_id, request, now)
        existing = work.paired.get(device_id)
        classification = classify_request(request, existing)
        if classification.public_key_changed and not allow_key_change:
            raise VoraError(
                "confirmation_required",
                f"request {request_id} carries a DIFFERENT public key for the paired device {short_id(device_id)}",
                "approving replaces the device's key; if you expected this, approve again with --yes",
            )
        if classification.widens and not (allow_widening or dry_run):
            raise VoraError(
                "usage",
                f"approving request {request_id} of {device_name(existing or request, device_id)} ({short_id(device_id)}) "
                f"grants {grants_text(classification)} it does not hold; nothing was written",
                "run it on a terminal to see it and be asked, or pass --yes to grant them",
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

    result, report = transact(install, change, dry_run=dry_run, reuse=seen)
    return with_report(result, report)


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
