"""The change in flight: what a store change means, written before the store, so a kill is repaired
(docs/devices.md, "A killed change is finished by the next run").
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from vora_cli.core import nesting, reading, writer
from vora_cli.core.devices.journal import AUDIT_FILE, append_audit
from vora_cli.core.devices.rules import JsonObj
from vora_cli.core.devices.stamps import entry_mark
from vora_cli.core.devices.store import Layout, StoreFiles, dump_map, parse_map_with_layout
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install
    from vora_cli.core.paths import VoraPaths

JOURNAL_MAX = 16 * 1024 * 1024  # a journal bigger than this is not vora's
AUDIT_TAIL = 1024 * 1024  # where the audit lines of the change in flight would be, if written
REPLAY_ATTEMPTS = 5


@dataclass(frozen=True)
class InFlight:
    """One change about to be replaced into the store: its files in order, what it means for each, its audit lines."""

    path: Path
    data: bytes

    def done(self) -> None:
        """The change is audited (or was put back): the journal goes (no fsync: one that a crash
        brings back is found landed and audited, and removed, by the next run)."""
        try:
            writer.undo_replace(self.path, self.data, None, durable=False)
        except VoraError:
            pass  # left behind, it is repaired (found landed and audited) by the next run


def begin(files: StoreFiles, writes: list[tuple[Path, bytes]], intents: dict[Path, dict[str, Any]],
          delete: object, audit: list[JsonObj], now: int) -> InFlight:
    """Write the journal of a change (before its first replace); stamps `audit` with its changeId."""
    change_id = os.urandom(8).hex()  # what secrets.token_hex(8) is
    for event in audit:
        event["changeId"] = change_id
    entries = []
    for index, (path, _data) in enumerate(writes):
        intent = intents.get(path, {})
        entry: dict[str, Any] = {
            "file": path.name,
            "marks": {key: None if value is delete else entry_mark(path.name, value) for key, value in intent.items()},
        }
        if index > 0:  # replayed on recovery: never paired.json, which is always replaced first
            assert path != files.paired
            entry["set"] = {key: value for key, value in intent.items() if value is not delete}
            entry["remove"] = [key for key, value in intent.items() if value is delete]
        entries.append(entry)
    doc = {"version": 1, "changeId": change_id, "atMs": now, "files": entries, "audit": audit}
    data = json.dumps(doc, ensure_ascii=False).encode("utf-8", "backslashreplace")
    path = files.journal
    writer.replace_atomically(path, data, force_mode=True)
    return InFlight(path, data)


def _read(path: Path) -> tuple[bytes | None, dict[str, JsonObj], Layout | None]:
    data = reading.read_bytes(path)
    entries, layout = parse_map_with_layout(path, data, path.name)
    return data, entries, layout


def _shows(files: StoreFiles, entry: dict[str, Any]) -> bool:
    """Whether a file holds what the change meant for it, by the marks of the entries it set."""
    name = entry["file"]
    try:
        entries = _read(files.devices_dir / name)[1]
    except VoraError:
        return False
    marks: dict[str, str | None] = entry["marks"]
    return all(key not in entries if mark is None else key in entries and entry_mark(name, entries[key]) == mark
               for key, mark in marks.items())


def _replay(files: StoreFiles, entry: dict[str, Any]) -> None:
    path = files.devices_dir / entry["file"]
    for _ in range(REPLAY_ATTEMPTS):
        old, entries, layout = _read(path)
        for key in entry["remove"]:
            entries.pop(key, None)
        for key, value in entry["set"].items():
            entries[key] = value
        new = dump_map(entries, layout, entry["set"].keys())
        if new == old:
            return
        try:
            writer.replace_files_if_unchanged([(path, new)], {path: old}, force_mode=True)
            return
        except writer.ContentChanged:
            continue
    raise VoraError("conflict", f"{path} kept changing while vora finished an interrupted change there")


def _audited(paths: VoraPaths, change_id: str) -> bool:
    try:
        tail = reading.read_bytes(paths.logs_dir / AUDIT_FILE, AUDIT_TAIL, from_end=True)
    except VoraError:
        return False
    return tail is not None and f'"changeId": "{change_id}"'.encode() in tail


def finish_interrupted(install: Install, files: StoreFiles) -> tuple[str, ...]:
    """Repair the change a killed vora left in flight (the caller holds the store's lock); warnings."""
    path = files.journal
    data = reading.read_bytes(path)
    if data is None:
        return ()
    flight = InFlight(path, data)
    try:
        doc = nesting.loads(data) if len(data) <= JOURNAL_MAX else None
        entries = doc["files"] if isinstance(doc, dict) and doc.get("version") == 1 else None
        if not entries or not isinstance(doc, dict):
            raise ValueError("not a vora change journal")
        change_id = str(doc["changeId"])
        if _audited(install.paths, change_id):
            # Its audit lines are written last: the change was finished, and the journal is back
            # only because its removal was not made durable. Replaying now would undo an edit
            # made to the store since (a restored pending.json).
            flight.done()
            return ()
        if not _shows(files, entries[0]):
            flight.done()  # the dead run replaced nothing: there is nothing to finish
            return ()
        warnings: list[str] = []
        for entry in entries[1:]:
            if not _shows(files, entry):
                try:
                    _replay(files, entry)
                except VoraError as error:
                    warnings.append(f"an interrupted change to the pairing store landed in {entries[0]['file']} "
                                    f"but not in {entry['file']}: {error.message}")
        events = [{**event, "recovered": True} for event in doc["audit"]]
        if warnings:
            for event in events:
                event["incomplete"] = [e["file"] for e in entries[1:]]
        audit_warnings = append_audit(install.paths, events, int(doc["atMs"]))
        if audit_warnings:
            return (*warnings, *audit_warnings)  # keep the journal: the next run audits it
        flight.done()
        return tuple(warnings)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return (f"{path} is not a change journal vora can read; it was left as it is "
                "(remove it once 'vora devices list' shows the store as it should be)",)


def repair_before_reading(install: Install, files: StoreFiles) -> None:
    """For commands that only read the store (`list`): finish a change a killed vora left, best
    effort (a read-only state dir, a held lock: the next change finishes it and says so)."""
    if not os.path.lexists(files.journal):
        return
    try:
        with writer.file_lock(files.lock, install.lock_timeout):
            finish_interrupted(install, files)
    except VoraError:
        pass
