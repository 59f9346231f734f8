"""`vora backup create`: one `.tar.gz`, mode 0600, in the gateway's layout, every file hashed while it
is written, the manifest last in a gzip member of its own (docs/backup.md, "The archive").
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from vora_cli.core.backup.layout import SUFFIX, archive_root, manifest_path
from vora_cli.core.backup.limits import CHUNK
from vora_cli.core.backup.manifest import Asset, FileRecord, Skipped, build_manifest
from vora_cli.core.backup.plan import BackupOptions, BackupPlan, SourceEntry, plan_backup, walk_asset
from vora_cli.core.clock import iso_utc
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    import tarfile
    from typing import Any

    from vora_cli.core.backup.encryption import Sealing
    from vora_cli.core.backup.snapshot import SourceRead
    from vora_cli.core.install import Install

Progress = Callable[[int, int], None]  # (bytes done, bytes in all): told as the work goes

# gzip level 1: much faster than level 6 (the gateway's) for a somewhat larger archive
# (docs/performance.md); a backup taken while the gateway runs should be short.
COMPRESS_LEVEL = 1
MANIFEST_MEMBER = "manifest.json"  # the gzip header's FNAME of the manifest's own member (listing.py)
ENCRYPTED_SUFFIX = ".age"


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
    encrypted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "dryRun": self.dry_run, "archivePath": str(self.archive_path), "archiveRoot": self.archive_root,
            "createdAt": self.created_at, "options": self.options.to_dict(),
            "assets": [a.to_dict() for a in self.assets], "skipped": [s.to_dict() for s in self.skipped],
            "files": self.files, "dirs": self.dirs, "links": self.links, "payloadBytes": self.payload_bytes,
            "archiveBytes": self.archive_bytes, "encrypted": self.encrypted,
            "changedDuringBackup": [{"path": c.path, "changed": c.changed, "leftOut": c.left_out} for c in self.changed],
        }


def created_by() -> str:
    from vora_cli import __version__

    return f"vora {__version__}"


def platform_name() -> str:
    """The platform as the gateway's manifest names it (Node's `process.platform`)."""
    return "win32" if sys.platform.startswith("win") else sys.platform


def resolve_output(install: Install, output: str | None, root: str, encrypted: bool = False) -> Path:
    """The archive's path: `--output` as a file, or a folder (existing, or ending in `/`) to put
    `<root>.tar.gz` (`.tar.gz.age` encrypted) in; by default vora's own data dir
    (`core/userdirs.backup_dir`)."""
    from vora_cli.core.paths import expand_path

    name = root + SUFFIX + (ENCRYPTED_SUFFIX if encrypted else "")
    if output is None or not output.strip():
        from vora_cli.core.userdirs import backup_dir

        return backup_dir() / name
    path = expand_path(output, install.paths.home)
    return path / name if output.rstrip().endswith("/") or path.is_dir() else path


def _check_output(path: Path, assets: tuple[Asset, ...], dry_run: bool) -> None:
    from vora_cli.core.paths import is_within

    real = os.path.realpath(path)
    for asset in assets:
        if is_within(real, str(asset.source_path)):
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

    def __init__(self, source: SourceRead, tally: _Tally) -> None:
        import hashlib

        self.source = source
        self.digest = hashlib.sha256()
        self._tally = tally

    def read(self, count: int) -> bytes:
        data = self.source.read(count)
        self.digest.update(data)
        self._tally.moved.add(len(data))
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
class Moved:
    """Bytes moved so far of about `total` (create's and restore's), told to `progress` as they go."""
    total: int = 0
    progress: Progress | None = None
    done: int = 0

    def add(self, count: int) -> None:
        self.done += count
        if self.progress is not None:
            self.progress(self.done, max(self.total, self.done))


@dataclass
class _Tally:
    """Running counts of what went into an archive, and the bytes moved so far."""
    files: int = 0
    dirs: int = 0
    links: int = 0
    bytes: int = 0
    moved: Moved = field(default_factory=Moved)


class _Members:
    """The file object tarfile writes to: the current gzip member, which `next_member` closes
    (its CRC and length written) and replaces with a new one, so the manifest gets its own."""

    def __init__(self, out: Any, created_ms: int) -> None:
        self._out = out
        self._mtime = created_ms // 1000
        self._gz = self._member("")
        self._written = 0

    def tell(self) -> int:
        return self._written

    def _member(self, name: str) -> Any:
        import gzip

        return gzip.GzipFile(filename=name, mode="wb", fileobj=self._out, compresslevel=COMPRESS_LEVEL,
                             mtime=self._mtime)

    def write(self, data: bytes) -> int:
        self._written += len(data)
        return self._gz.write(data)  # type: ignore[no-any-return]

    def next_member(self, name: str) -> None:
        self._gz.close()
        self._gz = self._member(name)

    def close(self) -> None:
        self._gz.close()


def _add_file(tar: tarfile.TarFile, entry: SourceEntry, now_ms: int, tally: _Tally) -> FileRecord | Skipped:
    from vora_cli.core.backup.snapshot import SourceGone, open_source

    try:
        source = open_source(entry.path, entry.reading, now_ms)
    except SourceGone:
        return Skipped(entry.asset.kind, entry.path, "vanished", "removed while the backup ran")
    except PermissionError as exc:
        return Skipped(entry.asset.kind, entry.path, "unreadable", exc.strerror or "permission denied")
    try:
        hashing = _Hashing(source, tally)
        tar.addfile(_info(entry.name, "file", entry.mode, entry.mtime, source.size), hashing)  # type: ignore[arg-type]
        change = source.change()
    finally:
        source.close()
    return FileRecord(entry.name, "file", entry.mode, source.size, hashing.digest.hexdigest(),
                      changed=change, left_out=source.left_out)


def write_archive(path: Path, root: str, items: Iterable[SourceEntry | Skipped], manifest_fields: dict[str, Any],
                  skipped: tuple[Skipped, ...], created_ms: int, *, sealing: Sealing | None = None,
                  progress: Progress | None = None, total: int = 0) -> tuple[list[FileRecord], list[Skipped], int]:
    """Write the archive at `path` (0600, never over an existing file): every entry of `items`,
    then the manifest (`manifest_fields`, the `skipped` assets and what `items` left out) in a
    gzip member of its own; age-encrypted when `sealing` asks. `progress` hears the bytes copied
    of about `total`. Returns the records, what was left out on the way, and the archive's size."""
    import contextlib
    import io
    import tarfile

    from vora_cli.core.writer import StagedFile, ensure_dir

    records: list[FileRecord] = []
    left: list[Skipped] = []
    tally = _Tally(moved=Moved(total, progress))
    ensure_dir(path.parent)
    staged = StagedFile(path, 0o600)
    try:
        with contextlib.ExitStack() as stack:
            sink: Any = staged.handle
            if sealing is not None and sealing.wanted:
                from vora_cli.core.backup.encryption import sealed

                sink = stack.enter_context(sealed(staged.handle, sealing))
            members = _Members(sink, created_ms)
            stack.callback(members.close)
            # TarFile itself, not open("w|"): its stream wrapper re-slices every 1 MiB piece in 10 KiB steps
            tar = stack.enter_context(tarfile.TarFile(fileobj=members, mode="w", format=tarfile.PAX_FORMAT,  # type: ignore[arg-type]
                                                      copybufsize=CHUNK))
            for item in items:
                if isinstance(item, Skipped):
                    left.append(item)
                elif item.type == "file":
                    added = _add_file(tar, item, created_ms, tally)
                    (left if isinstance(added, Skipped) else records).append(added)  # type: ignore[arg-type]
                else:
                    tar.addfile(_info(item.name, item.type, item.mode, item.mtime, link=item.link))
                    records.append(FileRecord(item.name, item.type, item.mode if item.type == "dir" else None,
                                              target=item.link))
            data = build_manifest(files=records, skipped=(*skipped, *left), **manifest_fields)
            members.next_member(MANIFEST_MEMBER)
            tar.addfile(_info(manifest_path(root), "file", 0o600, created_ms // 1000, len(data)), io.BytesIO(data))
        staged.commit(exclusive=True)
    except BaseException as exc:
        staged.discard()
        if isinstance(exc, OSError):  # a full disk, a quota, an I/O error: said, never half an archive
            raise VoraError("io_error", f"cannot write {path}: {exc.strerror or exc}; no archive was written",
                            "free some space (or choose another --output), then run the backup again") from exc
        raise
    return records, left, os.stat(path).st_size


def create_backup(install: Install, options: BackupOptions, *, output: str | None = None,
                  dry_run: bool = False, sealing: Sealing | None = None,
                  progress: Progress | None = None) -> BackupResult:
    """Plan, then (unless `dry_run`) write the archive, age-encrypted when `sealing` asks. A dry
    run walks every asset too, so it lists what would be left out and why, and counts what would
    go in. `progress` hears the bytes copied so far and the bytes the walk found."""
    created_ms = install.now_ms
    root = archive_root(created_ms)
    plan = plan_backup(install, options, created_ms, root)
    if not plan.assets:
        what = "config file" if options.only_config else "state dir, config or workspace"
        raise VoraError("not_found", f"nothing to back up: no {what} exists here ({install.paths.state_dir})",
                        "check --state-dir / --profile, or run vora config file")
    encrypted = sealing is not None and sealing.wanted
    if encrypted and sealing is not None and sealing.recipients:
        from vora_cli.core.backup.encryption import parse_recipients

        parse_recipients(sealing.recipients)  # a bad recipient is a usage error before the walk
    archive = resolve_output(install, output, root, encrypted)
    _check_output(archive, plan.assets, dry_run)
    created_at = iso_utc(created_ms)
    tally = _Tally()
    walked = list(_entries(plan))  # the walk first: its sizes are the progress's total
    if dry_run:
        left = []
        for item in walked:
            if isinstance(item, Skipped):
                left.append(item)
            else:
                _count(tally, item.type, item.size)
        return BackupResult(True, archive, root, created_at, options, plan.assets, (*plan.skipped, *left),
                            tally.files, tally.dirs, tally.links, tally.bytes, None, (), encrypted)
    fields = {"created_at": created_at, "root": root, "created_by": created_by(), "platform": platform_name(),
              "options": options.to_dict(), "paths": plan.paths, "assets": plan.assets, "had_config": plan.had_config}
    total = sum(i.size for i in walked if isinstance(i, SourceEntry) and i.type == "file")
    records, left, size = write_archive(archive, root, walked, fields, plan.skipped, created_ms, sealing=sealing,
                                        progress=progress, total=total)
    for record in records:
        _count(tally, record.type, record.size or 0)
    changed = tuple(r for r in records if r.changed is not None or r.left_out)
    return BackupResult(False, archive, root, created_at, options, plan.assets, (*plan.skipped, *left),
                        tally.files, tally.dirs, tally.links, tally.bytes, size, changed, encrypted)


def _count(tally: _Tally, kind: str, size: int) -> None:
    if kind == "file":
        tally.files += 1
        tally.bytes += size
    elif kind == "dir":
        tally.dirs += 1
    else:
        tally.links += 1
