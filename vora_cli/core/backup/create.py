"""`vora backup create`: one `.tar.gz`, mode 0600, in the gateway's layout, every file hashed
while it is written (docs/backup.md).

The archive streams: each file is read once, in 1 MiB pieces, into gzip and sha256 at the same
time; memory does not grow with file size. The manifest, which carries every file's hash, is
the last entry (the gateway's verify finds it anywhere). The archive is written to a temp file
beside its target and linked into place only when complete, never over an existing file.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from vora_cli.core.backup.layout import SUFFIX, archive_root, manifest_path
from vora_cli.core.backup.manifest import Asset, FileRecord, Skipped, build_manifest
from vora_cli.core.backup.plan import BackupOptions, BackupPlan, SourceEntry, plan_backup, walk_asset
from vora_cli.core.clock import iso_utc
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    import tarfile
    from typing import Any

    from vora_cli.core.backup.snapshot import SourceRead
    from vora_cli.core.install import Install

# gzip level 1: ~6x the speed of level 6 (the gateway's) on bench/backup_bench.py's transcripts
# (56 vs 9 MB/s) for an archive ~40% larger (24% vs 17.5% of the data); a backup taken while the
# gateway runs should be short.
COMPRESS_LEVEL = 1
_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class BackupResult:
    """What `vora backup create` wrote (or would write, in a dry run)."""
    dry_run: bool
    archive_path: Path
    archive_root: str
    created_at: str
    options: BackupOptions
    assets: tuple[Asset, ...]
    skipped: tuple[Skipped, ...]
    files: int
    dirs: int
    links: int
    payload_bytes: int
    archive_bytes: int | None
    changed: tuple[FileRecord, ...]  # files that changed while they were read, or lost a torn tail

    def to_dict(self) -> dict[str, Any]:
        return {
            "dryRun": self.dry_run, "archivePath": str(self.archive_path), "archiveRoot": self.archive_root,
            "createdAt": self.created_at, "options": self.options.to_dict(),
            "assets": [a.to_dict() for a in self.assets], "skipped": [s.to_dict() for s in self.skipped],
            "files": self.files, "dirs": self.dirs, "links": self.links, "payloadBytes": self.payload_bytes,
            "archiveBytes": self.archive_bytes,
            "changedDuringBackup": [{"path": c.path, "changed": c.changed, "leftOut": c.left_out} for c in self.changed],
        }


def created_by() -> str:
    from vora_cli import __version__

    return f"vora {__version__}"


def platform_name() -> str:
    """The platform as the gateway's manifest names it (Node's `process.platform`)."""
    return "win32" if sys.platform.startswith("win") else sys.platform


def resolve_output(install: Install, output: str | None, root: str) -> Path:
    """The archive's path: `--output` as a file, or a folder (existing, or ending in `/`) to put
    `<root>.tar.gz` in; by default vora's own data dir (`core/userdirs.backup_dir`)."""
    from vora_cli.core.paths import expand_path

    name = root + SUFFIX
    if output is None or not output.strip():
        from vora_cli.core.userdirs import backup_dir

        return backup_dir() / name
    path = expand_path(output, install.paths.home)
    return path / name if output.rstrip().endswith("/") or path.is_dir() else path


def _check_output(path: Path, assets: tuple[Asset, ...], dry_run: bool) -> None:
    real = Path(os.path.realpath(path))
    for asset in assets:
        if real == asset.source_path or asset.source_path in real.parents:
            raise VoraError("refused", f"the archive {path} would be inside the {asset.kind} asset {asset.source_path}",
                            "write it somewhere else: vora backup create --output DIR")
    if not dry_run and os.path.lexists(path):
        raise VoraError("exists", f"{path} already exists; vora never overwrites an archive",
                        "choose another --output, or move the old archive away")


def _entries(plan: BackupPlan) -> Iterator[SourceEntry | Skipped]:
    for asset in plan.assets:
        yield from walk_asset(asset, plan)


class _Hashing:
    """A source read into the archive, hashed on the way (tarfile pulls it in 1 MiB pieces)."""

    def __init__(self, source: SourceRead) -> None:
        import hashlib

        self.source = source
        self.digest = hashlib.sha256()

    def read(self, count: int) -> bytes:
        data = self.source.read(count)
        self.digest.update(data)
        return data


def _info(name: str, kind: str, mode: int, mtime: int, size: int = 0, link: str | None = None) -> tarfile.TarInfo:
    import tarfile

    info = tarfile.TarInfo(name)
    info.type = {"file": tarfile.REGTYPE, "dir": tarfile.DIRTYPE, "symlink": tarfile.SYMTYPE}[kind]
    info.mode, info.mtime, info.size = mode, max(0, mtime), size
    info.uid = info.gid = 0  # portable, as the gateway writes them: no owner names or ids
    info.uname = info.gname = ""
    if link is not None:
        info.linkname = link
    return info


