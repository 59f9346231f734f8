"""`vora backup list [DIR]`: every backup archive in a folder (default: vora's backup dir),
whatever its file name, newest first, from its manifest alone (`--verify` reads every hash).

An archive is known by its content, not its name: a gzip file whose first tar entry lies in an
archive root (`<root>/manifest.json` or `<root>/payload/…`), or an age file (encrypted: read
with `--identity`, else listed as encrypted). vora writes its manifest in the last gzip member
of its own (create.py), so `list` reads it from the end of the file: a look at the tail,
however big the archive. The gateway writes its manifest first. An archive of an older vora
is read through once, its data unhashed. Every read is held to the archive-bomb limits.
"""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.backup.manifest import MAX_MANIFEST_BYTES, Manifest, parse_manifest
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

    from vora_cli.core.backup.encryption import Keys

GZIP_MAGIC = b"\x1f\x8b"
TAIL_SEARCH_MAX = 64 * 1024 * 1024  # where the manifest's own member is looked for, from the end
_FIRST_TAIL = 256 * 1024


@dataclass(frozen=True)
class ListedArchive:
    """One archive found in the backup folder, as `backup list` shows it."""
    path: Path
    created_at: str | None
    modified_at: str
    bytes: int
    files: int | None
    payload_bytes: int | None
    assets: tuple[str, ...]
    format: str  # vora | gateway | encrypted | unknown
    encrypted: bool
    verified: bool
    ok: bool | None  # None: not verified (no --verify), or not readable without its key
    hashes: bool
    problems: int
    first_problem: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "name": self.path.name, "createdAt": self.created_at,
                "modifiedAt": self.modified_at, "bytes": self.bytes, "fileCount": self.files,
                "payloadBytes": self.payload_bytes, "assets": list(self.assets), "format": self.format,
                "encrypted": self.encrypted, "verified": self.verified, "ok": self.ok, "hashes": self.hashes,
                "problems": self.problems, "firstProblem": self.first_problem}


@dataclass(frozen=True)
class BackupList:
    """The archives of the backup folder (`vora backup list`)."""
    folder: Path
    exists: bool
    verified: bool
    archives: tuple[ListedArchive, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"dir": str(self.folder), "exists": self.exists, "verified": self.verified,
                "count": len(self.archives), "archives": [a.to_dict() for a in self.archives]}


def _manifest_from_tar(data: IO[bytes], limit_member: str) -> tuple[str, Manifest | None, bool]:
    """Read tar entries from `data` until the manifest: ('manifest', parsed or None, _) when it is
    found, ('payload', None, _) when the first entry is payload (the manifest comes later),
    ('none', None, _) when this is no backup archive. The bool: an archive root was seen."""
    import tarfile

    with tarfile.open(fileobj=data, mode="r|") as tar:
        for member in tar:
            parts = member.name.strip("/").split("/")
            if len(parts) == 2 and parts[1] == "manifest.json" and member.isfile():
                if member.size > MAX_MANIFEST_BYTES:
                    return "manifest", None, True
                stream = tar.extractfile(member)
                raw = stream.read() if stream is not None else b""
                try:
                    return "manifest", parse_manifest(raw), True
                except ValueError:
                    return "manifest", None, True
            if len(parts) >= 2 and parts[1] == "payload":
                return "payload", None, True
            return "none", None, False
    return "none", None, False


