"""`vora backup restore`: verified first, planned file by file, staged, then landed all or
nothing under the writers' locks (docs/backup.md, "After a disaster: restore").

1. An interrupted restore of an earlier run is finished or rolled back (landing.py).
2. The archive is verified in full (a vora archive: every hash; a gateway one: its structure).
3. The plan (restore_plan.py) refuses what it must: a blocked path always, a link that would
   lead out of its target, files that differ from the archive unless `--force`, a running
   gateway unless `--force`.
4. What will be replaced is first written to a pre-restore backup (a vora archive of exactly
   those files, in vora's backup dir).
5. A journal names every path; a second pass over the archive stages every new file and link
   beside its target, each file's sha256 checked against the first pass.
6. Under the locks `vora config set` and the pairing writers take, every target is compared
   with the plan (a replace by its hash, a create by its absence, the rest by identity) and the
   gateway is looked for again; any difference is a `conflict` with nothing landed. Then every
   file lands (landing.py), or on any failure none does.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from vora_cli.core.backup.create import pre_restore_backup
from vora_cli.core.backup.landing import Journal, Op, Recovered, holding, land, recover_all, roll_back
from vora_cli.core.backup.manifest import Skipped
from vora_cli.core.backup.restore_plan import (
    Planned,
    RestoreAction,
    Target,
    choose_targets,
    file_sha256,
    links_escaping,
    plan_actions,
    seen_of,
)
from vora_cli.core.backup.running import GatewayRunning, gateway_running
from vora_cli.core.backup.verify import VerifyReport, verify_archive
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.backup.encryption import Keys
    from vora_cli.core.install import Install

SHOWN = 10
_CHUNK = 1024 * 1024
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RestoreReport:
    """What `vora backup restore` did (or would do) to each target."""
    archive_path: Path
    format: str
    hashes: bool
    dry_run: bool
    to: Path | None
    targets: tuple[Target, ...]
    skipped: tuple[Skipped, ...]
    actions: tuple[RestoreAction, ...]
    pre_restore_backup: Path | None
    gateway: GatewayRunning | None  # running, and overridden with --force
    recovered: tuple[Recovered, ...] = field(default=())
    encrypted: bool = False

    def count(self, action: str) -> int:
        return sum(1 for a in self.actions if a.action == action)

    def to_dict(self) -> dict[str, Any]:
        return {
            "archivePath": str(self.archive_path), "format": self.format, "encrypted": self.encrypted,
            "hashes": self.hashes, "dryRun": self.dry_run, "to": None if self.to is None else str(self.to),
            "targets": [t.to_dict() for t in self.targets], "skipped": [s.to_dict() for s in self.skipped],
            "counts": {k: self.count(k) for k in ("create", "replace", "same")},
            "preRestoreBackup": None if self.pre_restore_backup is None else str(self.pre_restore_backup),
            "gatewayRunning": None if self.gateway is None else self.gateway.to_dict(),
            "recovered": [r.to_dict() for r in self.recovered],
            "files": [a.to_dict() for a in self.actions],
        }


def _listed(actions: list[RestoreAction]) -> str:
    shown = ", ".join(a.path for a in actions[:SHOWN])
    return shown + (f" (+{len(actions) - SHOWN} more)" if len(actions) > SHOWN else "")


def _refuse_unverified(report: VerifyReport) -> None:
    if report.ok:
        return
    first = "; ".join(f"{p.path}: {p.problem}: {p.detail}" for p in report.problems[:3])
    raise VoraError("invalid", f"{report.archive_path.name} does not verify ({len(report.problems)} problem(s): {first})",
                    f"{command_line('vora', 'backup', 'verify', report.archive_path)} names each one; nothing was restored")


def _into_install(install: Install, to: Path | None) -> bool:
    if to is None:
        return True
    return os.path.realpath(to) == os.path.realpath(install.paths.state_dir)


def _new_mode(entry_mode: int) -> int:
    """A new file is private to its owner whatever the archive says; an executable stays one."""
    return 0o600 | (entry_mode & 0o100)


class _Stage:
    """The restore's staged files and links, and the folders it made, as the journal names them."""

    def __init__(self, journal: Journal, ops: list[Op], dirs: list[Path], total: int,
                 progress: Progress | None) -> None:
        self.journal = journal
        self.ops = {op.path: op for op in ops}
        self.dirs = dirs
        self.by_entry: dict[str, Path] = {}  # archive entry -> its staged temp file
        self.done = 0
        self.total = total
        self.progress = progress

    def moved(self, count: int) -> None:
        self.done += count
        if self.progress is not None:
            self.progress(self.done, max(self.total, self.done))

    def make_dirs(self) -> None:
        from vora_cli.core.writer import new_owner

        for folder in self.dirs:
            if not os.path.lexists(folder):
                os.mkdir(folder, 0o700)
                owner = new_owner(folder.parent)  # as root: the folder it is made in decides (writer.py)
                if owner is not None:
                    os.chown(folder, *owner)

    def discard(self) -> None:
        roll_back(self.journal, list(self.ops.values()))


