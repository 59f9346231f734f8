"""Device tokens: minting one, its scopes per role, and its record (spec devices.md, "Rules")."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping

from vora_cli.core.devices.identity import b64url
from vora_cli.core.devices.rules import OPERATOR_SCOPE_PREFIX, JsonObj, str_list

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def mint_token() -> str:
    """A fresh device token: 32 bytes from the OS's cryptographic source, base64url, no padding (43 chars).

    `os.urandom` is that source (`secrets.token_bytes` calls it): `secrets` would load OpenSSL's
    `hashlib` (through `hmac`) and `random` on every approve."""
    return b64url(os.urandom(32))


def token_scopes_for_role(role: str, scopes: Iterable[str], previous: Mapping[str, Any] | None) -> list[str]:
    """`operator` gets only the operator.* scopes, any other role only the others; none: the previous token's."""
    is_operator = role == "operator"
    picked = [s for s in scopes if s.startswith(OPERATOR_SCOPE_PREFIX) == is_operator]
    if not picked and previous is not None:
        picked = str_list(previous.get("scopes"))
    return picked


def new_token_record(role: str, scopes: list[str], old: Mapping[str, Any] | None, now: int,
                     mint: Callable[[], str] = mint_token) -> JsonObj:
    token: JsonObj = {"token": mint(), "role": role, "scopes": scopes}
    token["createdAtMs"] = old.get("createdAtMs", now) if old is not None else now
    if old is not None:
        token["rotatedAtMs"] = now
        if "lastUsedAtMs" in old:
            token["lastUsedAtMs"] = old["lastUsedAtMs"]
        for key, value in old.items():  # unknown fields survive; revokedAtMs is cleared
            if key not in token and key not in ("revokedAtMs", "rotatedAtMs"):
                token[key] = value
    return token
