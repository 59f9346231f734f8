"""`vora backup verify`: one streamed pass checks the archive's structure, its manifest, and every file's
sha256, size and mode; a gateway archive carries no hashes (docs/backup.md, "What verify checks").
"""

from __future__ import annotations

import posixpath
from pathlib import Path

from vora_cli.core.backup.layout import MANIFEST_NAME, PAYLOAD, is_manifest_member
from vora_cli.core.backup.limits import CHUNK, MAX_ENTRIES, Expansion, hash_stream
from vora_cli.core.backup.manifest import (
    MAX_MANIFEST_BYTES,
    Manifest,
    asset_problems,
    mode_text,
    parse_manifest,
    wide_mode,
)
from vora_cli.core.errors import VoraError
from vora_cli.core.json_data import CamelJson
from vora_cli.core.paths import is_within
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    import tarfile
    from typing import Any

    from vora_cli.core.backup.encryption import Keys
    from vora_cli.core.backup.layout import PathIndex
    from vora_cli.core.backup.manifest import Asset

NO_HASHES = "structure only: this archive carries no hashes"
NAME_MAX = 255  # the longest file name (in bytes) Linux and macOS file systems store


@dataclass(frozen=True)
class Problem(CamelJson):
    """One difference between an archive and its manifest."""
    path: str
    problem: str  # changed, size, mode, type, missing, extra, link-target, traversal, absolute, link-out, device, ...
    detail: str


@dataclass(frozen=True)
class Entry:
    """One archive entry as read: what restore needs without reading the archive again."""

    name: str  # normalised (no trailing "/")
    type: str  # file | dir | symlink | hardlink
    mode: int
    size: int = 0
    sha256: str | None = None
    link: str | None = None
    mtime: int = 0


@dataclass(frozen=True)
class VerifyReport:
    """What `vora backup verify` found in an archive."""
    archive_path: Path
    archive_bytes: int
    archive_root: str | None
    created_at: str | None
    created_by: str | None
    hashes: bool
    asset_count: int
    entry_count: int
    file_count: int
    payload_bytes: int
    problems: tuple[Problem, ...]
    encrypted: bool = False
    manifest: Manifest | None = field(default=None, compare=False)
    entries: dict[str, Entry] = field(default_factory=dict, compare=False)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def format(self) -> str:
        if self.manifest is None:
            return "unknown"
        return "vora" if self.hashes else "gateway"

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok, "archivePath": str(self.archive_path), "archiveBytes": self.archive_bytes,
            "archiveRoot": self.archive_root, "createdAt": self.created_at, "createdBy": self.created_by,
            "format": self.format, "encrypted": self.encrypted, "hashes": self.hashes,
            "note": None if self.hashes else NO_HASHES,
            "assetCount": self.asset_count, "entryCount": self.entry_count, "fileCount": self.file_count,
            "payloadBytes": self.payload_bytes, "problems": [p.to_dict() for p in self.problems],
        }


@dataclass
class _Scan:
    """What a pass over an archive's entries collects."""
    archive: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    manifests: list[str] = field(default_factory=list)
    manifest_data: bytearray | None = None
    count: int = 0
    expansion: Expansion | None = None

    def problem(self, path: str, kind: str, detail: str) -> None:
        self.problems.append(Problem(path, kind, detail))


def _gateway_name_rules(name: str) -> tuple[str | None, str]:
    """The gateway's `normalizeArchivePath`: (problem code or None, the normalised name)."""
    trimmed = name.strip().rstrip("/")
    if not trimmed:
        return "invalid-name", trimmed
    if "\\" in trimmed:
        return "invalid-name", trimmed
    if any(part in (".", "..") for part in trimmed.split("/")):
        return "traversal", trimmed
    return None, posixpath.normpath(trimmed)


