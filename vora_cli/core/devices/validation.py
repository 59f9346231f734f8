"""Is a pending request well formed enough to mint tokens for? What the gateway would have checked when
the device asked (docs/devices.md, "What approve checks first").
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from vora_cli.core.devices.identity import b64url_decode, device_id_of
from vora_cli.core.devices.rules import format_duration, raw_text, request_ts, short_id
from vora_cli.core.errors import VoraError
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CLOCK_SKEW_MS = 2 * 60 * 1000  # spec devices.md, "The signature": the gateway accepts 2 minutes of skew
_B64URL_32 = re.compile(r"[A-Za-z0-9_-]{43}")  # 32 bytes, base64url, no padding


def future_by_ms(entry: Mapping[str, Any], now: int) -> int | None:
    """How far a request's `ts` lies ahead of `now`, when beyond the clock skew; else None."""
    ts = request_ts(entry)
    return ts - now if ts is not None and ts - now > CLOCK_SKEW_MS else None


def key_problem(entry: Mapping[str, Any]) -> str | None:
    """What is wrong with a request's `publicKey`/`deviceId` pair, or None when it is well formed."""
    if "publicKey" not in entry:
        return "no publicKey"
    key = entry["publicKey"]
    if not isinstance(key, str) or not _B64URL_32.fullmatch(key):
        return f"publicKey is not base64url (no padding) of 32 bytes ({raw_text(key)})"
    try:
        raw = b64url_decode(key)
    except ValueError:  # binascii.Error is a ValueError
        return f"publicKey does not decode as base64url ({raw_text(key)})"
    device_id = entry.get("deviceId")
    if not isinstance(device_id, str) or not device_id:
        return "no deviceId"
    if device_id != device_id_of(raw):
        return f"deviceId {short_id(device_id)}… is not the SHA-256 of its publicKey"
    return None


def approval_problem(entry: Mapping[str, Any], now: int) -> str | None:
    """Why a live request cannot be approved as it is, or None."""
    problem = key_problem(entry)
    if problem is not None:
        return problem
    ahead = future_by_ms(entry, now)
    if ahead is not None:
        return (f"ts is {format_duration(ahead)} in the future (ts: {raw_text(entry.get('ts'))}), "
                "so its age cannot be known")
    return None


def require_approvable(request_id: str, entry: Mapping[str, Any], now: int) -> None:
    """Refuse (`invalid`, nothing written) a request no token may be minted for."""
    problem = approval_problem(entry, now)
    if problem is None:
        return
    if future_by_ms(entry, now) is not None and key_problem(entry) is None:
        hint = "check this host's clock and the gateway's, then have the device ask again"
    else:
        hint = f"it did not come from a well-formed device identity: {command_line('vora', 'devices', 'reject', request_id)}"
    raise VoraError("invalid", f"request {request_id} cannot be approved: {problem}", hint)