def _missing_dirs(planned: list[Planned]) -> list[Path]:
    """Every folder the restore will make, parents first: the archive's new folders and any
    missing parent of a path it writes."""
    found: dict[Path, None] = {}
    for p in planned:
        if p.action.action not in ("create", "replace"):
            continue
        path = Path(p.action.path)
        chain = [path] if p.action.type == "dir" else []
        current = path.parent
        while not os.path.lexists(current) and current != current.parent:
            chain.append(current)
            current = current.parent
        for folder in reversed(chain):
            found.setdefault(folder)
    return list(found)


def _stage_file(stage: _Stage, planned: Planned, data: Any, archive: Path) -> None:
    import hashlib

    from vora_cli.core.writer import StagedFile

    action, entry = planned.action, planned.entry
    target = Path(action.path)
    mode = _new_mode(entry.mode)
    if action.action == "replace" and planned.seen is not None and os.path.isfile(target) and not os.path.islink(target):
        mode = os.lstat(target).st_mode & 0o7777  # an existing file keeps its mode
    staged = StagedFile(target, mode)
    op = stage.ops[action.path]
    op.temp = str(staged.temp)
    digest = hashlib.sha256()
    while chunk := data.read(_CHUNK):
        digest.update(chunk)
        staged.write(chunk)
        stage.moved(len(chunk))
    if digest.hexdigest() != entry.sha256:
        raise VoraError("conflict", f"{archive.name}: {action.entry} changed since it was verified; nothing was restored",
                        "is something rewriting the archive? run the restore again")
    staged.finish()
    if entry.mtime > 0:
        os.utime(staged.temp, (entry.mtime, entry.mtime))
    info = os.lstat(staged.temp)
    op.identity = (info.st_dev, info.st_ino)
    stage.by_entry[action.entry] = staged.temp


def _stage_link(stage: _Stage, planned: Planned) -> None:
    from vora_cli.core.temp_files import temp_owner

    path = Path(planned.action.path)
    temp = path.with_name(f".{path.name}.{temp_owner()}.{os.urandom(5).hex()}.tmp")
    op = stage.ops[planned.action.path]
    op.temp = str(temp)
    os.symlink(planned.entry.link or "", temp)
    info = os.lstat(temp)
    op.identity = (info.st_dev, info.st_ino)


