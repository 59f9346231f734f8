"""What kind of request is it? (spec devices.md, "What kind of request is it?")"""

from __future__ import annotations

from collections.abc import Mapping

from vora_cli.core.devices.rules import (
    KIND_METADATA,
    KIND_NEW,
    KIND_REPAIR,
    KIND_ROLE_UPGRADE,
    KIND_SCOPE_UPGRADE,
    approved_scopes_of,
    meta_value,
    normalize_scopes,
    requested_roles,
    shown,
)
from vora_cli.core.json_data import CamelJson
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class Classification(CamelJson):
    """What a pairing request asks for, next to what the device already has."""
    kind: str  # the headline: new-device, role-upgrade, scope-upgrade, metadata-change or repair
    kinds: tuple[str, ...]  # every kind that applies (an upgrade can also change metadata)
    changes: tuple[str, ...]  # "role: +node", "+operator.write", "platform: macos 15.1 -> macos 15.2"
    public_key_changed: bool  # a different key claims a known device id: flag it loudly
    # What approving grants that the device does not hold (a new device holds nothing): the roles,
    # and the scopes with the ones they imply (`normalize_scopes`). Either one: the approval widens.
    new_roles: tuple[str, ...] = ()
    new_scopes: tuple[str, ...] = ()

    @property
    def widens(self) -> bool:
        """Whether approving grants a role or a scope the device does not hold (then it is shown
        and asked, or `--yes`)."""
        return bool(self.new_roles or self.new_scopes)


def grants_text(classification: Classification) -> str:
    """What an approval grants beyond what the device holds, counted and named: `1 role (node) and
    3 scopes (operator.admin, operator.read, operator.write)`; empty when it grants nothing new."""
    parts = []
    for noun, items in (("role", classification.new_roles), ("scope", classification.new_scopes)):
        if items:
            parts.append(f"{len(items)} {noun}{'' if len(items) == 1 else 's'} ({', '.join(items)})")
    return " and ".join(parts)


def classify_request(request: Mapping[str, Any], paired: Mapping[str, Any] | None) -> Classification:
    """What kind of request this is, against the paired record of the same device (spec "What kind")."""
    if paired is None:
        return Classification(KIND_NEW, (KIND_NEW,), (), False, tuple(requested_roles(request)),
                              tuple(normalize_scopes(request.get("scopes"))))
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
        if meta_value(request.get(key)) != meta_value(paired.get(key)):
            if KIND_METADATA not in kinds:
                kinds.append(KIND_METADATA)
            changes.append(f"{key}: {shown(paired.get(key))} -> {shown(request.get(key))}")
    if request.get("displayName") != paired.get("displayName") and "displayName" in request:
        changes.append(f"displayName: {shown(paired.get('displayName'))} -> {shown(request.get('displayName'))}")
    key_changed = request.get("publicKey") != paired.get("publicKey")
    if key_changed:
        changes.append("publicKey: DIFFERENT KEY for this device id")
    if not kinds:
        kinds.append(KIND_REPAIR)
    return Classification(kinds[0], tuple(kinds), tuple(changes), key_changed, tuple(new_roles), tuple(new_scopes))