def _read_member(scan: _Scan, tar: tarfile.TarFile, member: tarfile.TarInfo) -> None:
    from vora_cli.core.plugins.archive import UnsafeEntry, check_tar_member

    scan.count += 1
    if scan.count > MAX_ENTRIES:
        raise VoraError("refused", f"{scan.archive.name} has more than {MAX_ENTRIES:,} entries",
                        "this is not a backup vora wrote; nothing was read further")
    probe = member
    if member.issym():  # its target is judged where it resolves (containment.py), not by its spelling
        import tarfile

        probe = tarfile.TarInfo(member.name)
        probe.type, probe.mode, probe.linkname = tarfile.SYMTYPE, member.mode, "."
    try:
        checked = check_tar_member(scan.archive, probe)
    except UnsafeEntry as refused:
        scan.problem(member.name, refused.why, refused.reason)
        return
    code, name = _gateway_name_rules(member.name)
    if code is not None:
        scan.problem(member.name, code, "the gateway refuses this entry name")
        return
    if name in scan.entries:
        scan.problem(name, "duplicate", "appears twice in the archive")
        return
    longest = max(len(part.encode("utf-8", "surrogateescape")) for part in name.split("/"))
    if longest > NAME_MAX:
        scan.problem(name, "name-too-long", f"holds a name of {longest} bytes: file systems store at most {NAME_MAX}")
    if checked.type in ("file", "dir") and wide_mode(member.mode):
        scan.problem(name, "mode", f"mode {mode_text(member.mode)}: setuid, setgid, sticky and world-writable "
                     "modes are never restored")
    expansion = scan.expansion
    if expansion is not None:
        expansion.declare(name, member.size if checked.type == "file" else 0)
    if checked.type == "file":
        stream = tar.extractfile(member)
        if stream is None:  # pragma: no cover - a regular member always has a stream
            scan.problem(name, "unreadable", "cannot be read")
            return
        keep: bytearray | None = None
        if is_manifest_member(name):
            scan.manifests.append(name)
            if member.size <= MAX_MANIFEST_BYTES:
                keep = bytearray()
        digest, size = hash_stream(stream, keep.extend if keep is not None else None,
                                   (lambda: expansion.check(name)) if expansion is not None else None)
        if keep is not None:
            scan.manifest_data = keep
        entry = Entry(name, "file", member.mode, size, digest, mtime=int(member.mtime))
    else:
        link = member.linkname if checked.type == "symlink" else checked.link if checked.type == "hardlink" else None
        entry = Entry(name, checked.type, member.mode, link=link, mtime=int(member.mtime))
    scan.entries[name] = entry
    scan.order.append(name)


def _scan(archive: Path, keys: Keys | None) -> tuple[_Scan, bool]:
    import gzip
    import tarfile
    import zlib

    from vora_cli.core.backup.encryption import open_archive
    from vora_cli.core.backup.limits import ArchiveBomb, Checked, Counted

    scan = _Scan(archive)
    encrypted = False
    try:
        # gzip's own reader, not tarfile's "r|gz": that one never checks the stream's CRC-32 and
        # length, and stops at the tar's end marker, so a flipped bit in a member's padding or in
        # the trailer passed as intact. Read to the end, every damaged byte is found.
        with open_archive(archive, keys) as opened:
            encrypted = opened.encrypted
            raw = Counted(opened.stream)
            try:
                with gzip.GzipFile(fileobj=raw, mode="rb") as stream:  # type: ignore[call-overload]  # a counted stream
                    scan.expansion = Expansion(raw, stream)
                    checked = Checked(stream, scan.expansion, archive.name)
                    with tarfile.open(fileobj=checked, mode="r|") as tar:  # type: ignore[call-overload]  # a checked stream
                        for member in tar:
                            checked.member = member.name
                            _read_member(scan, tar, member)
                    while stream.read(CHUNK):
                        scan.expansion.check(archive.name)  # the tar's end marker, padding, then gzip's CRC and length
            except ArchiveBomb as bomb:
                scan.problem(bomb.member, "bomb", bomb.detail)
            except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
                # a damaged gzip stream (CRC, truncation) or tar header: the entries read so far stand
                failure = opened.failure()
                detail = f"the encrypted stream does not decrypt: {failure}" if failure else f"the archive is damaged: {exc}"
                scan.problem(archive.name, "unreadable", detail)
            else:
                failure = opened.failure()
                if failure:
                    scan.problem(archive.name, "unreadable", f"the encrypted stream does not decrypt: {failure}")
    except VoraError:
        raise  # no archive there, not a regular file, not decryptable (encryption.open_archive)
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {archive}: {exc.strerror or exc}") from exc
    return scan, encrypted


