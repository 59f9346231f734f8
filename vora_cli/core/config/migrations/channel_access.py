"""The doctor contracts of the gateway's channel plugins about who and what may reach them
(openclaw 2026.4.12): `allowPrivateNetwork` (matrix, mattermost, tlon, bluebubbles,
nextcloud-talk), matrix's `dm.policy: "trusted"` and room `allow` toggles, zalouser's group
toggles, whatsapp's `ackReaction`; and which contract each pass runs for a channel the config names."""

from __future__ import annotations

from vora_cli.core.config.migrations.base import (
    MISSING,
    Changes,
    Path,
    dotted,
    each_account,
    is_bool,
    js_string,
    record,
)
from vora_cli.core.config.migrations.channel_contracts import (
    channel_entry,
    discord_contract,
    slack_contract,
    telegram_contract,
    with_channel,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _private_network_alias(entry: dict[str, Any], prefix: Path, changes: Changes) -> dict[str, Any]:
    """`migrateLegacyFlatAllowPrivateNetworkAlias`: `allowPrivateNetwork` →
    `network.dangerouslyAllowPrivateNetwork` (a boolean already there wins)."""
    if "allowPrivateNetwork" not in entry:
        return entry
    legacy = entry["allowPrivateNetwork"]
    network = dict(entry["network"]) if isinstance(entry.get("network"), dict) else {}
    current = network.get("dangerouslyAllowPrivateNetwork", MISSING)
    resolved = current
    if is_bool(current):
        resolved = current
    elif is_bool(legacy) or current is MISSING:
        resolved = legacy
    network.pop("dangerouslyAllowPrivateNetwork", None)
    if resolved is not MISSING:
        network["dangerouslyAllowPrivateNetwork"] = resolved
    updated = {k: v for k, v in entry.items() if k != "allowPrivateNetwork"}
    if network:
        updated["network"] = network
    else:
        updated.pop("network", None)
    text = dotted(prefix)
    changes.append(((*prefix, "allowPrivateNetwork"), f"Moved {text}.allowPrivateNetwork → "
                    f"{text}.network.dangerouslyAllowPrivateNetwork ({js_string(resolved)})."))
    return updated


def private_network_contract(channel: str) -> Any:
    """The SDK's `createLegacyPrivateNetworkDoctorContract` for one channel."""
    def apply(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
        entry = channel_entry(cfg, channel)
        if entry is None:
            return cfg
        prefix: Path = ("channels", channel)
        updated = _private_network_alias(entry, prefix, changes)

        def account(value: dict[str, Any], at: Path) -> tuple[dict[str, Any], bool]:
            moved = _private_network_alias(value, at, changes)
            return moved, moved is not value

        updated, _ = each_account(updated, prefix, account)
        return with_channel(cfg, channel, updated) if updated is not entry else cfg

    return apply


def _room_allow(rooms: dict[str, Any], prefix: Path, changes: Changes) -> dict[str, Any] | None:
    """`.allow` (a boolean) → `.enabled` on each room or group; None when nothing moved."""
    moved = dict(rooms)
    changed = False
    text = dotted(prefix)
    for room_id, room in rooms.items():
        if not isinstance(room, dict) or not is_bool(room.get("allow")):
            continue
        new = dict(room)
        if not is_bool(new.get("enabled")):
            new["enabled"] = room["allow"]
        del new["allow"]
        moved[room_id] = new
        changed = True
        changes.append(((*prefix, room_id, "allow"), f"Moved {text}.{room_id}.allow → {text}.{room_id}.enabled "
                        f"({js_string(new['enabled'])})."))
    return moved if changed else None


def _trusted_dm(entry: dict[str, Any], prefix: Path, changes: Changes) -> dict[str, Any]:
    dm = record(entry.get("dm"))
    if dm is None or dm.get("policy") != "trusted":
        return entry
    allow = dm.get("allowFrom")
    count = sum(1 for v in allow if isinstance(v, str) and v.strip()) if isinstance(allow, list) else 0
    policy = "allowlist" if count > 0 else "pairing"
    text = dotted(prefix)
    kept = f"preserved {count} {text}.dm.allowFrom {'entry' if count == 1 else 'entries'}" if count > 0 else \
        "no allowFrom entries present, defaulting to pairing for safety"
    changes.append(((*prefix, "dm", "policy"), f'Migrated {text}.dm.policy "trusted" → "{policy}" '
                    f"(legacy alias removed; {kept})."))
    return {**entry, "dm": {**dm, "policy": policy}}


def matrix_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = channel_entry(cfg, "matrix")
    if entry is None:
        return cfg
    prefix: Path = ("channels", "matrix")
    updated = _private_network_alias(entry, prefix, changes)
    updated = _trusted_dm(updated, prefix, changes)
    changed = updated is not entry
    for key in ("groups", "rooms"):
        rooms = record(updated.get(key))
        moved = _room_allow(rooms, (*prefix, key), changes) if rooms is not None else None
        if moved is not None:
            updated = {**updated, key: moved}
            changed = True

    def account(value: dict[str, Any], at: Path) -> tuple[dict[str, Any], bool]:
        new = _trusted_dm(_private_network_alias(value, at, changes), at, changes)
        for key in ("groups", "rooms"):
            rooms = record(new.get(key))
            moved = _room_allow(rooms, (*at, key), changes) if rooms is not None else None
            if moved is not None:
                new = {**new, key: moved}
        return new, new is not value

    updated, touched = each_account(updated, prefix, account)
    changed = changed or touched
    return with_channel(cfg, "matrix", updated) if changed else cfg


def zalouser_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = channel_entry(cfg, "zalouser")
    if entry is None:
        return cfg
    prefix: Path = ("channels", "zalouser")
    updated = entry
    groups = record(updated.get("groups"))
    moved = _room_allow(groups, (*prefix, "groups"), changes) if groups is not None else None
    if moved is not None:
        updated = {**updated, "groups": moved}

    def account(value: dict[str, Any], at: Path) -> tuple[dict[str, Any], bool]:
        groups = record(value.get("groups"))
        moved = _room_allow(groups, (*at, "groups"), changes) if groups is not None else None
        return ({**value, "groups": moved}, True) if moved is not None else (value, False)

    updated, _ = each_account(updated, prefix, account)
    return with_channel(cfg, "zalouser", updated) if updated is not entry else cfg


_ACK_SCOPES = {"all": (True, "always"), "direct": (True, "never"), "group-all": (False, "always"),
               "group-mentions": (False, "mentions")}


def whatsapp_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    """`messages.ackReaction` copied into `channels.whatsapp.ackReaction` (a gateway normalisation)."""
    messages = record(cfg.get("messages"))
    ack = messages.get("ackReaction") if messages is not None else None
    legacy = ack.strip() if isinstance(ack, str) else None
    channels = record(cfg.get("channels"))
    if not legacy or channels is None or "whatsapp" not in channels:
        return cfg
    whatsapp = channels["whatsapp"]
    if isinstance(whatsapp, dict) and "ackReaction" in whatsapp:
        return cfg
    scope = messages.get("ackReactionScope") if messages is not None else None
    scope = "group-mentions" if scope is None else scope
    direct, group = _ACK_SCOPES.get(scope, (True, "mentions")) if isinstance(scope, str) else (True, "mentions")
    base = whatsapp if isinstance(whatsapp, dict) else {}
    changes.append((("messages", "ackReaction"), f"Copied messages.ackReaction → channels.whatsapp.ackReaction "
                    f"(scope: {js_string(scope)})."))
    return with_channel(cfg, "whatsapp", {**base, "ackReaction": {"emoji": legacy, "direct": direct, "group": group}})


# The contracts the gateway's first pass runs (its plugins' `doctor-contract-api`), and its
# channels' doctor adapters the second pass runs; each only for a channel the config names.
PLUGIN_CONTRACTS = {"discord": discord_contract, "matrix": matrix_contract,
                    "mattermost": private_network_contract("mattermost"), "slack": slack_contract,
                    "telegram": telegram_contract, "zalouser": zalouser_contract}
CHANNEL_DOCTORS = {"bluebubbles": private_network_contract("bluebubbles"), "discord": discord_contract,
                   "matrix": matrix_contract, "mattermost": PLUGIN_CONTRACTS["mattermost"],
                   "nextcloud-talk": private_network_contract("nextcloud-talk"), "slack": slack_contract,
                   "telegram": telegram_contract, "tlon": private_network_contract("tlon"),
                   "whatsapp": whatsapp_contract, "zalouser": zalouser_contract}
