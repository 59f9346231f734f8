"""Checks on the pairing store and this host's device identity (spec doctor.md, devices.md)."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from vora_cli.core.doctor.model import (
    ERROR,
    FIX_CHMOD,
    FIX_COMMAND,
    INFO,
    PASS,
    SEVERITY,
    WARN,
    CheckResult,
    ChmodOp,
    Evidence,
    Fix,
    Install,
)

PENDING_TTL_MS = 5 * 60 * 1000  # devices.md, "Rules": a request expires 5 minutes after `ts`
# DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it.
ED25519_SPKI_PREFIX = bytes.fromhex("302a300506032b6570032100")


def _read_json_file(path: Path) -> tuple[Any, str | None, int | None]:
    """(data, parse error, mode) of a store file; (None, None, None) when it does not exist.

    The one place the doctor reads the device files.
    """
    import json

    try:
        raw = path.read_bytes()
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return None, None, None
    except OSError as error:
        return None, f"cannot be read: {error.strerror}", None
    try:
        return json.loads(raw.decode("utf-8")), None, mode
    except UnicodeDecodeError:
        return None, "is not UTF-8", mode
    except json.JSONDecodeError as error:
        return None, f"does not parse: line {error.lineno} column {error.colno}: {error.msg}", mode


def _age(ms: int) -> str:
    seconds = max(0, ms // 1000)
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    if seconds < 172800:
        return f"{seconds // 3600}h"
    return f"{seconds // 86400}d"


def check_pairing_store(install: Install) -> CheckResult:
    folder = install.paths.devices_dir
    files = (folder / "pending.json", folder / "paired.json")
    evidence = Evidence(files=tuple(str(f) for f in files))
    findings: list[tuple[str, str]] = []  # (status, text)
    ops: list[ChmodOp] = []
    pending: dict[str, Any] = {}
    paired_count = 0
    present = 0
    for path in files:
        data, problem, mode = _read_json_file(path)
        if problem is None and data is None:
            continue
        present += 1
        if problem is not None:
            findings.append((ERROR, f"{path} {problem}"))
            continue
        if not isinstance(data, dict):
            findings.append((ERROR, f"{path} is not a JSON object"))
            continue
        if mode is not None and mode != 0o600:
            ops.append(ChmodOp(str(path), mode, 0o600))
            findings.append((WARN, f"{path} has mode {mode:04o}, not 0600 (it holds device tokens)"))
        if path.name == "pending.json":
            pending = data
        else:
            paired_count = len(data)
    live: list[tuple[str, int]] = []
    expired: list[tuple[str, int]] = []
    for request_id, entry in pending.items():
        ts = entry.get("ts") if isinstance(entry, dict) else None
        age = install.now_ms - ts if isinstance(ts, int) and not isinstance(ts, bool) else PENDING_TTL_MS
        (live if age < PENDING_TTL_MS else expired).append((request_id, age))
    for request_id, age in live:
        entry = pending[request_id]
        name = entry.get("displayName") or str(entry.get("deviceId", ""))[:12] or "a device"
        findings.append((INFO, f"pending request from {name} ({_age(age)} old): vora devices approve {request_id}"))
    if expired:
        findings.append((INFO, f"{len(expired)} expired pending request(s) (the next devices write drops them)"))

    if not findings:
        if not present:
            return CheckResult("pairing-store", PASS, "no pairing store yet (no device has asked to pair)",
                               evidence=evidence)
        return CheckResult("pairing-store", PASS, f"{paired_count} paired device(s), no pending requests",
                           evidence=evidence)
    worst = max((s for s, _ in findings), key=lambda s: SEVERITY[s])
    headline = next(text for status, text in findings if status == worst)
    details = tuple(text for _, text in findings)
    fix: Fix | None = None
    if worst == ERROR:
        fix = Fix("pairing-store", FIX_COMMAND, "repair or remove the broken file (vora never overwrites it)",
                  f"vora devices list   # names the file; restore it, or move it away: mv {files[0].parent}/<file> /tmp")
    elif ops:
        fix = Fix("pairing-store", FIX_CHMOD, "make the pairing store readable by its owner only (chmod 600)",
                  "vora doctor --fix --fix-id pairing-store", chmod=tuple(ops))
    elif live:
        fix = Fix("pairing-store", FIX_COMMAND, "approve (or reject) the waiting device",
                  f"vora devices approve {live[0][0]}")
    if worst == WARN and len(ops) > 1:
        headline = f"{len(ops)} pairing store files are not 0600 (they hold device tokens)"
    return CheckResult("pairing-store", worst, headline, details, evidence, fix)


def _raw_public_key(pem: str) -> bytes | None:
    import base64

    body = "".join(line.strip() for line in pem.strip().splitlines() if not line.startswith("-----"))
    try:
        der = base64.b64decode(body, validate=True)
    except ValueError:
        return None
    if len(der) != len(ED25519_SPKI_PREFIX) + 32 or not der.startswith(ED25519_SPKI_PREFIX):
        return None
    return der[len(ED25519_SPKI_PREFIX):]


def check_device_identity(install: Install) -> CheckResult:
    path = install.paths.identity_path
    evidence = Evidence(files=(str(path),))
    data, problem, mode = _read_json_file(path)
    if problem is None and data is None:
        return CheckResult("device-identity", INFO, "no device identity on this host yet",
                           ("create one with: vora devices identity --create",), evidence)
    if problem is not None or not isinstance(data, dict):
        return CheckResult("device-identity", ERROR, f"{path} {problem or 'is not a JSON object'}",
                           evidence=evidence,
                           fix=Fix("device-identity", FIX_COMMAND, "inspect the identity file",
                                   "vora devices identity"))
    device_id = data.get("deviceId")
    pem = data.get("publicKeyPem")
    raw = _raw_public_key(pem) if isinstance(pem, str) else None
    if raw is None:
        return CheckResult("device-identity", ERROR, f"{path}: publicKeyPem is not an Ed25519 public key",
                           evidence=evidence,
                           fix=Fix("device-identity", FIX_COMMAND, "inspect the identity file",
                                   "vora devices identity"))
    import hashlib

    expected = hashlib.sha256(raw).hexdigest()
    if device_id != expected:
        shown = device_id[:16] + "…" if isinstance(device_id, str) else repr(device_id)
        return CheckResult("device-identity", ERROR,
                           f"deviceId {shown} does not match the public key (expected {expected[:16]}…)",
                           ("the gateway would reject this device's signatures",), evidence,
                           Fix("device-identity", FIX_COMMAND, "restore the identity file from a backup",
                               "vora devices identity"))
    if mode is not None and mode != 0o600:
        return CheckResult("device-identity", WARN, f"{path} has mode {mode:04o}, not 0600 (it holds the private key)",
                           evidence=evidence,
                           fix=Fix("device-identity", FIX_COMMAND, "make it private", f"chmod 600 {path}"))
    return CheckResult("device-identity", PASS, f"device {expected[:16]}… (key matches deviceId)", evidence=evidence)