def _check_layout(scan: _Scan, manifest: Manifest) -> None:
    """The gateway's `verifyManifestAgainstEntries`, plus vora's: the assets' own rules
    (manifest.asset_problems), no two names that one case-insensitive file system reads as one,
    and every link judged where the kernel would resolve it."""
    from vora_cli.core.backup.containment import fold, owners

    root = manifest.archive_root
    if "/" in root.strip("/") or root in (".", ".."):
        scan.problem(root, "manifest", "archiveRoot must be a single folder name")
    payload = f"{root}/{PAYLOAD}"
    index = owners(manifest.assets)
    held: set[str] = set()
    later: list[Problem] = []
    folded: dict[str, str] = {}
    for name in scan.order:
        if not is_within(name, root):
            scan.problem(name, "outside-root", f"is outside the archive root {root}")
        found = index.along(name)
        held.update(a.archive_path for a in found)
        if not found and is_within(name, payload):
            later.append(Problem(name, "extra", "is in no asset of the manifest"))
        first = folded.setdefault(fold(name), name)
        if first != name:
            later.append(Problem(name, "case-clash", f"differs from {first} only by case or Unicode form: one name "
                                 "on a case-insensitive file system (macOS)"))
    for asset in manifest.assets:
        code, path = _gateway_name_rules(asset.archive_path)
        if code is not None or not is_within(path, payload):
            scan.problem(asset.archive_path, "manifest", f"the {asset.kind} asset lies outside {payload}")
        elif asset.archive_path not in held:
            scan.problem(path, "missing", f"the {asset.kind} asset {asset.source_path} has nothing in the archive")
    for path, code, detail in asset_problems(manifest):
        scan.problem(path, code, detail)
    scan.problems += later
    _check_links(scan, manifest, index)


def _check_links(scan: _Scan, manifest: Manifest, index: PathIndex[Asset]) -> None:
    """No entry below a link of the archive; every link contained once every other link of the
    archive exists (core/backup/containment.py); hard links name a file of the archive."""
    from vora_cli.core.backup.containment import (
        absolute,
        archive_namespace,
        below_link,
        expected_config,
        holds_file,
        judge_link,
    )

    links = {name for name in scan.order if scan.entries[name].type == "symlink"}
    for name in scan.order:
        under = below_link(name, links) if links else None
        if under is not None:
            scan.problem(name, "below-link", f"lies below {under}, a link of the same archive")
        entry = scan.entries[name]
        if entry.type == "hardlink":
            source = scan.entries.get((entry.link or "").rstrip("/"))
            if source is None or source.type != "file":
                scan.problem(name, "link-out", f"a hard link to {entry.link}, which is not a file of the archive")
    namespace = archive_namespace(scan.entries, index)
    roots = [str(a.source_path) for a in manifest.assets]
    for name in links:
        owner = index.deepest(name)
        if owner is None:
            continue
        judged = judge_link(namespace, absolute(name, owner), str(owner.source_path), roots)
        if judged is not None:
            scan.problem(name, *judged)
    try:
        config = expected_config(manifest)
    except ValueError as exc:
        scan.problem(scan.manifests[0] if scan.manifests else scan.archive.name, "manifest", str(exc))
        return
    if config is not None and not holds_file(namespace, scan.entries, manifest, config):
        scan.problem(config, "missing", "the manifest says the install had this config file; the archive holds none")


