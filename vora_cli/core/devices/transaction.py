"""Changing the pairing store beside a gateway that takes no lock: a change to two files lands whole or
not at all (docs/devices.md, "Working beside a running gateway").
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

from vora_cli.core import reading, writer
from vora_cli.core.devices.inflight import begin, finish_interrupted
from vora_cli.core.devices.journal import AUDIT_LOST, append_audit, remember_requests
from vora_cli.core.devices.rules import JsonObj, is_expired, normalize_scopes, requested_roles, text_or_none
from vora_cli.core.devices.stamps import entry_mark
from vora_cli.core.devices.store import Snapshot, StoreFiles, dump_map, parse_map, read_store
from vora_cli.core.errors import VoraError
from vora_cli.core.json_data import CamelJson
from vora_cli.core.paths import VoraPaths
from vora_cli.core.records import dataclass, field, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.install import Install

T = TypeVar("T")

MAX_ATTEMPTS = 5  # redo a change on fresh content this often before giving up with `conflict`

# Called between replaces: right after vora replaced a store file, and before each replay of the
# files still to write (just before their check). The moments where a gateway's rewrite hurts
# most; tests set it to play that gateway deterministically.
BETWEEN_REPLACES: ContextVar[Callable[[], None] | None] = ContextVar("vora_devices_between_replaces", default=None)

_DELETE = object()  # an entry the change removed (in an `Intent`)

@dataclass
class Change:
    """What a change function works on: the fresh store, and what it did (set by the function)."""

    pending: dict[str, JsonObj]
    paired: dict[str, JsonObj]
    now: int
    expired: dict[str, JsonObj] = field(default_factory=dict)  # dropped because this is a write
    pending_changed: bool = False
    paired_changed: bool = False
    touched: set[str] = field(default_factory=set)  # keys of entries added or changed (re-encoded on write)
    audit: list[JsonObj] = field(default_factory=list)

    def changed_paired(self, device_id: str | None = None) -> None:
        """Say the paired map changed; name the device whose record was added or edited in place."""
        self.paired_changed = True
        if device_id is not None:
            self.touched.add(device_id)

    def changed_pending(self, request_id: str | None = None) -> None:
        self.pending_changed = True
        if request_id is not None:
            self.touched.add(request_id)

    def record(self, action: str, device_id: str | None, request_id: str | None = None,
               roles: Iterable[str] = (), scopes: Iterable[str] = (), **extra: Any) -> None:
        # Never a token here: the audit log is readable by whoever reads logs.
        self.audit.append({"action": action, "deviceId": device_id, "requestId": request_id,
                           "roles": list(roles), "scopes": list(scopes), **extra})


@dataclass(frozen=True)
class WriteReport(CamelJson):
    """Where a change landed (or would have, with --dry-run)."""

    dry_run: bool
    written: tuple[str, ...]
    attempts: int
    dropped_expired: tuple[str, ...]
    warnings: tuple[str, ...] = ()


Intent = dict[str, Any]  # key -> the entry the change wants there, or _DELETE


@dataclass
class _Landing:
    """What one transaction has replaced so far: per file, the bytes before and the bytes written."""

    files: StoreFiles
    pending_data: dict[Path, bytes] = field(default_factory=dict)  # what a running replace writes
    expected: dict[Path, bytes | None] = field(default_factory=dict)  # what it checked against
    landed: dict[Path, tuple[bytes | None, bytes]] = field(default_factory=dict)

    def replace(self, writes: list[tuple[Path, bytes]], expected: dict[Path, bytes | None]) -> None:
        self.pending_data = dict(writes)
        self.expected = expected
        writer.replace_files_if_unchanged(writes, expected, force_mode=True, after_replace=self._note)

    def _note(self, result: writer.WriteResult) -> None:
        # Undo puts back what was there just before vora's latest write of the file: a rewrite by
        # another program before that write was read and replayed on, so it is kept.
        self.landed[result.path] = (self.expected.get(result.path), self.pending_data[result.path])
        _between_replaces()

    def undo(self) -> tuple[Path, ...]:
        """Put back every file replaced, if none was rewritten since; else the files that were."""
        moved = tuple(p for p, (_, ours) in self.landed.items() if reading.read_bytes(p) != ours)
        if moved:
            return moved
        for path, (before, ours) in reversed(list(self.landed.items())):
            if not writer.undo_replace(path, ours, before):
                return (path,)
        self.landed.clear()
        return ()


def transact(install: Install, change: Callable[[Change], T], *, dry_run: bool = False,
             reuse: Snapshot | None = None) -> tuple[T, WriteReport]:
    """Apply `change` to the store under the devices lock, beside a gateway that takes none.

    Each attempt re-reads both files, drops expired requests, runs `change` and writes what it
    changed (paired first) through `writer.replace_files_if_unchanged`; a file moved before any
    replace means a redo, and after MAX_ATTEMPTS a `conflict` with nothing written. Past the
    first replace, the rest is replayed or put back (docs/devices.md, "A change lands whole or
    not at all"). `reuse`: the caller's lock-free read, whose parse serves the first attempt
    when the bytes match.
    """
    paths, now = install.paths, install.now_ms
    files = StoreFiles.of(paths)
    # before the lock (a file too): a dry run refuses it as well
    install.refuse_newer_line_write("this change of the pairing store")
    # A dry run reads as the gateway does, without the lock: it writes nothing, so it neither waits
    # for a writer nor leaves a lock file in an install it only looked at.
    with contextlib.nullcontext() if dry_run else writer.file_lock(files.lock, install.lock_timeout):
        recovered = () if dry_run else finish_interrupted(install, files)
        for attempt in range(1, MAX_ATTEMPTS + 1):
            snap = read_store(files, reuse=reuse if attempt == 1 else None)
            if attempt == 1 and not dry_run and not snap.reused:  # the look that read it noted them
                remember_requests(paths, snap.pending, now, install.lock_timeout)
            before_keys = (set(snap.pending), set(snap.paired))
            work = Change(pending=snap.pending, paired=snap.paired, now=now)
            for request_id, entry in list(work.pending.items()):
                if is_expired(entry, now):
                    work.expired[request_id] = work.pending.pop(request_id)
            result = change(work)
            if not (work.pending_changed or work.paired_changed):
                return result, WriteReport(dry_run, (), attempt, (), recovered)
            writes: list[tuple[Path, bytes]] = []
            if work.paired_changed:
                writes.append((files.paired, dump_map(work.paired, snap.paired_layout, work.touched)))
            if work.pending_changed or work.expired:
                writes.append((files.pending, dump_map(work.pending, snap.pending_layout, work.touched)))
            writes = [(p, data) for p, data in writes
                      if data != (snap.paired_bytes if p == files.paired else snap.pending_bytes)]
            dropped = tuple(work.expired)
            if dry_run:
                return result, WriteReport(True, tuple(str(p) for p, _ in writes), attempt, dropped, recovered)
            landing = _Landing(files)
            intents = {
                files.paired: _intent(before_keys[1], work.paired, work.touched),
                files.pending: _intent(before_keys[0], work.pending, work.touched),
            }
            expired_events = _expire_events(work)
            before = {files.pending: snap.pending_bytes, files.paired: snap.paired_bytes}
            # Files whose owner a replace could not keep (not root, another user's store) are refused
            # before anything is written, the journal included.
            writer.check_owners([path for path, _data in writes])
            # The store holds device tokens: 0600 files in a 0700 folder, whatever they were before.
            writer.ensure_dir(files.devices_dir)
            _tighten_dir(files.devices_dir)
            # Journal first: a vora killed from here on is finished by the next run (inflight.py).
            flight = begin(files, writes, intents, _DELETE, work.audit + expired_events, now)
            try:
                report = _land(paths, landing, writes, before, intents, work, expired_events, now, attempt)
            except VoraError:
                if not landing.landed:
                    flight.done()  # nothing landed, or what did was put back
                raise
            if report is None:
                flight.done()
                continue  # nothing landed: redo the whole change on the fresh content
            if not any(w.startswith(AUDIT_LOST) for w in report.warnings):
                flight.done()  # audited; else the next run writes the audit line (inflight.py)
            return result, replace(report, warnings=(*recovered, *report.warnings))
    raise VoraError(
        "conflict",
        f"the pairing store in {files.devices_dir} kept changing while vora wrote it "
        f"({MAX_ATTEMPTS} attempts); nothing was changed",
        "the gateway rewrites it whenever a device connects or asks to pair; run the command again",
    )


def _land(paths: VoraPaths, landing: _Landing, writes: list[tuple[Path, bytes]], before: dict[Path, bytes | None],
          intents: dict[Path, Intent], work: Change, expired_events: list[JsonObj], now: int,
          attempt: int) -> WriteReport | None:
    """Replace the files; once the first landed, replay the rest or put back what was replaced; None: redo."""
    try:
        landing.replace(writes, before)
    except writer.ContentChanged:
        if not landing.landed:
            return None
        unfinished = _finish(landing, [p for p, _ in writes], intents)
        if unfinished:
            return _landed_in_part(paths, landing, work, now, attempt, unfinished, intents)
    except VoraError as error:
        if not landing.landed:
            raise
        reason = _undo_or_warn(landing, error)
        return _landed_in_part(paths, landing, work, now, attempt, reason, intents)
    return _landed(paths, landing, work, expired_events, now, attempt)


def _between_replaces() -> None:
    hook = BETWEEN_REPLACES.get()
    if hook is not None:
        hook()


def _intent(before: set[str], after: dict[str, JsonObj], touched: set[str]) -> Intent:
    """What a change means for one file's map: entries set (added or edited) and entries removed."""
    intent: Intent = {key: _DELETE for key in before if key not in after}
    intent.update((key, value) for key, value in after.items() if key in touched or key not in before)
    return intent


def _finish(landing: _Landing, order: list[Path], intents: dict[Path, Intent]) -> str | None:
    """Replay each file's intent on its fresh content until every file shows it (files already
    showing it are not written again); None when done. On failure the landed files are put back
    when possible, and the reason is returned."""
    files = landing.files
    for _ in range(MAX_ATTEMPTS):
        try:
            fresh = read_store(files)
            writes: list[tuple[Path, bytes]] = []
            for path in order:
                current, layout, data = ((fresh.paired, fresh.paired_layout, fresh.paired_bytes)
                                         if path == files.paired else (fresh.pending, fresh.pending_layout,
                                                                       fresh.pending_bytes))
                for key, value in intents[path].items():
                    if value is _DELETE:
                        current.pop(key, None)
                    else:
                        current[key] = value
                new = dump_map(current, layout, intents[path].keys())
                if new != data:
                    writes.append((path, new))
            if not writes:
                return None
            _between_replaces()
            landing.replace(writes, {files.pending: fresh.pending_bytes, files.paired: fresh.paired_bytes})
            return None
        except writer.ContentChanged:
            continue
        except VoraError as error:  # a file that no longer parses, an OS refusal
            return _undo_or_warn(landing, error)
    reason = f"the store kept changing while vora wrote it ({MAX_ATTEMPTS} more attempts)"
    return _undo_or_warn(landing, VoraError("conflict", reason))


def _undo_or_warn(landing: _Landing, error: VoraError) -> str:
    """Put back what landed and raise: nothing was changed. Else the reason, for the warning."""
    try:
        moved = landing.undo()
    except VoraError as undo_error:
        return f"{error.message}; putting back what vora had replaced failed too: {undo_error.message}"
    if not moved:
        if error.code == "conflict":
            raise VoraError(
                "conflict",
                f"the pairing store in {landing.files.devices_dir} kept changing while vora wrote it; "
                "what vora had replaced is put back: nothing was changed",
                "the gateway rewrites it whenever a device connects or asks to pair; run the command again",
            )
        raise VoraError(error.code, f"{error.message}; what vora had replaced is put back: nothing was changed",
                        error.hint)
    return (f"{error.message}; " + ", ".join(map(str, moved))
            + " was rewritten by another program since vora wrote it, so it stays as that program left it")


def _expire_events(work: Change) -> list[JsonObj]:
    """The audit lines of the expired requests a write drops."""
    probe = Change(pending={}, paired={}, now=work.now)
    for request_id, entry in work.expired.items():
        probe.record("expire", text_or_none(entry.get("deviceId")), request_id, requested_roles(entry),
                     normalize_scopes(entry.get("scopes")))
    return probe.audit


def _landed(paths: VoraPaths, landing: _Landing, work: Change, expired_events: list[JsonObj], now: int,
            attempt: int) -> WriteReport:
    warnings = append_audit(paths, [*work.audit, *expired_events], now)
    return WriteReport(False, tuple(str(p) for p in landing.landed), attempt, tuple(work.expired), warnings)


def _shows(path: Path, intent: Intent) -> bool:
    """Whether a store file, as it is now, holds what the change meant for it: each entry it set as
    the file holds it once written, stamps of the gateway's aside (the mark a journal judges by)."""
    try:
        current = parse_map(path, reading.read_bytes(path), path.name)
    except VoraError:
        return False
    return all(key not in current if value is _DELETE
               else key in current and entry_mark(path.name, current[key]) == entry_mark(path.name, value)
               for key, value in intent.items())


def _landed_in_part(paths: VoraPaths, landing: _Landing, work: Change, now: int, attempt: int, reason: str,
                    intents: dict[Path, Intent]) -> WriteReport:
    """A change that landed in some files only, and could not be put back: reported and audited as such."""
    missing = [p for p, intent in intents.items() if intent and not _shows(p, intent)]
    names = [p.name for p in missing]
    for event in work.audit:
        event["incomplete"] = names
    warnings = append_audit(paths, work.audit, now)
    warning = (f"the change landed in {', '.join(str(p) for p in landing.landed)} but not in "
               f"{', '.join(map(str, missing)) or 'every file'}: {reason}; "
               "'vora devices list' shows the store as it is now")
    dropped = tuple(work.expired) if landing.files.pending in landing.landed else ()
    return WriteReport(False, tuple(str(p) for p in landing.landed), attempt, dropped, (warning, *warnings))


def _tighten_dir(directory: Path) -> None:
    try:
        if directory.stat().st_mode & 0o077:
            directory.chmod(0o700)
    except OSError:
        pass  # not ours to chmod (another owner): the files are still written 0600


def with_report(result: T, report: WriteReport) -> T:
    return replace(result, report=report)  # type: ignore[type-var]
