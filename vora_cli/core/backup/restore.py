"""`vora backup restore`: verified first, planned file by file, staged, then landed all or nothing
under the writers' locks (docs/backup.md, "After a disaster: restore").
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from vora_cli.core.backup.landing import Journal, Op, Recovered, holding, land
from vora_cli.core.backup.manifest import Skipped
from vora_cli.core.backup.restore_plan import (
    Planned,
    RestoreAction,
    Target,
    choose_targets,
    links_escaping,
    plan_actions,
    real_place,
)
from vora_cli.core.backup.running import GatewayRunning, gateway_running
from vora_cli.core.backup.verify import VerifyReport, verify_archive
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.backup.encryption import Keys
    from vora_cli.core.install import Install

SHOWN = 10
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
    pre_restore_left: tuple[Skipped, ...] = field(default=())  # replaced links the pre-restore backup lacks

    def count(self, action: str) -> int:
        return sum(1 for a in self.actions if a.action == action)

    def to_dict(self) -> dict[str, Any]:
        return {
            "archivePath": str(self.archive_path), "format": self.format, "encrypted": self.encrypted,
            "hashes": self.hashes, "dryRun": self.dry_run, "to": None if self.to is None else str(self.to),
            "targets": [t.to_dict() for t in self.targets], "skipped": [s.to_dict() for s in self.skipped],
            "counts": {k: self.count(k) for k in ("create", "replace", "same")},
            "preRestoreBackup": None if self.pre_restore_backup is None else str(self.pre_restore_backup),
            "preRestoreLeftOut": [s.to_dict() for s in self.pre_restore_left],
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
    raise VoraError("invalid", f"{report.archive_path.name} does not verify ({plural(len(report.problems), 'problem')}: {first})",
                    f"{command_line('vora', 'backup', 'verify', report.archive_path)} names each one; nothing was restored")


def _into_install(install: Install, to: Path | None) -> bool:
    if to is None:
        return True
    return os.path.realpath(to) == os.path.realpath(install.paths.state_dir)


@contextlib.contextmanager
def _writers_locks(install: Install, into_install: bool) -> Iterator[None]:
    """The locks `vora config set` (the config's) and the pairing writers (devices/pairing.lock)
    take, held while the restore compares and lands. A lock whose folder does not exist is not
    taken: there is no file for a writer to change, and locking would create the folder. A lock
    file that was not there is removed again: a restore that lands nothing leaves nothing."""
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
                    stack.enter_context(file_lock(path, install.lock_timeout, keep_lock_file=os.path.lexists(lock)))
        yield


@contextlib.contextmanager
def _restore_lock(target: Path, timeout: float) -> Iterator[None]:
    """The one restore into `target` (the install's state dir, or `--to DIR`) at a time, for the
    whole run: a second one waits, then gives up with `conflict`. The lock is the folder's own (a
    flock on its descriptor, or on its nearest folder that exists): no lock file is left."""
    from vora_cli.core.writer import folder_lock

    folder = Path(os.path.realpath(target))
    while not folder.is_dir() and folder != folder.parent:
        folder = folder.parent
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(folder_lock(folder, timeout))
        except VoraError as error:
            if error.code != "conflict":
                raise
            raise VoraError("conflict", f"another vora backup restore into {target} is running; nothing was "
                            "restored", "run this one again when it has finished") from None
        yield


def _changed_since_planned(planned: list[Planned]) -> list[str]:
    """The targets that no longer hold what the plan saw: a replace by its hash, a create by its
    absence, the rest by identity."""
    from vora_cli.core.backup.limits import file_sha256
    from vora_cli.core.backup.snapshot import identity

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
            if info is None or identity(info) != p.seen:
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
        raise VoraError("conflict", f"{plural(len(changed), 'path')} changed since the restore was planned: "
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


def _refuse(planned: list[Planned], targets: list[Target], skipped: list[Skipped], force: bool, dry_run: bool) -> None:
    actions = [p.action for p in planned]
    escaping = links_escaping(planned, targets)
    if escaping:
        entry, problem, why = escaping[0]
        unnamed = [str(s.source_path) for s in skipped if s.reason == "not-named"]
        hint = "nothing was restored; the link would lead a later write out of the restore's target"
        if unnamed:
            hint += (f" (this install's rules do not name {unnamed[0]}, so it is not restored: "
                     "--allow-other-paths restores it too, if you trust the archive's paths)")
        raise VoraError("invalid", f"{entry}: {problem}: {why}", hint)
    blocked = [a for a in actions if a.action == "blocked"]
    if blocked and not dry_run:
        raise VoraError("refused", f"{plural(len(blocked), 'path')} cannot be restored: {_listed(blocked)} ({blocked[0].detail})",
                        "move them away first (vora backup restore --dry-run lists each); nothing was restored")
    differing = [a for a in actions if a.action == "replace"]
    if differing and not force and not dry_run:
        raise VoraError("exists", f"{plural(len(differing), 'file')} {'differs' if len(differing) == 1 else 'differ'} from the archive: {_listed(differing)}",
                        "--dry-run shows each one; --force replaces them (a pre-restore backup of each is "
                        "written first); nothing was restored")


def restore_archive(install: Install, archive: Path, *, to: Path | None = None, dry_run: bool = False,
                    force: bool = False, keys: Keys | None = None, progress: Progress | None = None,
                    other_paths: bool = False) -> RestoreReport:
    """Restore `archive` (docs/backup.md, "After a disaster: restore"); `progress` hears the bytes staged.
    `other_paths`: restore assets to their source paths even where this install's rules name none."""
    from vora_cli.core.backup.plan import named_paths
    from vora_cli.core.backup.recovery import recover_all

    if to is not None:
        from vora_cli.core.paths import expand_path

        to = real_place(expand_path(str(to), install.paths.home), folder=True)  # judged once, by its real path
    if _into_install(install, to):  # a dry run too: it says what the real run would
        install.refuse_newer_line_write(f"restoring {archive} into it", forced=force)
    report = verify_archive(archive, keys)
    archive = report.archive_path  # absolute, as every path in vora's JSON
    _refuse_unverified(report)
    targets, skipped, dropped = choose_targets(report, to, None if other_paths else named_paths(install))
    if not targets and any(s.reason == "not-named" for s in skipped):
        first = next(s for s in skipped if s.reason == "not-named")
        raise VoraError("refused", f"no asset of {archive.name} is at a path this install names (its {first.kind} "
                        f"was {first.source_path}; this install's state dir is {install.paths.state_dir}); "
                        "nothing was restored", "restore it elsewhere with --to DIR, choose its install with "
                        "--state-dir, or pass --allow-other-paths if you trust the archive's paths")
    into_install = _into_install(install, to)
    with contextlib.ExitStack() as stack:
        if not dry_run:
            stack.enter_context(_restore_lock(install.paths.state_dir if to is None else to, install.lock_timeout))
        recovered = () if dry_run else tuple(recover_all())
        planned, litter = plan_actions(report, targets, dropped)
        skipped += litter
        _refuse(planned, targets, skipped, force, dry_run)
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
        from vora_cli.core.backup.undo import pre_restore_backup

        replaced = [p for p in work if p.action.action == "replace"]
        backup, undo_left = pre_restore_backup(install, archive, [(Path(p.action.path), p.target.asset.kind,
                                                                   p.target.base) for p in replaced]) \
            if replaced else (None, ())
        _stage_and_land(install, report, keys, planned, work, backup, into_install, force, progress)
    return RestoreReport(archive, report.format, report.hashes, False, to, tuple(targets), tuple(skipped),
                         actions, backup, running, recovered, report.encrypted, undo_left)


def _stage_and_land(install: Install, report: VerifyReport, keys: Keys | None, planned: list[Planned],
                    work: list[Planned], backup: Path | None, into_install: bool, force: bool,
                    progress: Progress | None) -> None:
    import secrets

    from vora_cli.core.backup.landing import roll_back
    from vora_cli.core.backup.staging import Stage, missing_dirs, stage_all
    from vora_cli.core.temp_files import temp_owner

    ops = [Op(p.action.path, p.action.type, p.action.action) for p in work if p.action.type != "dir"]
    journal = Journal.new(secrets.token_hex(8), report.archive_path, temp_owner(), ops, missing_dirs(planned), backup)
    total = sum(p.entry.size for p in work if p.action.type == "file")
    with holding(journal):
        journal.write("staging", ops)
        stage = Stage(journal, ops, total, progress)
        try:
            stage.make_dirs()
            stage_all(report.archive_path, keys, planned, stage)
            with _writers_locks(install, into_install):
                _check_at_landing(install, report, planned, into_install, force)
                land(journal, ops)
        except BaseException:
            if os.path.exists(journal.path):
                roll_back(journal, ops)
            raise