@dataclass
class _Tally:
    """Running counts of what went into an archive."""
    files: int = 0
    dirs: int = 0
    links: int = 0
    bytes: int = 0


def _add_file(tar: tarfile.TarFile, entry: SourceEntry, now_ms: int) -> FileRecord | Skipped:
    from vora_cli.core.backup.snapshot import SourceGone, open_source

    try:
        source = open_source(entry.path, entry.reading, now_ms)
    except SourceGone:
        return Skipped(entry.asset.kind, entry.path, "vanished", "removed while the backup ran")
    except PermissionError as exc:
        return Skipped(entry.asset.kind, entry.path, "unreadable", exc.strerror or "permission denied")
    try:
        hashing = _Hashing(source)
        tar.addfile(_info(entry.name, "file", entry.mode, entry.mtime, source.size), hashing)  # type: ignore[arg-type]
        change = source.change()
    finally:
        source.close()
    return FileRecord(entry.name, "file", entry.mode, source.size, hashing.digest.hexdigest(),
                      changed=change, left_out=source.left_out)


def write_archive(path: Path, root: str, items: Iterable[SourceEntry | Skipped], manifest_fields: dict[str, Any],
                  skipped: tuple[Skipped, ...], created_ms: int) -> tuple[list[FileRecord], list[Skipped], int]:
    """Write the archive at `path` (0600, never over an existing file): every entry of `items`,
    then the manifest (`manifest_fields`, the `skipped` assets and what `items` left out).
    Returns the records, what was left out on the way, and the archive's size."""
    import gzip
    import io
    import tarfile

    from vora_cli.core.writer import StagedFile

    records: list[FileRecord] = []
    left: list[Skipped] = []
    staged = StagedFile(path, 0o600)
    try:
        with gzip.GzipFile(filename="", mode="wb", fileobj=staged.handle, compresslevel=COMPRESS_LEVEL,
                           mtime=created_ms // 1000) as gz, \
                tarfile.TarFile(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT, copybufsize=_CHUNK) as tar:
            # TarFile itself, not open("w|"): its stream wrapper re-slices every 1 MiB piece in 10 KiB steps
            for item in items:
                if isinstance(item, Skipped):
                    left.append(item)
                elif item.type == "file":
                    added = _add_file(tar, item, created_ms)
                    (left if isinstance(added, Skipped) else records).append(added)  # type: ignore[arg-type]
                else:
                    tar.addfile(_info(item.name, item.type, item.mode, item.mtime, link=item.link))
                    records.append(FileRecord(item.name, item.type, item.mode if item.type == "dir" else None,
                                              target=item.link))
            data = build_manifest(files=records, skipped=(*skipped, *left), **manifest_fields)
            tar.addfile(_info(manifest_path(root), "file", 0o600, created_ms // 1000, len(data)), io.BytesIO(data))
        staged.commit(exclusive=True)
    except BaseException:
        staged.discard()
        raise
    return records, left, os.stat(path).st_size


def create_backup(install: Install, options: BackupOptions, *, output: str | None = None,
                  dry_run: bool = False) -> BackupResult:
    """Plan, then (unless `dry_run`) write the archive. A dry run walks every asset too, so it
    lists what would be left out and why, and counts what would go in."""
    created_ms = install.now_ms
    root = archive_root(created_ms)
    plan = plan_backup(install, options, created_ms, root)
    if not plan.assets:
        what = "config file" if options.only_config else "state dir, config or workspace"
        raise VoraError("not_found", f"nothing to back up: no {what} exists here ({install.paths.state_dir})",
                        "check --state-dir / --profile, or run vora config file")
    archive = resolve_output(install, output, root)
    _check_output(archive, plan.assets, dry_run)
    created_at = iso_utc(created_ms)
    tally = _Tally()
    if dry_run:
        left = []
        for item in _entries(plan):
            if isinstance(item, Skipped):
                left.append(item)
            else:
                _count(tally, item.type, item.size)
        return BackupResult(True, archive, root, created_at, options, plan.assets, (*plan.skipped, *left),
                            tally.files, tally.dirs, tally.links, tally.bytes, None, ())
    fields = {"created_at": created_at, "root": root, "created_by": created_by(), "platform": platform_name(),
              "options": options.to_dict(), "paths": plan.paths, "assets": plan.assets}
    records, left, size = write_archive(archive, root, _entries(plan), fields, plan.skipped, created_ms)
    for record in records:
        _count(tally, record.type, record.size or 0)
    changed = tuple(r for r in records if r.changed is not None or r.left_out)
    return BackupResult(False, archive, root, created_at, options, plan.assets, (*plan.skipped, *left),
                        tally.files, tally.dirs, tally.links, tally.bytes, size, changed)


def _count(tally: _Tally, kind: str, size: int) -> None:
    if kind == "file":
        tally.files += 1
        tally.bytes += size
    elif kind == "dir":
        tally.dirs += 1
    else:
        tally.links += 1
