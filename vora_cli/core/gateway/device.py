"""This host's device identity and device token, as the gateway client uses them (docs/gateway.md): the one
module of the gateway package that imports `core.devices.identity`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from vora_cli.core import nesting, reading, writer
from vora_cli.core.devices import identity as _identity
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STORE_VERSION = 1
ROLE = "operator"

build_v3_payload = _identity.build_v3_payload


@dataclass(frozen=True)
class DeviceIdentity:
    """This machine's device identity for the gateway handshake."""
    device_id: str
    public_key: str  # base64url of the raw 32-byte key
    private_key_pem: str = field(repr=False)
    created: bool  # made by this run

    def sign(self, payload: str) -> str:
        return _identity.sign_payload(self.private_key_pem, payload)


def load_or_create_identity(path: Path, now_ms: int, lock_timeout: float,
                            refuse_create: Callable[[str], None] | None = None) -> DeviceIdentity:
    """This host's identity; created (mode 0600) when missing, unless `refuse_create` raises (a
    newer gateway line's state dir: core/newer_line.py). Never replaces one."""
    if refuse_create is not None and not os.path.lexists(path):
        refuse_create("creating this host's device identity")
    view = _identity.show_identity(path, create=True, now=now_ms, lock_timeout=lock_timeout)
    if not view.device_id_matches_key or view.device_id is None or view.public_key is None:
        raise VoraError("invalid", f"{path}: deviceId does not match the public key",
                        "run vora doctor --only device-identity; move the file aside to start a new identity")
    return DeviceIdentity(view.device_id, view.public_key, _identity.load_private_key_pem(path), view.created)


def device_auth_path(state_dir: Path) -> Path:
    return state_dir / "identity" / "device-auth.json"


def _parse_store(path: Path, data: bytes | None) -> dict[str, Any] | None:
    if data is None:
        return None
    try:
        doc = nesting.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None  # an unreadable store is simply not used; the next token replaces it
    return doc if isinstance(doc, dict) else None


def read_device_token(state_dir: Path, device_id: str) -> str | None:
    """The stored operator token for this device, if any."""
    path = device_auth_path(state_dir)
    doc = _parse_store(path, reading.read_bytes(path))
    if doc is None or doc.get("deviceId") != device_id:
        return None
    tokens = doc.get("tokens")
    entry = tokens.get(ROLE) if isinstance(tokens, dict) else None
    token = entry.get("token") if isinstance(entry, dict) else None
    return token.strip() if isinstance(token, str) and token.strip() else None


def _dump(doc: dict[str, Any]) -> bytes:
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def store_device_token(state_dir: Path, device_id: str, token: str, scopes: Sequence[str], now_ms: int,
                       lock_timeout: float) -> bool:
    """Remember the token `hello-ok` handed back; True when the file changed. Other roles'
    entries are kept, another device's store is replaced, an unchanged token is not rewritten."""
    path = device_auth_path(state_dir)

    def transform(old: bytes | None) -> bytes | None:
        doc = _parse_store(path, old)
        if doc is None or doc.get("deviceId") != device_id or not isinstance(doc.get("tokens"), dict):
            doc = {"version": STORE_VERSION, "deviceId": device_id, "tokens": {}}
        current = doc["tokens"].get(ROLE)
        if isinstance(current, dict) and current.get("token") == token and current.get("scopes") == list(scopes):
            return None
        doc["tokens"][ROLE] = {"token": token, "role": ROLE, "scopes": list(scopes), "updatedAtMs": now_ms}
        return _dump(doc)

    return writer.update_file(path, transform, lock_timeout=lock_timeout, new_mode=0o600, force_mode=True).changed


def forget_device_token(state_dir: Path, device_id: str, lock_timeout: float) -> bool:
    """Drop a token the gateway rejected, so the next run does not retry it."""
    path = device_auth_path(state_dir)

    def transform(old: bytes | None) -> bytes | None:
        doc = _parse_store(path, old)
        tokens = doc.get("tokens") if doc is not None and doc.get("deviceId") == device_id else None
        if not isinstance(tokens, dict) or ROLE not in tokens:
            return None
        del tokens[ROLE]
        assert doc is not None
        return _dump(doc)

    return writer.update_file(path, transform, lock_timeout=lock_timeout, new_mode=0o600, force_mode=True).changed
