"""Archives are hostile until proven otherwise (docs/plugins.md, "Hostile archives").

Why one module: the checks of every header and the extraction they guard are one rule.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import is_within
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    import tarfile
    import zipfile
    from typing import IO

MAX_ENTRIES = 50_000
MAX_TOTAL_BYTES = 512 * 1024 * 1024
MAX_ENTRY_BYTES = 256 * 1024 * 1024
_CHUNK = 1024 * 1024
_DRIVE = re.compile(r"^[A-Za-z]:")


def archive_format(path: Path) -> str | None:
    """`zip`, `tar` (any compression) or None, from the file name."""
    name = path.name.lower()
    if name.endswith(".zip"):
        return "zip"
    if name.endswith((".tar.gz", ".tgz", ".tar")):
        return "tar"
    return None


@dataclass(frozen=True)
class ArchiveEntry:
    """One checked header: a normalised relative name and what to create."""

    name: str  # as written in the archive
    path: str  # normalised, relative, "/"-separated, no "." parts
    type: str  # "file", "dir", "symlink", "hardlink"
    size: int
    mode: int
    link: str | None = None  # symlink target as written / hardlink's normalised source path


class UnsafeEntry(VoraError):
    """An entry the rules refuse: `entry` as written, `why` a stable code (`absolute`, `traversal`,
    `nul`, `device`, `fifo`, `socket`, `link-out`, `unsupported`; `unsafe` for the limits) and
    `reason` the words after the name. Backup verification reports these entry by entry."""

    def __init__(self, archive: Path, entry: str, reason: str, why: str) -> None:
        super().__init__("refused", f"refusing archive {archive.name}: entry {entry!r} {reason}",
                         "the archive is unsafe; nothing was installed and nothing was written outside the staging dir")
        self.entry = entry
        self.reason = reason
        self.why = why


def _refuse(archive: Path, entry: str, why: str, code: str = "unsafe") -> UnsafeEntry:
    return UnsafeEntry(archive, entry, why, code)


def _normalise(archive: Path, name: str) -> str:
    if "\x00" in name:
        raise _refuse(archive, name, "has a NUL byte in its name", "nul")
    unified = name.replace("\\", "/")
    if unified.startswith("/") or _DRIVE.match(unified):
        raise _refuse(archive, name, "has an absolute path", "absolute")
    parts = [part for part in unified.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise _refuse(archive, name, "contains '..'", "traversal")
    return "/".join(parts)


def check_link_target(archive: Path, entry: ArchiveEntry, target: str, kind: str, within: str = "") -> None:
    """A link must name a relative path that stays inside the archive root, or inside the
    folder `within` (a normalised path in the archive) when one is given."""
    unified = target.replace("\\", "/")
    if not unified or unified.startswith("/") or _DRIVE.match(unified):
        raise _refuse(archive, entry.name, f"is a {kind} to an absolute path ({target})", "link-out")
    base = posixpath.dirname(entry.path) if kind == "symlink" else ""
    resolved = posixpath.normpath(posixpath.join(base, unified))
    if within:
        if not is_within(resolved, within):
            raise _refuse(archive, entry.name, f"is a {kind} pointing outside {within} ({target})", "link-out")
    elif resolved == ".." or resolved.startswith("../"):
        raise _refuse(archive, entry.name, f"is a {kind} pointing outside the archive root ({target})", "link-out")


def check_tar_member(archive: Path, member: tarfile.TarInfo) -> ArchiveEntry:
    """One tar header checked by the rules above (raises `UnsafeEntry`), as an `ArchiveEntry`."""
    name = member.name
    path = _normalise(archive, name)
    if member.ischr() or member.isblk():
        raise _refuse(archive, name, "is a device file", "device")
    if member.isfifo():
        raise _refuse(archive, name, "is a FIFO", "fifo")
    if member.issym():
        entry = ArchiveEntry(name, path, "symlink", 0, member.mode, member.linkname)
        check_link_target(archive, entry, member.linkname, "symlink")
    elif member.islnk():
        entry = ArchiveEntry(name, path, "hardlink", 0, member.mode, None)
        check_link_target(archive, entry, member.linkname, "hard link")
        entry = ArchiveEntry(name, path, "hardlink", 0, member.mode, _normalise(archive, member.linkname))
    elif member.isdir():
        entry = ArchiveEntry(name, path, "dir", 0, member.mode)
    elif member.isfile():
        entry = ArchiveEntry(name, path, "file", member.size, member.mode)
    else:
        raise _refuse(archive, name, "has an unsupported type (only files, folders and links are allowed)",
                      "unsupported")
    return entry


def _tar_entries(archive: Path, tf: tarfile.TarFile) -> Iterator[ArchiveEntry]:
    for member in tf:
        yield check_tar_member(archive, member)


def _zip_entries(archive: Path, zf: zipfile.ZipFile) -> Iterator[ArchiveEntry]:
    for info in zf.infolist():
        name = info.filename
        path = _normalise(archive, name)
        mode = (info.external_attr >> 16) & 0xFFFF
        file_type = stat.S_IFMT(mode)
        if file_type in (stat.S_IFCHR, stat.S_IFBLK):
            raise _refuse(archive, name, "is a device file", "device")
        if file_type == stat.S_IFIFO:
            raise _refuse(archive, name, "is a FIFO", "fifo")
        if file_type == stat.S_IFSOCK:
            raise _refuse(archive, name, "is a socket", "socket")
        if file_type == stat.S_IFLNK:
            if info.file_size > 4096:
                raise _refuse(archive, name, "is a symlink with an oversized target")
            target = zf.read(info).decode("utf-8", "replace")
            entry = ArchiveEntry(name, path, "symlink", 0, mode, target)
            check_link_target(archive, entry, target, "symlink")
        elif info.is_dir():
            entry = ArchiveEntry(name, path, "dir", 0, mode)
        else:
            entry = ArchiveEntry(name, path, "file", info.file_size, mode)
        yield entry


def _check_all(archive: Path, entries: Iterator[ArchiveEntry]) -> list[ArchiveEntry]:
    checked: list[ArchiveEntry] = []
    total = 0
    for entry in entries:
        if len(checked) >= MAX_ENTRIES:
            raise _refuse(archive, entry.name, f"is past the limit of {MAX_ENTRIES:,} entries")
        if entry.size > MAX_ENTRY_BYTES:
            raise _refuse(archive, entry.name, f"is {entry.size:,} bytes, over the 256 MiB limit for one entry")
        total += entry.size
        if total > MAX_TOTAL_BYTES:
            raise _refuse(archive, entry.name, "takes the extracted size over the 512 MiB limit")
        checked.append(entry)
    links = {e.path for e in checked if e.type == "symlink"}
    files = {e.path for e in checked if e.type == "file"}
    if links:
        for entry in checked:
            parts = entry.path.split("/")
            for i in range(1, len(parts)):
                if "/".join(parts[:i]) in links:
                    raise _refuse(archive, entry.name, "lies below a symlink in the same archive")
    for entry in checked:
        if entry.type == "hardlink" and entry.link not in files:
            raise _refuse(archive, entry.name, "is a hard link to something that is not a regular file in the archive")
    return checked


def check_archive(archive: Path) -> list[ArchiveEntry]:
    """Read and check every header of `archive`; raise `refused` naming the first bad entry."""
    fmt = archive_format(archive)
    try:
        if fmt == "zip":
            import zipfile

            with zipfile.ZipFile(archive) as zf:
                return _check_all(archive, _zip_entries(archive, zf))
        if fmt == "tar":
            import tarfile

            with tarfile.open(archive, "r:*") as tf:
                return _check_all(archive, _tar_entries(archive, tf))
    except VoraError:
        raise
    except OSError as exc:
        raise VoraError("io_error", f"cannot read archive {archive}: {exc}") from exc
    except Exception as exc:  # tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error
        raise VoraError("invalid", f"{archive.name}: not a readable archive ({type(exc).__name__}: {exc})") from exc
    raise VoraError("invalid", f"{archive.name}: not an archive vora knows (.zip, .tgz, .tar.gz, .tar)")


@dataclass(frozen=True)
class ExtractProgress:
    """How far an extraction is: files and bytes, done and in all (the checked headers say)."""

    archive: str
    files_done: int
    files_total: int
    bytes_done: int
    bytes_total: int

    @property
    def finished(self) -> bool:
        return self.files_done >= self.files_total


ProgressCallback = Callable[[ExtractProgress], None]


class _Meter:
    """Counts what was written and tells `callback` (per chunk: a single large file moves too)."""

    def __init__(self, archive: Path, entries: list[ArchiveEntry], callback: ProgressCallback | None) -> None:
        files = [e for e in entries if e.type == "file"]
        self.archive = archive.name
        self.files_total = len(files)
        self.bytes_total = sum(max(e.size, 0) for e in files)
        self.files_done = 0
        self.bytes_done = 0
        self.callback = callback

    def tell(self) -> None:
        if self.callback is not None:
            self.callback(ExtractProgress(self.archive, self.files_done, self.files_total, self.bytes_done,
                                          self.bytes_total))

    def add_bytes(self, count: int) -> None:
        self.bytes_done += count
        self.tell()

    def file_done(self) -> None:
        self.files_done += 1
        self.tell()


def _copy_capped(archive: Path, entry: ArchiveEntry, src: IO[bytes], dest: Path, budget: list[int],
                 meter: _Meter) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(dest, flags, 0o600)
    written = 0
    with os.fdopen(fd, "wb") as out:
        while chunk := src.read(_CHUNK):
            written += len(chunk)
            budget[0] += len(chunk)
            if written > max(entry.size, 0) or written > MAX_ENTRY_BYTES:
                raise _refuse(archive, entry.name, "holds more data than its header says")
            if budget[0] > MAX_TOTAL_BYTES:
                raise _refuse(archive, entry.name, "takes the extracted size over the 512 MiB limit")
            out.write(chunk)
            meter.add_bytes(len(chunk))
    os.chmod(dest, _file_mode(entry.mode))
    meter.file_done()


def _file_mode(mode: int) -> int:
    # Keep the executable bits, drop setuid/setgid/sticky and world-write; owner can always read/write.
    return (mode & 0o755) | 0o600 if mode & 0o777 else 0o644


def _mkdirs(root: Path, rel: str) -> Path:
    current = root
    for part in rel.split("/") if rel else []:
        current = current / part
        if current.is_symlink():
            raise VoraError("internal", f"archive extraction would follow a link at {current}")
        if not current.exists():
            os.mkdir(current, 0o755)
    return current


def extract_archive(archive: Path, dest: Path, on_progress: ProgressCallback | None = None) -> list[ArchiveEntry]:
    """Check `archive`, then extract it into the existing, empty directory `dest`. Failures name
    the archive entry (`engine.tgz: entry 'package/x'`), never the staging path. `on_progress`
    hears the files and bytes written so far."""
    entries = check_archive(archive)
    budget = [0]
    meter = _Meter(archive, entries, on_progress)
    current: list[ArchiveEntry] = []  # the entry being written, for the error

    def writing(entry: ArchiveEntry) -> ArchiveEntry:
        current[:] = [entry]
        return entry

    try:
        if archive_format(archive) == "zip":
            import zipfile

            with zipfile.ZipFile(archive) as zf:
                infos = {info.filename: info for info in zf.infolist()}
                for entry in map(writing, entries):
                    if entry.type == "dir":
                        _mkdirs(dest, entry.path)
                    elif entry.type == "file":
                        target = _mkdirs(dest, posixpath.dirname(entry.path)) / posixpath.basename(entry.path)
                        with zf.open(infos[entry.name]) as src:
                            _copy_capped(archive, entry, src, target, budget, meter)
        else:
            import tarfile

            with tarfile.open(archive, "r:*") as tf:
                for member, entry in zip(tf, map(writing, entries), strict=True):
                    if entry.type == "dir":
                        _mkdirs(dest, entry.path)
                    elif entry.type == "file":
                        target = _mkdirs(dest, posixpath.dirname(entry.path)) / posixpath.basename(entry.path)
                        member_file = tf.extractfile(member)
                        if member_file is None:
                            raise _refuse(archive, entry.name, "cannot be read")
                        with member_file:
                            _copy_capped(archive, entry, member_file, target, budget, meter)
        _create_links(archive, dest, entries, writing)
    except VoraError:
        raise
    except FileExistsError:
        raise _refuse(archive, current[0].name if current else "?", "appears twice in the archive") from None
    except OSError as exc:
        raise _entry_error(archive, current[0] if current else None, exc) from exc
    except Exception as exc:
        raise VoraError("invalid", f"{archive.name}: broken archive ({type(exc).__name__}: {exc})") from exc
    return entries


def _entry_error(archive: Path, entry: ArchiveEntry | None, exc: OSError) -> VoraError:
    """An OS refusal while writing `entry`: named by the entry, with the OS reason."""
    import errno

    reason = exc.strerror or type(exc).__name__
    if entry is None:
        return VoraError("io_error", f"cannot extract {archive.name}: {reason}")
    if exc.errno == errno.ENOTDIR:
        return _refuse(archive, entry.name, "lies below a file of the same archive")
    hint = ("a name in the archive is too long for this file system" if exc.errno == errno.ENAMETOOLONG
            else "check that the extensions dir is writable and has space")
    return VoraError("io_error", f"cannot extract {archive.name}: entry {entry.name!r}: {reason}", hint)


def _create_links(archive: Path, dest: Path, entries: list[ArchiveEntry],
                  writing: Callable[[ArchiveEntry], ArchiveEntry]) -> None:
    import shutil

    real_root = os.path.realpath(dest)
    for entry in entries:
        if entry.type == "hardlink":
            writing(entry)
            # A copy, not a hard link: a link would share an inode with whatever it names.
            parent = _mkdirs(dest, posixpath.dirname(entry.path))
            shutil.copyfile(dest / str(entry.link), parent / posixpath.basename(entry.path), follow_symlinks=False)
    for entry in entries:
        if entry.type == "symlink":
            writing(entry)
            parent = _mkdirs(dest, posixpath.dirname(entry.path))
            link = parent / posixpath.basename(entry.path)
            if link.exists() or link.is_symlink():
                raise _refuse(archive, entry.name, "appears twice in the archive")
            os.symlink(str(entry.link).replace("\\", "/"), link)
    for entry in entries:
        if entry.type == "symlink":
            writing(entry)
            real = os.path.realpath(dest / entry.path)
            if not is_within(real, real_root):
                os.unlink(dest / entry.path)
                raise _refuse(archive, entry.name, "is a symlink whose real target leaves the archive root")


def find_package_root(extracted: Path) -> Path:
    """`package/` if present; else the top level if it holds package.json or vora.plugin.json;
    else a single top-level folder (spec plugins.md)."""
    package = extracted / "package"
    if package.is_dir() and not package.is_symlink():
        return package
    if (extracted / "package.json").is_file() or (extracted / "vora.plugin.json").is_file():
        return extracted
    children = [child for child in extracted.iterdir() if child.name not in ("__MACOSX",)]
    if len(children) == 1 and children[0].is_dir() and not children[0].is_symlink():
        return children[0]
    raise VoraError(
        "invalid",
        "cannot find the plugin in the archive: expected a package/ folder, a package.json or "
        "vora.plugin.json at the top, or a single top-level folder",
    )
