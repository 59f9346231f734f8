"""Pairing-store fixtures in the gateway's exact format, built from real Ed25519 keys."""

from __future__ import annotations

import json
import os
import uuid
from functools import cache
from pathlib import Path
from typing import Any

from vora_cli.core.devices.identity import KeyPair, generate_keypair
from vora_cli.core.devices.tokens import mint_token

NOW = 1_765_000_000_000  # a fixed clock (ms), passed to core and to the CLI as VORA_NOW_MS
MIN = 60_000
DAY = 86_400_000


@cache
def key(name: str) -> KeyPair:
    """One real Ed25519 key per name (cached: a test suite needs a few dozen, not thousands)."""
    return generate_keypair()


def request(name: str, *, ts: int = NOW - MIN, role: str = "operator", roles: list[str] | None = None,
            scopes: list[str] | None = None, platform: str = "macos 15.1", family: str = "mac",
            request_id: str | None = None, pair: KeyPair | None = None, **extra: Any) -> dict[str, Any]:
    """A PendingRequest as the gateway writes it."""
    k = pair or key(name)
    entry: dict[str, Any] = {
        "requestId": request_id or str(uuid.uuid4()),
        "deviceId": k.device_id,
        "publicKey": k.public_key,
        "displayName": name,
        "platform": platform,
        "deviceFamily": family,
        "clientId": "vora-macos",
        "clientMode": "ui",
        "role": role,
        "roles": roles or [role],
        "scopes": ["operator.read"] if scopes is None else scopes,
        "remoteIp": "192.168.1.40",
        "silent": False,
        "isRepair": False,
        "ts": ts,
    }
    entry.update(extra)
    return entry


def paired(name: str, *, roles: list[str] | None = None, scopes: list[str] | None = None,
           platform: str = "macos 15.1", family: str = "mac", token: str | None = None,
           created: int = NOW - 30 * DAY, **extra: Any) -> dict[str, Any]:
    """A PairedDevice as the gateway writes it, with one token per role."""
    k = key(name)
    roles = roles or ["operator"]
    scopes = ["operator.read", "operator.write"] if scopes is None else scopes
    tokens = {
        r: {
            "token": token or mint_token(),
            "role": r,
            "scopes": [s for s in scopes if s.startswith("operator.") == (r == "operator")],
            "createdAtMs": created,
            "lastUsedAtMs": NOW - DAY,
        }
        for r in roles
    }
    entry: dict[str, Any] = {
        "deviceId": k.device_id, "publicKey": k.public_key, "displayName": name, "platform": platform,
        "deviceFamily": family, "clientId": "vora-macos", "clientMode": "ui", "role": roles[0], "roles": roles,
        "scopes": scopes, "approvedScopes": scopes, "remoteIp": "127.0.0.1", "tokens": tokens,
        "createdAtMs": created, "approvedAtMs": created,
    }
    entry.update(extra)
    return entry


def write_store(state_dir: Path, pending: list[dict[str, Any]] | None = None,
                devices: list[dict[str, Any]] | None = None) -> Path:
    """Write both files exactly as the gateway does (2-space indent, no trailing newline, 0600/0700)."""
    folder = state_dir / "devices"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for file, entries, key_name in (("pending.json", pending, "requestId"), ("paired.json", devices, "deviceId")):
        if entries is None:
            continue
        path = folder / file
        path.write_text(json.dumps({e[key_name]: e for e in entries}, indent=2))
        os.chmod(path, 0o600)
    return folder


def read_store(state_dir: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    folder = state_dir / "devices"
    load = lambda p: json.loads(p.read_text()) if p.exists() else {}  # noqa: E731
    return load(folder / "pending.json"), load(folder / "paired.json")


def all_tokens(state_dir: Path) -> set[str]:
    _, devices = read_store(state_dir)
    return {t["token"] for d in devices.values() for t in d.get("tokens", {}).values()}