def _stage_all(archive: Path, keys: Keys | None, planned: list[Planned], stage: _Stage) -> None:
    import gzip
    import tarfile

    from vora_cli.core.backup.encryption import open_archive
    from vora_cli.core.backup.limits import Counted, Expansion

    work = {p.action.entry: p for p in planned if p.action.action in ("create", "replace")}
    stage.make_dirs()
    with open_archive(archive, keys) as opened:
        raw = Counted(opened.stream)
        with gzip.GzipFile(fileobj=raw, mode="rb") as stream, tarfile.open(fileobj=stream, mode="r|") as tar:  # type: ignore[call-overload]  # a counted stream
            expansion = Expansion(raw, stream)
            for member in tar:
                expansion.check(member.name)
                found = work.get(member.name.rstrip("/"))
                if found is None or found.action.type != "file" or not member.isfile():
                    continue
                data = tar.extractfile(member)
                assert data is not None
                _stage_file(stage, found, data, archive)
    for p in work.values():
        if p.action.type == "symlink":
            _stage_link(stage, p)
        elif p.action.type == "file" and p.action.entry not in stage.by_entry:
            # a hard link of a gateway archive: a copy of its file's staged bytes (or of the file on disk)
            origin = stage.by_entry.get(p.entry.name)
            if origin is None:
                same = next((q for q in planned if q.action.entry == p.entry.name), None)
                origin = Path(same.action.path) if same is not None else None
            if origin is None:
                raise VoraError("invalid", f"{archive.name}: {p.action.entry} is a hard link to nothing restorable")
            with open(origin, "rb") as data:
                _stage_file(stage, p, data, archive)


@contextlib.contextmanager
def _writers_locks(install: Install, into_install: bool) -> Iterator[None]:
    """The locks `vora config set` (the config's) and the pairing writers (devices/pairing.lock)
    take, held while the restore compares and lands. A lock whose folder does not exist is not
    taken: there is no file for a writer to change, and locking would create the folder."""
    from vora_cli.core.devices.store import StoreFiles
    from vora_cli.core.writer import file_lock, lock_path_for

    with contextlib.ExitStack() as stack:
        if into_install:
            for path in (install.paths.config_path, StoreFiles.of(install.paths).lock):
                try:
                    lock = lock_path_for(path)
                except VoraError:
                    continue
                if lock.parent.is_dir():
                    stack.enter_context(file_lock(path, install.lock_timeout))
        yield


def _changed_since_planned(planned: list[Planned]) -> list[str]:
    """The targets that no longer hold what the plan saw (see the module docstring, step 6)."""
    changed = []
    for p in planned:
        if p.action.type == "dir":
            continue  # the restore made the new ones; a folder holds nothing a restore replaces
        path, action = p.action.path, p.action.action
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            info = None
        except OSError:
            changed.append(path)
            continue
        if action == "create":
            if info is not None:
                changed.append(path)
        elif action in ("replace", "same"):
            if info is None or seen_of(info) != p.seen:
                changed.append(path)
            elif action == "replace" and p.before is not None:
                now = os.readlink(path) if os.path.islink(path) else file_sha256(Path(path))
                if now != p.before:
                    changed.append(path)
    return changed


def _check_at_landing(install: Install, report: VerifyReport, planned: list[Planned], into_install: bool,
                      force: bool) -> None:
    changed = _changed_since_planned(planned)
    if changed:
        raise VoraError("conflict", f"{len(changed)} path(s) changed since the restore was planned: "
                        f"{', '.join(changed[:SHOWN])}{' …' if len(changed) > SHOWN else ''}; nothing was restored",
                        "something wrote them meanwhile; run the restore again to plan it on what is there now")
    if into_install and not force:
        running = _gateway(install, report)
        if running is not None:
            raise VoraError("refused", f"the gateway started while the restore was staged ({running.detail}); "
                            "nothing was restored", "stop the gateway, then run the restore again")


def _gateway(install: Install, report: VerifyReport) -> GatewayRunning | None:
    assert report.manifest is not None
    configs = [install.paths.config_path]
    recorded = report.manifest.raw.get("paths")
    if isinstance(recorded, dict) and isinstance(recorded.get("configPath"), str):
        configs.append(Path(recorded["configPath"]))
    return gateway_running(install.effective, install.env, configs)


