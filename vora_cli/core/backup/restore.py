"""`vora backup restore`: verified first, planned file by file, staged, then landed atomically
per file (docs/backup.md, "Restore").

1. The archive is verified in full (a vora archive: every hash; a gateway one: its structure).
2. The plan (restore_plan.py) refuses what it must: a blocked path always; files that differ
   from the archive unless `--force`; a running gateway unless `--force`.
3. What will be replaced is first written to a pre-restore backup (a vora archive of exactly
   those files, in vora's backup dir).
4. A second pass stages every new file as a temp file beside its target, checking each one's
   sha256 against the first pass; any failure removes every temp file and every folder it made,
   and nothing has changed. Then each file is renamed into place.
"""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.backup.layout import PRE_RESTORE_KIND, SUFFIX, archive_root
from vora_cli.core.backup.manifest import Asset, Skipped
from vora_cli.core.backup.restore_plan import RestoreAction, Target, choose_targets, plan_actions
from vora_cli.core.backup.running import GatewayRunning, gateway_running
from vora_cli.core.backup.verify import Entry, VerifyReport, verify_archive
from vora_cli.core.clock import iso_utc
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install
    from vora_cli.core.writer import StagedFile

SHOWN = 10
_CHUNK = 1024 * 1024


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

    def count(self, action: str) -> int:
        return sum(1 for a in self.actions if a.action == action)

    def to_dict(self) -> dict[str, Any]:
        return {
            "archivePath": str(self.archive_path), "format": self.format, "hashes": self.hashes,
            "dryRun": self.dry_run, "to": None if self.to is None else str(self.to),
            "targets": [t.to_dict() for t in self.targets], "skipped": [s.to_dict() for s in self.skipped],
            "counts": {k: self.count(k) for k in ("create", "replace", "same")},
            "preRestoreBackup": None if self.pre_restore_backup is None else str(self.pre_restore_backup),
            "gatewayRunning": None if self.gateway is None else self.gateway.to_dict(),
            "files": [a.to_dict() for a in self.actions],
        }


def _listed(actions: list[RestoreAction]) -> str:
    shown = ", ".join(a.path for a in actions[:SHOWN])
    return shown + (f" (+{len(actions) - SHOWN} more)" if len(actions) > SHOWN else "")


def _refuse_unverified(report: VerifyReport) -> None:
    if report.ok:
        return
    first = "; ".join(f"{p.path}: {p.problem}" for p in report.problems[:3])
    raise VoraError("invalid", f"{report.archive_path.name} does not verify ({len(report.problems)} problem(s): {first})",
                    f"{command_line('vora', 'backup', 'verify', report.archive_path)} names each one; nothing was restored")


def _into_install(install: Install, to: Path | None) -> bool:
    if to is None:
        return True
    return os.path.realpath(to) == os.path.realpath(install.paths.state_dir)


def _pre_restore_backup(install: Install, report: VerifyReport, replaced: list[tuple[RestoreAction, Target]]) -> Path:
    """A vora archive of exactly the files a restore will replace, as they are now."""
    from vora_cli.core.backup.create import created_by, platform_name, write_archive
    from vora_cli.core.backup.layout import payload_path
    from vora_cli.core.backup.plan import SourceEntry
    from vora_cli.core.userdirs import backup_dir

    root = archive_root(install.now_ms, PRE_RESTORE_KIND)
    assets: dict[Path, Asset] = {}
    entries: list[SourceEntry] = []
    for action, target in replaced:
        asset = assets.setdefault(target.base, Asset(target.asset.kind, target.base, payload_path(root, target.base)))
        path = Path(action.path)
        info = os.lstat(path)
        name = payload_path(root, path)
        if action.type == "symlink" and os.path.islink(path):
            entries.append(SourceEntry("symlink", path, name, asset, 0o777, int(info.st_mtime), link=os.readlink(path)))
        elif os.path.isfile(path) and not os.path.islink(path):
            entries.append(SourceEntry("file", path, name, asset, info.st_mode & 0o7777, int(info.st_mtime), info.st_size))
    output = backup_dir() / (root + SUFFIX)
    fields = {"created_at": iso_utc(install.now_ms), "root": root, "created_by": created_by(),
              "platform": platform_name(), "options": {"preRestore": True, "restoring": str(report.archive_path)},
              "paths": {"stateDir": str(install.paths.state_dir), "configPath": str(install.paths.config_path)},
              "assets": tuple(assets.values())}
    write_archive(output, root, entries, fields, (), install.now_ms)
    return output


class _Stage:
    """Everything a restore has written but not landed: temp files, and the folders it made."""

    def __init__(self) -> None:
        self.files: list[tuple[StagedFile, int]] = []  # (staged, mtime)
        self.by_entry: dict[str, Path] = {}  # archive entry -> where its bytes are now (temp file)
        self.made_dirs: list[tuple[Path, int]] = []  # (folder, mode), in creation order

    def make_dir(self, path: Path, mode: int) -> None:
        missing = []
        current = path
        while not os.path.lexists(current):
            missing.append(current)
            current = current.parent
        for folder in reversed(missing):
            os.mkdir(folder, 0o700)  # 0700 while files go in; the archived mode at the end
            self.made_dirs.append((folder, mode if folder == path else 0o700))

    def discard(self) -> None:
        for staged, _mtime in self.files:
            staged.discard()
        for folder, _mode in reversed(self.made_dirs):
            try:
                os.rmdir(folder)
            except OSError:
                pass


