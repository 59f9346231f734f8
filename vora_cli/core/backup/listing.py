"""`vora backup list [DIR]`: every backup archive in a folder, newest first, from its manifest alone, with
bounded work per file (docs/backup.md, "JSON").

One rule says what a backup archive is (`backup_kind`, which `security audit` uses too): a regular
file (a link is followed to one) that is an age file, or a gzip file whose first tar entry lies in
an archive root (`<root>/manifest.json` or `<root>/payload/…`).
"""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.backup.layout import PAYLOAD, is_manifest_member
from vora_cli.core.backup.manifest import MAX_MANIFEST_BYTES, Manifest, parse_manifest
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

    from vora_cli.core.backup.encryption import Keys

TAIL_SEARCH_MAX = 64 * 1024 * 1024  # where the manifest's own member is looked for, from the end
TAIL_CANDIDATES = 16  # gzip headers named manifest.json tried there, the nearest to the end first
TAIL_MARKERS = 4096  # and the "manifest.json" names looked at there, gzip headers or not
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
class Unreadable:
    """A file of the folder `list` could not read (left out, with why)."""
    path: Path
    detail: str

    def to_dict(self) -> dict[str, str]:
        return {"path": str(self.path), "detail": self.detail}


@dataclass(frozen=True)
class BackupList:
    """The archives of the backup folder (`vora backup list`)."""
    folder: Path
    exists: bool
    verified: bool
    archives: tuple[ListedArchive, ...]
    unreadable: tuple[Unreadable, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {"dir": str(self.folder), "exists": self.exists, "verified": self.verified,
                "count": len(self.archives), "archives": [a.to_dict() for a in self.archives],
                "unreadable": [u.to_dict() for u in self.unreadable]}


def _first_manifest(stream: IO[bytes], name: str, read_through: bool) -> tuple[str, Manifest | None]:
    """Tar entries of the unpacked `stream`: ('none', None) when the first is in no archive
    root; ('manifest', m) when it is the manifest (the gateway's layout); ('payload', m) for an
    archive whose manifest comes later: m is found only `read_through`."""
    import gzip
    import tarfile
    import zlib

    from vora_cli.core.backup.limits import ArchiveBomb, Checked, Counted, Expansion

    raw = Counted(stream)
    seen = "none"
    try:
        with gzip.GzipFile(fileobj=raw, mode="rb") as unpacked:  # type: ignore[call-overload]  # a counted stream
            checked = Checked(unpacked, Expansion(raw, unpacked), name)
            with tarfile.open(fileobj=checked, mode="r|") as tar:  # type: ignore[call-overload]  # a checked stream
                for member in tar:
                    checked.member = member.name
                    parts = member.name.strip("/").split("/")
                    manifest = is_manifest_member(member.name) and member.isfile()
                    if seen == "none" and not manifest and (len(parts) < 2 or parts[1] != PAYLOAD):
                        return "none", None
                    if manifest:
                        return ("manifest" if seen == "none" else "payload"), _parsed(tar, member)
                    seen = "payload"
                    if not read_through:
                        break
    except (ArchiveBomb, tarfile.TarError, EOFError, OSError, zlib.error):
        pass  # what was read stands: a damaged or hostile rest says nothing more
    return seen, None


def _parsed(tar: Any, member: Any) -> Manifest | None:
    if member.size > MAX_MANIFEST_BYTES:
        return None
    data = tar.extractfile(member)
    try:
        return parse_manifest(data.read() if data is not None else b"")
    except ValueError:
        return None


def _tail_manifest(fd: int, size: int) -> Manifest | None:
    """The manifest from the archive's last gzip member (create.py), looked for from the end: the
    window grows fourfold up to TAIL_SEARCH_MAX, each part is read and searched once, and at most
    TAIL_CANDIDATES headers are inflated, each no further than the end of the file."""
    import io
    import tarfile

    from vora_cli.core.backup.create import MANIFEST_MEMBER
    from vora_cli.core.backup.limits import MAX_RATIO, RATIO_ALLOWANCE

    marker = MANIFEST_MEMBER.encode() + b"\0"
    tail = b""
    start = size
    tried = looked = 0
    window = _FIRST_TAIL
    while start > 0 and tried < TAIL_CANDIDATES and looked < TAIL_MARKERS:
        new_start = max(0, size - window)
        tail = os.pread(fd, start - new_start, new_start) + tail
        # headers that begin in the new part (the name sits 10 bytes after a header's start)
        at = tail.rfind(marker, 0, start - new_start + 9 + len(marker))
        while at >= 10 and tried < TAIL_CANDIDATES and looked < TAIL_MARKERS:
            looked += 1
            head = at - 10
            if tail.startswith(b"\x1f\x8b\x08\x08", head):
                tried += 1
                packed = len(tail) - head
                unpacked = _inflate_member(memoryview(tail)[head:], min(MAX_MANIFEST_BYTES + 64 * 1024,
                                                                         max(RATIO_ALLOWANCE, MAX_RATIO * packed)))
                if unpacked is not None:
                    try:
                        with tarfile.open(fileobj=io.BytesIO(unpacked), mode="r|") as tar:
                            member = next(iter(tar), None)
                            return _parsed(tar, member) if member is not None and is_manifest_member(member.name) \
                                and member.isfile() else None
                    except (tarfile.TarError, EOFError):
                        return None
            at = tail.rfind(marker, 0, at + len(marker) - 1)
        start = new_start
        if window >= TAIL_SEARCH_MAX:
            break
        window *= 4
    return None


def _inflate_member(data: memoryview, cap: int) -> bytes | None:
    """One whole gzip member that ends exactly at the end of `data`, unpacked, or None (not one,
    damaged, or past `cap` bytes: a bomb is not unpacked)."""
    import zlib

    from vora_cli.core.backup.limits import CHUNK

    inflater = zlib.decompressobj(wbits=31)
    out = bytearray()
    done = 0
    try:
        while done < len(data) and not inflater.eof:
            piece = data[done:done + CHUNK]
            done += len(piece)
            out += inflater.decompress(piece, cap + 1 - len(out))
            if inflater.unconsumed_tail or len(out) > cap:
                return None
    except zlib.error:
        return None
    if not inflater.eof or inflater.unused_data or done != len(data):
        return None
    return bytes(out)


def _look(path: Path, keys: Keys | None, summary: bool) -> tuple[str, Manifest | None, bool] | None:
    """(format, manifest, encrypted) of a backup archive, None for any other file; without
    `summary`, only as much as says whether it is one."""
    from vora_cli.core.backup.encryption import AGE_ARMOR, open_archive, open_regular, sniff

    try:
        fd, size = open_regular(path)
    except VoraError as error:
        if error.code in ("invalid", "not_found"):  # a folder, a FIFO, a device, a dangling link
            return None
        raise
    try:
        kind = sniff(os.pread(fd, len(AGE_ARMOR), 0))
        if kind is None:
            return None
        if kind != "gzip":
            if not summary or keys is None or not keys.given or kind == "age-armored":
                return "encrypted", None, True
            with open_archive(path, keys) as opened:
                found, manifest = _first_manifest(opened.stream, path.name, read_through=True)
            return None if found == "none" else (_format(manifest), manifest, True)
        with os.fdopen(os.dup(fd), "rb") as stream:
            found, manifest = _first_manifest(stream, path.name, read_through=False)
        if found == "none":
            return None
        if found == "payload" and summary:
            manifest = _tail_manifest(fd, size)
        return _format(manifest), manifest, False
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)


