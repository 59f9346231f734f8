"""Checks on the pairing store and this host's device identity (spec doctor.md, devices.md)."""

from __future__ import annotations

from pathlib import Path

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
    Location,
    file_mode,
    linked_text,
    other_names,
    own_file_fix,
)
from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.install import Install
from vora_cli.core.reading import read_bytes
from vora_cli.core.shell import command_line
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# The store and the identity are read by core/devices/ (the same readers as
# `vora devices`), imported only when there is a file to read.


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
    locations: list[Location] = []
    ops: list[ChmodOp] = []
    pending: dict[str, Any] = {}
    paired_count = 0
    present = 0
    broken: Path | None = None
    linked: tuple[Path, int] | None = None
    for path, what in zip(files, ("pending requests", "paired devices"), strict=True):
        data = read_bytes(path)
        if data is None:
            continue
        from vora_cli.core.devices.store import parse_map

        present += 1
        try:
            entries = parse_map(path, data, what)
        except VoraError as error:
            findings.append((ERROR, error.message))
            if isinstance(error, ParseError):
                locations.append(Location(error.file, error.line, error.col, error.what))
            else:
                locations.append(Location(str(path), message=error.message))
            broken = broken or path
            continue
        mode = file_mode(path)
        if mode is not None and mode != 0o600:
            links = other_names(path)
            if links:  # a chmod would change its other names too: the operator gives it a file of its own
                linked = linked or (path, links)
            else:
                ops.append(ChmodOp(str(path), mode, 0o600))
            findings.append((WARN, f"{path} has mode {mode:04o}, not 0600 (it holds device tokens)"
                             + (f"; {linked_text(path, links).split(' is ', 1)[1]}" if links else "")))
            locations.append(Location(str(path), message=f"mode {mode:04o}, not 0600 (it holds device tokens)"))
        if path.name == "pending.json":
            pending = entries
        else:
            paired_count = len(entries)
    live: list[tuple[str, int]] = []
    expired = 0
    if pending:
        from vora_cli.core.devices.rules import device_name, is_expired, request_ts
        from vora_cli.core.devices.validation import future_by_ms

        for request_id, entry in pending.items():
            ahead = future_by_ms(entry, install.now_ms)
            if ahead is not None:  # approve refuses it: no age can be known
                name = device_name(entry, str(entry.get("deviceId", "")))
                findings.append((INFO, f"pending request {request_id} from {name} is dated {_age(ahead)} in the "
                                       "future: check this host's clock and the gateway's"))
            elif is_expired(entry, install.now_ms):
                expired += 1
            else:
                live.append((request_id, install.now_ms - (request_ts(entry) or 0)))
        for request_id, age in live:
            entry = pending[request_id]
            name = device_name(entry, str(entry.get("deviceId", "")))
            findings.append((INFO, f"pending request from {name} ({_age(age)} old): {command_line('vora', 'devices', 'approve', request_id)}"))
    if expired:
        findings.append((INFO, f"{plural(expired, 'expired pending request')} (the next devices write drops them)"))

    if not findings:
        if not present:
            return CheckResult("pairing-store", PASS, "no pairing store yet (no device has asked to pair)",
                               evidence=evidence)
        return CheckResult("pairing-store", PASS, f"{plural(paired_count, 'paired device')}, no pending requests",
                           evidence=evidence)
    worst = max((s for s, _ in findings), key=lambda s: SEVERITY[s])
    headline = next(text for status, text in findings if status == worst)
    details = tuple(text for _, text in findings)
    fix: Fix | None = None
    if worst == ERROR and broken is not None:
        fix = Fix("pairing-store", FIX_COMMAND, "repair the file by hand or move it aside (vora never overwrites it)",
                  command_line("mv", broken, f"{broken}.broken"))
    elif ops:
        fix = Fix("pairing-store", FIX_CHMOD, "make the pairing store readable by its owner only (chmod 600)"
                  + ("; a file with other names is left for you" if linked else ""),
                  "vora doctor --fix pairing-store", chmod=tuple(ops))
    elif linked is not None:
        fix = own_file_fix("pairing-store", linked[0], 0o600)
    elif live:
        fix = Fix("pairing-store", FIX_COMMAND, "approve (or reject) the waiting device",
                  command_line("vora", "devices", "approve", live[0][0]))
    if worst == WARN and len(ops) + (linked is not None) > 1:
        headline = f"{len(ops)} pairing store files are not 0600 (they hold device tokens)"
    return CheckResult("pairing-store", worst, headline, details, evidence, fix, tuple(locations))


def check_device_identity(install: Install) -> CheckResult:
    path = install.paths.identity_path
    evidence = Evidence(files=(str(path),))
    if read_bytes(path) is None:
        return CheckResult("device-identity", INFO, "no device identity on this host yet", evidence=evidence,
                           fix=Fix("device-identity", FIX_COMMAND,
                                   "create this host's device identity (a gateway pairs this host by it)",
                                   "vora devices identity --create"))
    from vora_cli.core.devices.identity import show_identity

    inspect = Fix("device-identity", FIX_COMMAND, "inspect the identity file", "vora devices identity")
    try:
        view = show_identity(path, create=False, now=install.now_ms, lock_timeout=install.lock_timeout)
    except VoraError as error:
        where = (Location(error.file, error.line, error.col, error.what) if isinstance(error, ParseError)
                 else Location(str(path)))
        return CheckResult("device-identity", ERROR, error.message, evidence=evidence, fix=inspect, locations=(where,))
    if not view.device_id_matches_key:
        shown = view.device_id[:16] + "…" if view.device_id else "(none)"
        return CheckResult("device-identity", ERROR, f"deviceId {shown} does not match the public key",
                           ("the gateway would reject this device's signatures",), evidence,
                           Fix("device-identity", FIX_COMMAND, "restore the identity file from a backup",
                               "vora devices identity"), (Location(str(path)),))
    mode = file_mode(path)
    if mode is not None and mode != 0o600:
        return CheckResult("device-identity", WARN, f"{path} has mode {mode:04o}, not 0600 (it holds the private key)",
                           evidence=evidence,
                           fix=Fix("device-identity", FIX_COMMAND, "make it private", command_line("chmod", "600", path)),
                           locations=(Location(str(path)),))
    return CheckResult("device-identity", PASS, f"device {(view.device_id or '')[:16]}… (key matches deviceId)",
                       evidence=evidence)
