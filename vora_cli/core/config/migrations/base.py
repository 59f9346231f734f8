"""The JavaScript the gateway's migrations are written in, said once in Python. A migration works on
vora's own copy of the tree (`migrate_legacy` copies once), so it may change objects in place.
"""

from __future__ import annotations

import json
import math

from vora_cli.core.strict_json import js_number
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeGuard

Path = tuple[str | int, ...]
# The gateway's changes as they happen: the legacy key (where it is in the file) and its own words.
Changes = list[tuple[Path, str]]
MISSING: Any = object()  # JavaScript's `undefined`: the key is not there
BLOCKED_KEYS = frozenset(("__proto__", "prototype", "constructor"))


def record(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def each_account(entry: dict[str, Any], prefix: Path,
                 migrate: Callable[[dict[str, Any], Path], tuple[dict[str, Any], bool]]) -> tuple[dict[str, Any], bool]:
    """`entry` (a channel) with `migrate(account, its path)` applied to each account object under its
    `accounts`, and whether one changed; `entry` itself when none did (the contracts' loop over
    accounts, in the gateway's order)."""
    accounts = record(entry.get("accounts"))
    if accounts is None:
        return entry, False
    new_accounts = dict(accounts)
    touched = False
    for account_id, account in accounts.items():
        if not isinstance(account, dict):
            continue
        moved, changed = migrate(account, (*prefix, "accounts", account_id))
        if changed:
            new_accounts[account_id] = moved
            touched = True
    return ({**entry, "accounts": new_accounts}, True) if touched else (entry, False)


def get(owner: Any, key: str) -> Any:
    """`owner?.[key]` as `undefined`-or-value."""
    return owner.get(key, MISSING) if isinstance(owner, dict) else MISSING


def ensure(owner: dict[str, Any], key: str) -> dict[str, Any]:
    """The record at `owner[key]`, made (replacing a non-record) when there is none."""
    found = owner.get(key)
    if isinstance(found, dict):
        return found
    made: dict[str, Any] = {}
    owner[key] = made
    return made


def merge_missing(target: dict[str, Any], source: dict[str, Any], *, blocked: bool = True) -> None:
    """Fill the keys `target` lacks from `source`, records merged the same way, deeper."""
    for key, value in source.items():
        if blocked and key in BLOCKED_KEYS:
            continue
        if key not in target:
            target[key] = value
        elif isinstance(target[key], dict) and isinstance(value, dict):
            merge_missing(target[key], value, blocked=blocked)


def clone_record(value: dict[str, Any]) -> dict[str, Any]:
    """`structuredClone` of a record."""
    return {k: clone(v) for k, v in value.items()}


def clone(value: Any) -> Any:
    """`structuredClone` of JSON data."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


def is_string(value: Any) -> bool:
    return isinstance(value, str)


def is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def optional_string(value: Any) -> str | None:
    """`normalizeOptionalString`: a string trimmed, None when not a string or blank."""
    if not isinstance(value, str):
        return None
    trimmed = js_trim(value)
    return trimmed or None


def optional_lower(value: Any) -> str | None:
    found = optional_string(value)
    return found.lower() if found is not None else None


def js_string(value: Any) -> str:
    """`String(value)` of JSON data."""
    if value is MISSING:
        return "undefined"
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in value)
    return "[object Object]"


def js_json(value: Any) -> str:
    """`JSON.stringify(value)` of JSON data (the few messages that quote one)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def deep_equal(a: Any, b: Any) -> bool:
    """`util.isDeepStrictEqual` of JSON data: key order does not count, `true` is not `1`."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(deep_equal(v, b[k]) for k, v in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(deep_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if is_number(a) and is_number(b):
        return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    return type(a) is type(b) and a == b


def dotted(path: Path) -> str:
    """A path as the gateway writes one in a message (`channels.telegram.accounts.a`)."""
    return ".".join(str(p) for p in path)

