"""What the gateway rewrites in a store entry on its own, and an entry's mark: the rest of it, so a
stamped entry still shows vora's change (docs/devices.md, "What the gateway stamps").
"""

from __future__ import annotations

import json

from vora_cli.core.digests import sha256_hex
from vora_cli.core.strict_json import is_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Fields of a paired device the gateway sets on every connect (a field the device does not send
# is removed), and of each of its tokens on every use.
PAIRED_STAMPED = frozenset({"displayName", "clientId", "clientMode", "remoteIp"})
TOKEN_STAMPED = frozenset({"lastUsedAtMs"})
# Fields of a pending request the gateway rewrites when its device asks again unchanged.
PENDING_STAMPED = frozenset({"displayName", "platform", "deviceFamily", "clientId", "clientMode", "remoteIp",
                             "silent", "isRepair"})


def entry_mark(file_name: str, entry: Any) -> str:
    """The SHA-256 of a store entry of `file_name` without the fields the gateway stamps on its
    own, its numbers as JavaScript holds them: the same for the entry a change set, as vora's
    write holds it, and as any later rewrite of the gateway's holds it."""
    kept = _unstamped(file_name, entry)
    text = json.dumps(_as_javascript_holds(kept), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return sha256_hex(text.encode("utf-8", "backslashreplace"))


def _unstamped(file_name: str, entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    if file_name != "paired.json":
        return {k: v for k, v in entry.items() if k not in PENDING_STAMPED}
    kept = {k: v for k, v in entry.items() if k not in PAIRED_STAMPED}
    tokens = kept.get("tokens")
    if isinstance(tokens, dict):
        kept["tokens"] = {role: {k: v for k, v in token.items() if k not in TOKEN_STAMPED}
                          if isinstance(token, dict) else token for role, token in tokens.items()}
    return kept


def _as_javascript_holds(value: Any) -> Any:
    """`value` as JSON.parse then JSON.stringify leave it: each number the double it reads as
    (an integral one written without a fraction), a non-finite one as null."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        if not is_finite(value):
            return None
        number = float(value)
        return int(number) if number.is_integer() else number
    if isinstance(value, dict):
        return {k: _as_javascript_holds(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_as_javascript_holds(v) for v in value]
    return value