def _tail_manifest(path: Path, size: int) -> Manifest | None:
    """The manifest from the archive's last gzip member (create.py), read from the end."""
    import io

    from vora_cli.core.backup.create import MANIFEST_MEMBER
    from vora_cli.core.backup.limits import MAX_RATIO, RATIO_ALLOWANCE

    marker = MANIFEST_MEMBER.encode() + b"\0"
    with open(path, "rb") as handle:
        window = _FIRST_TAIL
        while True:
            start = max(0, size - window)
            handle.seek(start)
            tail = handle.read(size - start)
            at = tail.rfind(marker)
            while at >= 10:
                head = at - 10
                if tail[head:head + 4] == b"\x1f\x8b\x08\x08":
                    unpacked = _inflate_member(tail[head:], MAX_MANIFEST_BYTES + 64 * 1024,
                                               max(RATIO_ALLOWANCE, MAX_RATIO * (len(tail) - head)))
                    if unpacked is not None:
                        kind, manifest, _root = _manifest_from_tar(io.BytesIO(unpacked), path.name)
                        return manifest if kind == "manifest" else None
                at = tail.rfind(marker, 0, at)
            if start == 0 or window >= TAIL_SEARCH_MAX:
                return None
            window *= 4


def _inflate_member(data: bytes, cap: int, ratio_cap: int) -> bytes | None:
    """One whole gzip member that ends exactly at the end of `data`, unpacked, or None (not one,
    damaged, or past `cap` / `ratio_cap` bytes: a bomb is not unpacked)."""
    import zlib

    inflater = zlib.decompressobj(wbits=31)
    try:
        out = inflater.decompress(data, min(cap, ratio_cap) + 1)
    except zlib.error:
        return None
    if len(out) > min(cap, ratio_cap) or not inflater.eof or inflater.unused_data or inflater.unconsumed_tail:
        return None
    return out


def _read_head(path: Path, keys: Keys | None) -> tuple[str, Manifest | None]:
    """From the start of the archive: ('manifest', m) for the gateway's layout, ('payload', m) for
    an archive whose manifest is last (read through, unhashed), ('none', None) for no backup."""
    import gzip
    import tarfile
    import zlib

    from vora_cli.core.backup.encryption import open_archive
    from vora_cli.core.backup.limits import ArchiveBomb, Counted, Expansion

    try:
        with open_archive(path, keys) as opened:
            raw = Counted(opened.stream)
            with gzip.GzipFile(fileobj=raw, mode="rb") as stream:  # type: ignore[call-overload]  # a counted stream
                expansion = Expansion(raw, stream)
                with tarfile.open(fileobj=stream, mode="r|") as tar:
                    manifest = None
                    first = True
                    for member in tar:
                        expansion.declare(member.name, member.size)
                        expansion.check(member.name)
                        parts = member.name.strip("/").split("/")
                        is_manifest = len(parts) == 2 and parts[1] == "manifest.json" and member.isfile()
                        if first and not is_manifest and (len(parts) < 2 or parts[1] != "payload"):
                            return "none", None
                        if is_manifest and member.size <= MAX_MANIFEST_BYTES:
                            data = tar.extractfile(member)
                            try:
                                manifest = parse_manifest(data.read() if data is not None else b"")
                            except ValueError:
                                manifest = None
                            return ("manifest" if first else "payload"), manifest
                        first = False
                    return ("none" if first else "payload"), manifest
    except (ArchiveBomb, tarfile.TarError, EOFError, OSError, zlib.error):
        return "none", None


def _summary(path: Path, keys: Keys | None) -> tuple[str, Manifest | None, bool] | None:
    """(format, manifest, encrypted) of a backup archive, None for any other file."""
    from vora_cli.core.backup.encryption import AGE_MAGIC

    size = os.stat(path).st_size
    with open(path, "rb") as handle:
        head = handle.read(len(AGE_MAGIC))
    if head == AGE_MAGIC:
        if keys is None or not keys.given:
            return "encrypted", None, True
        kind, manifest = _read_head(path, keys)
        return None if kind == "none" else (_format(manifest), manifest, True)
    if not head.startswith(GZIP_MAGIC):
        return None
    manifest = _tail_manifest(path, size)
    if manifest is not None:
        return _format(manifest), manifest, False
    kind, manifest = _read_head(path, None)
    return None if kind == "none" else (_format(manifest), manifest, False)