def _stage_file(stage: _Stage, action: RestoreAction, entry: Entry, data: Any, archive: Path) -> None:
    import hashlib

    from vora_cli.core.writer import StagedFile

    target = Path(action.path)
    if not os.path.lexists(target.parent):
        stage.make_dir(target.parent, 0o700)
    staged = StagedFile(target, entry.mode & 0o777)
    stage.files.append((staged, entry.mtime))
    digest = hashlib.sha256()
    while chunk := data.read(_CHUNK):
        digest.update(chunk)
        staged.write(chunk)
    if digest.hexdigest() != entry.sha256:
        raise VoraError("conflict", f"{archive.name}: {action.entry} changed since it was verified; nothing was restored",
                        "is something rewriting the archive? run the restore again")
    stage.by_entry[action.entry] = staged.temp


def _stage_all(archive: Path, planned: list[tuple[RestoreAction, Entry, Target]], stage: _Stage) -> None:
    import tarfile

    work = {a.entry: (a, e) for a, e, _t in planned if a.action in ("create", "replace")}
    for action, entry in work.values():
        if action.type == "dir":
            stage.make_dir(Path(action.path), entry.mode & 0o777)
    with tarfile.open(archive, mode="r|gz") as tar:
        for member in tar:
            found = work.get(member.name.rstrip("/"))
            if found is None or found[0].type != "file" or not member.isfile():
                continue
            stream = tar.extractfile(member)
            assert stream is not None
            _stage_file(stage, found[0], found[1], stream, archive)
    for action, entry in work.values():  # hard links (gateway archives): a copy of their file
        if action.type == "file" and action.entry not in stage.by_entry:
            source = next((a for a, _e, _t in planned if a.entry == entry.name), None)
            origin = stage.by_entry.get(entry.name) or (Path(source.path) if source else None)
            if origin is None:
                raise VoraError("invalid", f"{archive.name}: {action.entry} is a hard link to nothing restorable")
            with open(origin, "rb") as data:
                _stage_file(stage, action, entry, data, archive)


def _land(planned: list[tuple[RestoreAction, Entry, Target]], stage: _Stage) -> None:
    from vora_cli.core.writer import replace_with_symlink

    for staged, mtime in stage.files:
        staged.finish()
        if mtime > 0:
            os.utime(staged.temp, (mtime, mtime))
    for staged, _mtime in stage.files:
        staged.commit()
    for action, entry, _target in planned:
        if action.type == "symlink" and action.action in ("create", "replace"):
            replace_with_symlink(Path(action.path), entry.link or "")
    for folder, mode in reversed(stage.made_dirs):
        os.chmod(folder, mode)


def restore_archive(install: Install, archive: Path, *, to: Path | None = None, dry_run: bool = False,
                    force: bool = False) -> RestoreReport:
    if to is not None:
        from vora_cli.core.paths import expand_path

        to = expand_path(str(to), install.paths.home)
    report = verify_archive(archive)
    archive = report.archive_path  # absolute, as every path in vora's JSON
    _refuse_unverified(report)
    assert report.manifest is not None
    targets, skipped = choose_targets(report.manifest, to)
    planned = plan_actions(report, targets)
    actions = [a for a, _e, _t in planned]
    blocked = [a for a in actions if a.action == "blocked"]
    if blocked and not dry_run:
        raise VoraError("refused", f"{len(blocked)} path(s) cannot be restored: {_listed(blocked)} ({blocked[0].detail})",
                        "move them away first (vora backup restore --dry-run lists each); nothing was restored")
    differing = [a for a in actions if a.action == "replace"]
    if differing and not force and not dry_run:
        raise VoraError("exists", f"{len(differing)} file(s) differ from the archive: {_listed(differing)}",
                        "--dry-run shows each one; --force replaces them (a pre-restore backup of each is "
                        "written first); nothing was restored")
    running = None
    if _into_install(install, to):
        configs = [install.paths.config_path]
        recorded = report.manifest.raw.get("paths")
        if isinstance(recorded, dict) and isinstance(recorded.get("configPath"), str):
            configs.append(Path(recorded["configPath"]))
        running = gateway_running(install.effective, install.env, configs)
        if running is not None and not force and not dry_run:
            raise VoraError("refused", f"the gateway is running ({running.detail}); it would overwrite what a "
                            "restore puts back", "stop the gateway first, or pass --force; nothing was restored")
    result = RestoreReport(archive, report.format, report.hashes, dry_run, to, tuple(targets), tuple(skipped),
                           tuple(actions), None, running)
    if dry_run or not any(a.action in ("create", "replace") for a in actions):
        return result
    backup = None
    if differing:
        backup = _pre_restore_backup(install, report, [(a, t) for a, _e, t in planned if a.action == "replace"])
    stage = _Stage()
    try:
        _stage_all(archive, planned, stage)
        _land(planned, stage)
    except BaseException:
        stage.discard()
        raise
    return RestoreReport(archive, report.format, report.hashes, False, to, tuple(targets), tuple(skipped),
                         tuple(actions), backup, running)
