"""This host's device identity and the v3 device signature (docs/devices.md, "The signature a device
sends"). `cryptography` is imported inside the functions that need it.
"""

from __future__ import annotations

import binascii
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from vora_cli.core import nesting, reading
from vora_cli.core.devices.rules import meta_value
from vora_cli.core.digests import sha256_hex
from vora_cli.core.errors import VoraError
from vora_cli.core.json_data import CamelJson
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

    from vora_cli.core.install import Install

IDENTITY_VERSION = 1


# base64url as `base64.urlsafe_b64encode`/`urlsafe_b64decode` do it, on `binascii` alone: `base64`
# (and `struct` under it) is more to import on every `vora devices list`, which checks each key.
_TO_URLSAFE = bytes.maketrans(b"+/", b"-_")
_FROM_URLSAFE = bytes.maketrans(b"-_", b"+/")


def b64url(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).translate(_TO_URLSAFE).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """The bytes of base64url text, padded or not; a ValueError (`binascii.Error` is one) when it is
    not base64: as `base64.urlsafe_b64decode`, which skips characters outside the alphabet."""
    try:
        data = text.encode("ascii")
    except UnicodeEncodeError:
        raise ValueError("string argument should contain only ASCII characters") from None
    return binascii.a2b_base64((data + b"=" * (-len(data) % 4)).translate(_FROM_URLSAFE))


def device_id_of(raw_public_key: bytes) -> str:
    """A device id: sha256 hex of the raw 32-byte Ed25519 public key."""
    return sha256_hex(raw_public_key)


@dataclass(frozen=True)
class KeyPair:
    """An Ed25519 key pair, as PEM and as the raw public key."""
    private_key_pem: str
    public_key_pem: str
    raw_public_key: bytes

    @property
    def device_id(self) -> str:
        return device_id_of(self.raw_public_key)

    @property
    def public_key(self) -> str:
        """The public key as the pairing store carries it: base64url of the raw 32 bytes."""
        return b64url(self.raw_public_key)


def generate_keypair() -> KeyPair:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    private = Ed25519PrivateKey.generate()
    public = private.public_key()
    return KeyPair(
        private_key_pem=private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode("ascii"),
        public_key_pem=public.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ).decode("ascii"),
        raw_public_key=public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw),
    )


def _load_private(pem: str) -> Ed25519PrivateKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = serialization.load_pem_private_key(pem.encode("ascii"), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise VoraError("invalid", "the private key is not an Ed25519 key", None)
    return key


def _load_public(pem: str) -> Ed25519PublicKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = serialization.load_pem_public_key(pem.encode("ascii"))
    if not isinstance(key, Ed25519PublicKey):
        raise VoraError("invalid", "the public key is not an Ed25519 key", None)
    return key


def raw_public_key_from_pem(pem: str) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return _load_public(pem).public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def normalize_metadata(value: str | None) -> str:
    """platform / deviceFamily as signed: trimmed, lower-cased A-Z only (other letters unchanged)."""
    return meta_value(value)


def build_v3_payload(*, device_id: str, client_id: str, client_mode: str, role: str, scopes: Sequence[str],
                     signed_at_ms: int, token: str | None, nonce: str, platform: str | None,
                     device_family: str | None) -> str:
    """`v3|deviceId|clientId|clientMode|role|scopes,joined|signedAtMs|token-or-empty|nonce|platform|deviceFamily`."""
    return "|".join([
        "v3", device_id, client_id, client_mode, role, ",".join(scopes), str(signed_at_ms), token or "", nonce,
        normalize_metadata(platform), normalize_metadata(device_family),
    ])


def sign_payload(private_key_pem: str, payload: str) -> str:
    """The Ed25519 signature of the UTF-8 payload, base64url without padding."""
    return b64url(_load_private(private_key_pem).sign(payload.encode("utf-8")))


@dataclass(frozen=True)
class IdentityView(CamelJson):
    """What `vora devices identity` shows: never the private key."""

    path: str
    exists: bool
    created: bool
    device_id: str | None
    public_key: str | None
    public_key_pem: str | None
    created_at_ms: int | None
    device_id_matches_key: bool | None


def _parse_identity(path: Path, data: bytes) -> dict[str, Any]:
    hint = "vora never overwrites an identity it could not read; fix the file or move it aside"
    try:
        doc = nesting.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise VoraError("parse_error", f"{path}: {exc}", hint) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("publicKeyPem"), str):
        raise VoraError("parse_error", f"{path}: expected {{version, deviceId, publicKeyPem, privateKeyPem, createdAtMs}}",
                        hint)
    return doc