def is_backup_archive(path: Path) -> bool:
    """Whether the file at `path` is a backup archive, by its first bytes (and, for gzip, its first
    tar entry): an age file counts, since it cannot be looked into without its key."""
    import gzip
    import tarfile
    import zlib

    from vora_cli.core.backup.encryption import AGE_MAGIC

    try:
        if os.path.islink(path) or not path.is_file():
            return os.path.islink(path) and path.name.endswith((".tar.gz", ".tar.gz.age"))
        with open(path, "rb") as handle:
            head = handle.read(len(AGE_MAGIC))
            if head == AGE_MAGIC:
                return True
            if not head.startswith(GZIP_MAGIC):
                return False
            handle.seek(0)
            with gzip.GzipFile(fileobj=handle, mode="rb") as stream, tarfile.open(fileobj=stream, mode="r|") as tar:
                first = next(iter(tar), None)
    except (OSError, EOFError, tarfile.TarError, zlib.error):
        return False
    parts = first.name.strip("/").split("/") if first is not None else []
    return len(parts) >= 2 and parts[1] in ("manifest.json", "payload")


def _format(manifest: Manifest | None) -> str:
    if manifest is None:
        return "unknown"
    return "vora" if manifest.has_hashes else "gateway"


def _listed(path: Path, keys: Keys | None, verify: bool) -> ListedArchive | None:
    from vora_cli.core.clock import iso_utc

    info = os.stat(path)
    modified = iso_utc(int(info.st_mtime * 1000))
    if verify:
        from vora_cli.core.backup.verify import verify_archive

        try:
            report = verify_archive(path, keys)
        except VoraError as error:
            if error.code not in ("refused", "invalid"):  # an archive its key does not open is listed as such
                raise
            return _locked(path, modified, info.st_size)
        if report.manifest is None and not report.entries:
            return None
        first = f"{report.problems[0].path}: {report.problems[0].problem}" if report.problems else None
        assets = tuple(a.kind for a in report.manifest.assets) if report.manifest else ()
        return ListedArchive(path, report.created_at, modified, report.archive_bytes, report.file_count,
                             report.payload_bytes, assets, report.format, report.encrypted, True, report.ok,
                             report.hashes, len(report.problems), first)
    try:
        found = _summary(path, keys)
    except VoraError as error:
        if error.code not in ("refused", "invalid"):
            raise
        return _locked(path, modified, info.st_size)
    if found is None:
        return None
    fmt, manifest, encrypted = found
    files = payload = None
    if manifest is not None and manifest.files is not None:
        records = [r for r in manifest.files if r.type == "file"]
        files, payload = len(records), sum(r.size or 0 for r in records)
    return ListedArchive(path, manifest.created_at if manifest else None, modified, info.st_size, files, payload,
                         tuple(a.kind for a in manifest.assets) if manifest else (), fmt, encrypted, False, None,
                         bool(manifest and manifest.has_hashes), 0, None)


def _locked(path: Path, modified: str, size: int) -> ListedArchive:
    """An encrypted archive the given key (if any) does not open: listed, unread."""
    return ListedArchive(path, None, modified, size, None, None, (), "encrypted", True, False, None, False, 0, None)


def list_archives(folder: Path, *, verify: bool = False, keys: Keys | None = None) -> BackupList:
    """Every backup archive in `folder` (not below it), newest first; `verify` reads every hash."""
    folder = Path(os.path.abspath(folder))  # every path in vora's JSON is absolute
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return BackupList(folder, False, verify, ())
    except NotADirectoryError:
        raise VoraError("invalid", f"{folder} is a file, not a folder",
                        f"{command_line('vora', 'backup', 'verify', folder)} checks one archive") from None
    listed = []
    for name in names:
        path = folder / name
        if name.startswith(".") or path.is_symlink() or not path.is_file():
            continue  # a temp file of a write in progress, or not an archive of this folder's
        found = _listed(path, keys, verify)
        if found is not None:
            listed.append(found)
    listed.sort(key=lambda a: (a.created_at or a.modified_at, a.path.name), reverse=True)
    return BackupList(folder, True, verify, tuple(listed))
