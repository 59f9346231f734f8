"""The devices journals in `<stateDir>/logs/`: the audit log and the seen-requests journal."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from vora_cli.core import nesting, reading
from vora_cli.core.devices.rules import JsonObj, request_ts, text_or_none
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths

AUDIT_FILE = "devices-audit.jsonl"
SEEN_FILE = "devices-requests-seen.jsonl"
AUDIT_LOST = "the change was written but its audit line was not"
SEEN_KEEP = 2000  # the seen-requests journal is compacted to this many lines past twice as many


def append_audit(paths: VoraPaths, events: list[JsonObj], now: int) -> tuple[str, ...]:
    if not events:
        return ()
    from vora_cli.core import writer  # here: `devices list` only reads, and needs neither
    from vora_cli.core.clock import iso_utc

    lines = "\n".join(json.dumps({"time": iso_utc(now), "atMs": now, **event}, ensure_ascii=False) for event in events)
    try:
        writer.append_line(paths.logs_dir / AUDIT_FILE, lines)
    except VoraError as error:  # the change has landed; a lost audit line must not claim otherwise
        return (f"{AUDIT_LOST}: {error.message}",)
    return ()


# -- the seen-requests journal (for "superseded" and "never seen") --------------------------------

def remember_requests(paths: VoraPaths, pending: Mapping[str, JsonObj], now: int, lock_timeout: float) -> None:
    """Note every request id vora has seen (best effort), so an id copied from `list` before the
    device replaced its request is explained as "superseded by <newer id>"."""
    path = paths.logs_dir / SEEN_FILE
    try:
        known = read_seen(path)
        new = [
            json.dumps({"requestId": rid, "deviceId": text_or_none(entry.get("deviceId")), "ts": request_ts(entry),
                        "seenAtMs": now})
            for rid, entry in pending.items() if rid not in known
        ]
        if new or len(known) > 2 * SEEN_KEEP:
            from vora_cli.core import writer  # here: a list that saw every request before writes nothing

            if new:
                writer.append_line(path, "\n".join(new))
            if len(known) + len(new) > 2 * SEEN_KEEP:
                writer.update_file(path, _compact_seen, lock_timeout=lock_timeout)
    except VoraError:
        pass  # a read-only state dir still lists and approves; only the explanations get poorer


def _compact_seen(data: bytes | None) -> bytes | None:
    if data is None:
        return None
    lines = data.splitlines()[-SEEN_KEEP:]
    return b"\n".join(lines) + b"\n"


def read_seen(path: Path) -> dict[str, JsonObj]:
    data = reading.read_bytes(path)
    seen: dict[str, JsonObj] = {}
    for line in (data or b"").splitlines():
        try:
            entry = nesting.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("requestId"), str):
            seen[entry["requestId"]] = entry
    return seen