def _view(path: Path, doc: dict[str, Any], created: bool) -> IdentityView:
    try:
        raw = raw_public_key_from_pem(doc["publicKeyPem"])
    except (ValueError, VoraError) as exc:
        raise VoraError("invalid", f"{path}: publicKeyPem is not an Ed25519 public key ({exc})", None) from None
    stored = doc.get("deviceId") if isinstance(doc.get("deviceId"), str) else None
    # shown only when it has an id's shape: a damaged or hand-edited file may hold anything there,
    # its private key too
    device_id = stored if stored is not None and re.fullmatch(r"[0-9a-f]{64}", stored) else None
    created_at = doc.get("createdAtMs")
    return IdentityView(
        path=str(path),
        exists=True,
        created=created,
        device_id=device_id,
        public_key=b64url(raw),
        public_key_pem=doc["publicKeyPem"],
        created_at_ms=created_at if isinstance(created_at, int) else None,
        device_id_matches_key=stored == device_id_of(raw),
    )


def device_identity(install: Install, *, create: bool, dry_run: bool = False) -> IdentityView:
    """`vora devices identity`: this host's identity in the install's state dir."""
    path = install.paths.identity_path
    return show_identity(path, create=create, now=install.now_ms, lock_timeout=install.lock_timeout, dry_run=dry_run,
                         before_create=lambda: install.refuse_newer_line_write(f"creating {path}"))


def show_identity(path: Path, *, create: bool, now: int, lock_timeout: float, dry_run: bool = False,
                  before_create: Callable[[], None] | None = None) -> IdentityView:
    """The identity at `path`; with `create`, make one when there is none (never replaces one).
    `before_create`: the checks a creation must pass (a dry run's too), before anything is made."""
    data = reading.read_bytes(path)
    if data is not None:
        return _view(path, _parse_identity(path, data), created=False)
    if not create:
        raise VoraError("not_found", f"no device identity at {path}",
                        "create one with: vora devices identity --create")
    if before_create is not None:
        before_create()
    if dry_run:
        return IdentityView(str(path), False, False, None, None, None, None, None)
    pair = generate_keypair()
    doc = {
        "version": IDENTITY_VERSION,
        "deviceId": pair.device_id,
        "publicKeyPem": pair.public_key_pem,
        "privateKeyPem": pair.private_key_pem,
        "createdAtMs": now,
    }
    # expected=None: if another process created one meanwhile, that is a conflict, not an overwrite
    from vora_cli.core import writer  # here: `devices list` checks keys with this module, writes nothing

    writer.write_file(path, (json.dumps(doc, indent=2) + "\n").encode("utf-8"), expected=None,
                      lock_timeout=lock_timeout)
    return _view(path, doc, created=True)


def load_private_key_pem(path: Path) -> str:
    """The private key of this host's identity (for signing; never printed)."""
    data = reading.read_bytes(path)
    if data is None:
        raise VoraError("not_found", f"no device identity at {path}", "create one with: vora devices identity --create")
    doc = _parse_identity(path, data)
    key = doc.get("privateKeyPem")
    if not isinstance(key, str):
        raise VoraError("parse_error", f"{path}: privateKeyPem is missing", None)
    return key