def _check_files(scan: _Scan, manifest: Manifest) -> None:
    """Every entry against its record: each changed byte, missing or extra file is named."""
    records = {r.path: r for r in manifest.files or ()}
    manifest_name = f"{manifest.archive_root}/{MANIFEST_NAME}"
    for path, record in records.items():
        entry = scan.entries.get(path)
        if entry is None:
            scan.problem(path, "missing", f"the manifest lists this {record.type}; the archive does not hold it")
        elif entry.type != record.type:
            scan.problem(path, "type", f"the manifest says {record.type}, the archive holds a {entry.type}")
        elif record.type == "file" and entry.size != record.size:
            scan.problem(path, "size", f"{entry.size:,} bytes, the manifest says {record.size:,}")
        elif record.type == "file" and entry.sha256 != record.sha256:
            scan.problem(path, "changed", f"sha256 {entry.sha256}, the manifest says {record.sha256}")
        elif record.type == "symlink" and entry.link != record.target:
            scan.problem(path, "link-target", f"points to {entry.link}, the manifest says {record.target}")
        elif record.mode is not None and entry.mode & 0o7777 != record.mode:
            scan.problem(path, "mode", f"mode {mode_text(entry.mode)}, the manifest says {mode_text(record.mode)}")
    for name in scan.order:
        if name not in records and name != manifest_name:
            scan.problem(name, "extra", "is in the archive but not in the manifest")


def verify_archive(archive: Path, keys: Keys | None = None) -> VerifyReport:
    """Check `archive` (decrypted with `keys` when it is encrypted); a problem found is in the
    report (`ok` false), not raised. Raises only when there is no archive to read (`not_found`,
    `io_error`), or an encrypted one without the key that opens it (`refused`, `invalid`)."""
    import os

    archive = Path(os.path.abspath(archive))  # every path in vora's JSON is absolute
    scan, encrypted = _scan(archive, keys)
    size = os.stat(archive).st_size
    manifest: Manifest | None = None
    if not scan.order and not scan.problems:
        scan.problem(archive.name, "empty", "the archive holds no entries")
    if len(scan.manifests) != 1:
        scan.problem(archive.name, "manifest",
                     f"expected exactly one <root>/{MANIFEST_NAME}, found {len(scan.manifests)}")
    elif scan.manifest_data is None and scan.manifests[0] not in scan.entries:  # its reading stopped
        scan.problem(scan.manifests[0], "manifest", "the archive ends inside the manifest (truncated or damaged)")
    elif scan.manifest_data is None:
        scan.problem(scan.manifests[0], "manifest", f"over the {MAX_MANIFEST_BYTES // 2**20} MiB limit for a manifest")
    else:
        data, scan.manifest_data = scan.manifest_data, None
        try:
            manifest = parse_manifest(data)
        except ValueError as exc:
            scan.problem(scan.manifests[0], "manifest", str(exc))
        del data
    if manifest is not None:
        if scan.manifests[0] != f"{manifest.archive_root.rstrip('/')}/{MANIFEST_NAME}":
            scan.problem(scan.manifests[0], "manifest", f"archiveRoot {manifest.archive_root!r} is not its folder")
        _check_layout(scan, manifest)
        if manifest.has_hashes:
            _check_files(scan, manifest)
    files = [e for e in scan.entries.values() if e.type == "file" and e.name not in scan.manifests]
    return VerifyReport(
        archive, size, manifest.archive_root if manifest else None, manifest.created_at if manifest else None,
        manifest.created_by if manifest else None, bool(manifest and manifest.has_hashes),
        len(manifest.assets) if manifest else 0, scan.count, len(files), sum(e.size for e in files),
        tuple(scan.problems), encrypted, manifest, scan.entries)
