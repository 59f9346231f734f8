"""The pairing store's small rules (spec devices.md, "Rules"): scopes, roles, times, names.

Pure functions over the store's JSON data; nothing here reads or writes a file.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

JsonObj = dict[str, "Any"]

PENDING_TTL_MS = 5 * 60 * 1000  # spec devices.md, "Rules": a request expires 5 minutes after `ts`
MIN_PREFIX = 8  # a device or request id may be given by a unique prefix of at least 8 characters
OPERATOR_SCOPE_PREFIX = "operator."
IMPLIED_SCOPES: Mapping[str, tuple[str, ...]] = {
    "operator.admin": ("operator.read", "operator.write"),
    "operator.write": ("operator.read",),
}
# The identity fields a paired record copies verbatim from the approved request (spec "Rules").
IDENTITY_FIELDS = ("publicKey", "displayName", "platform", "deviceFamily", "clientId", "clientMode")
TAKES_EFFECT = "takes effect at the device's next connect attempt (the gateway re-reads the store on every connect)"
PAIRED_FIELD_ORDER = (
    "deviceId", "publicKey", "displayName", "platform", "deviceFamily", "clientId", "clientMode",
    "role", "roles", "scopes", "approvedScopes", "remoteIp", "label", "tokens", "createdAtMs", "approvedAtMs",
)

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

_HEX = r"^[0-9a-f]+$"  # compiled on first use (`re`'s cache): a listing never asks
# The gateway is JavaScript: a time outside the range of a JS Date (±8.64e15 ms) is no time at all.
MAX_TIME_MS = 8_640_000_000_000_000



def is_hex(text: str) -> bool:
    """Whether `text` is lower-case hex digits (what a device id, or its prefix, is made of)."""
    return re.match(_HEX, text) is not None


def time_ms(value: object) -> int | None:
    """A stored time (ms since epoch) as an int, or None when it is not one: the store may be
    edited by hand, so absent, a string, a bool, NaN, ±Infinity or a number beyond a JS Date's
    range is unknown, never a crash."""
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
        return []
    found = set()
    for scope in scopes:
        if isinstance(scope, str):
            scope = scope.strip()
            if scope:
                found.add(scope)
                implied = IMPLIED_SCOPES.get(scope)
                if implied:
                    found.update(implied)
    return sorted(found)


def minimal_scopes(scopes: Iterable[str]) -> list[str]:
    """The scopes no other one of `scopes` implies (`operator.admin` for admin, read and write): the
    same grant, said in fewer words (a table on a narrow terminal)."""
    given = set(scopes)
    implied = {s for scope in given for s in IMPLIED_SCOPES.get(scope, ())}
    return sorted(given - implied)


def unique_prefixes(ids: Iterable[str], minimum: int = MIN_PREFIX) -> dict[str, str]:
    """Each id's shortest prefix of at least `minimum` characters that no other id starts with
    (an id that is a prefix of another is itself): what a table shows, and what `devices approve`
    takes back (`core/devices/lookup.py: resolve_request_id`)."""
    ordered = sorted(set(ids))
    out: dict[str, str] = {}
    last = len(ordered) - 1
    for i, current in enumerate(ordered):
        head = current[:minimum]
        # only the neighbours in sorted order can share the longest prefix with it; one that
        # differs within the first `minimum` characters cannot make it longer than `head`
        shared = 0
        for other in (ordered[i - 1] if i > 0 else "", ordered[i + 1] if i < last else ""):
            if other[:minimum] != head:
                continue
            n = 0
            while n < min(len(current), len(other)) and current[n] == other[n]:
                n += 1
            shared = max(shared, n)
        out[current] = current[:max(minimum, shared + 1)]
    return out


def requested_roles(entry: Mapping[str, Any]) -> list[str]:
    """`roles`, else `[role]`, trimmed and de-duplicated in order."""
    raw = entry.get("roles")
    role = entry.get("role")
    values: list[object] = raw if isinstance(raw, list) else []
    if isinstance(role, str):
        values = [role, *values]
    out: list[str] = []
    for value in values:
        if isinstance(value, str):
            value = value.strip()
            if value and value not in out:
                out.append(value)
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


def ts_order(entry: Mapping[str, Any]) -> int:
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


def meta_value(value: object) -> str:
    # Compare platform/deviceFamily as the gateway pins them in the v3 signature: trimmed, A-Z lowered.
    return value.strip().translate(_ASCII_LOWER) if isinstance(value, str) else ""


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")



def text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def shown(value: object) -> str:
    return value if isinstance(value, str) and value else "(none)"