def _refuse(planned: list[Planned], targets: list[Target], force: bool, dry_run: bool) -> None:
    actions = [p.action for p in planned]
    escaping = links_escaping(planned, targets)
    if escaping:
        entry, why = escaping[0]
        raise VoraError("invalid", f"{entry}: link-out: {why}",
                        "nothing was restored; the link would lead a later write out of the restore's target")
    blocked = [a for a in actions if a.action == "blocked"]
    if blocked and not dry_run:
        raise VoraError("refused", f"{len(blocked)} path(s) cannot be restored: {_listed(blocked)} ({blocked[0].detail})",
                        "move them away first (vora backup restore --dry-run lists each); nothing was restored")
    differing = [a for a in actions if a.action == "replace"]
    if differing and not force and not dry_run:
        raise VoraError("exists", f"{len(differing)} file(s) differ from the archive: {_listed(differing)}",
                        "--dry-run shows each one; --force replaces them (a pre-restore backup of each is "
                        "written first); nothing was restored")


def restore_archive(install: Install, archive: Path, *, to: Path | None = None, dry_run: bool = False,
                    force: bool = False, keys: Keys | None = None, progress: Progress | None = None) -> RestoreReport:
    """Restore `archive` (see the module docstring); `progress` hears the bytes staged so far."""
    if to is not None:
        from vora_cli.core.paths import expand_path

        to = expand_path(str(to), install.paths.home)
    if _into_install(install, to):  # a dry run too: it says what the real run would
        install.refuse_newer_line_write(f"restoring {archive} into it", forced=force)
    recovered = () if dry_run else tuple(recover_all())
    report = verify_archive(archive, keys)
    archive = report.archive_path  # absolute, as every path in vora's JSON
    _refuse_unverified(report)
    targets, skipped, dropped = choose_targets(report, to)
    planned, litter = plan_actions(report, targets, dropped)
    skipped += litter
    _refuse(planned, targets, force, dry_run)
    into_install = _into_install(install, to)
    running = _gateway(install, report) if into_install else None
    if running is not None and not force and not dry_run:
        raise VoraError("refused", f"the gateway is running ({running.detail}); it would overwrite what a "
                        "restore puts back", "stop the gateway first, or pass --force; nothing was restored")
    actions = tuple(p.action for p in planned)
    result = RestoreReport(archive, report.format, report.hashes, dry_run, to, tuple(targets), tuple(skipped),
                           actions, None, running, recovered, report.encrypted)
    work = [p for p in planned if p.action.action in ("create", "replace")]
    if dry_run or not work:
        return result
    replaced = [p for p in work if p.action.action == "replace"]
    backup = pre_restore_backup(install, archive, [(Path(p.action.path), p.target.asset.kind, p.target.base)
                                                   for p in replaced]) if replaced else None
    _stage_and_land(install, report, keys, planned, work, into_install, force, progress)
    return RestoreReport(archive, report.format, report.hashes, False, to, tuple(targets), tuple(skipped),
                         actions, backup, running, recovered, report.encrypted)


def _stage_and_land(install: Install, report: VerifyReport, keys: Keys | None, planned: list[Planned],
                    work: list[Planned], into_install: bool, force: bool, progress: Progress | None) -> None:
    import secrets

    from vora_cli.core.temp_files import temp_owner

    ops = [Op(p.action.path, p.action.type, p.action.action) for p in work if p.action.type != "dir"]
    dirs = _missing_dirs(planned)
    journal = Journal.new(secrets.token_hex(8), report.archive_path, temp_owner(), ops, dirs)
    total = sum(p.entry.size for p in work if p.action.type == "file")
    with holding(journal):
        journal.write("staging", ops)
        stage = _Stage(journal, ops, dirs, total, progress)
        try:
            _stage_all(report.archive_path, keys, planned, stage)
            with _writers_locks(install, into_install):
                _check_at_landing(install, report, planned, into_install, force)
                land(journal, ops)
        except BaseException:
            if os.path.exists(journal.path):
                stage.discard()
            raise