def backup_kind(path: Path) -> str | None:
    """The one rule for "is this a backup archive" (see the module docstring): `encrypted` (an age
    file), `archive` (a gzip file whose first entry lies in an archive root), or None. Raises
    VoraError `io_error` when the file cannot be read."""
    found = _look(path, None, summary=False)
    return None if found is None else "encrypted" if found[2] else "archive"


def _format(manifest: Manifest | None) -> str:
    if manifest is None:
        return "unknown"
    return "vora" if manifest.has_hashes else "gateway"


def _listed(path: Path, keys: Keys | None, verify: bool) -> ListedArchive | None:
    from vora_cli.core.clock import iso_utc

    if verify and backup_kind(path) is None:
        return None
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
        first = f"{report.problems[0].path}: {report.problems[0].problem}" if report.problems else None
        assets = tuple(a.kind for a in report.manifest.assets) if report.manifest else ()
        return ListedArchive(path, report.created_at, modified, report.archive_bytes, report.file_count,
                             report.payload_bytes, assets, report.format, report.encrypted, True, report.ok,
                             report.hashes, len(report.problems), first)
    try:
        found = _look(path, keys, summary=True)
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
    """Every backup archive in `folder` (not below it), newest first; `verify` reads every hash.
    A file that cannot be read is left out and named (`unreadable`); the others are listed."""
    folder = Path(os.path.abspath(folder))  # every path in vora's JSON is absolute
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return BackupList(folder, False, verify, ())
    except NotADirectoryError:
        raise VoraError("invalid", f"{folder} is a file, not a folder",
                        f"{command_line('vora', 'backup', 'verify', folder)} checks one archive") from None
    listed = []
    unreadable = []
    for name in sorted(names):
        if name.startswith("."):
            continue  # a temp file of a write in progress
        path = folder / name
        try:
            found = _listed(path, keys, verify)
        except VoraError as error:
            unreadable.append(Unreadable(path, error.message))
            continue
        except OSError as exc:
            unreadable.append(Unreadable(path, f"cannot read {path}: {exc.strerror or exc}"))
            continue
        if found is not None:
            listed.append(found)
    listed.sort(key=lambda a: (a.created_at or a.modified_at, a.path.name), reverse=True)
    return BackupList(folder, True, verify, tuple(listed), tuple(unreadable))
