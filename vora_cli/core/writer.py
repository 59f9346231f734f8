"""The one file writer: every file vora writes goes through here, atomic, locked, compared under the
lock, modes and owners kept (docs/reliability.md, "Writes").

Why one module: the lock, the atomic replace and the compare-under-the-lock are one protocol.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

from vora_cli.core.digests import sha256_hex as digest
from vora_cli.core.errors import VoraError
from vora_cli.core.reading import read_bytes
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line
from vora_cli.core.temp_files import temp_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

NEW_FILE_MODE = 0o600
NEW_DIR_MODE = 0o700
# vora is POSIX-only (pyproject classifiers; docs/dependencies.md, "Platforms"): locks are flock(2).
POSIX_ONLY = "vora runs on Linux and macOS only: it locks the files it writes with POSIX flock"
POSIX_ONLY_HINT = "on Windows, run vora inside WSL"


def sha256_hex(data: bytes | None) -> str | None:
    """The digest of a file's bytes, None for no file (`core/digests.py`: small data without OpenSSL)."""
    if data is None:
        return None
    return digest(data)


def resolve_target(path: Path) -> Path:
    """The file a write really lands in: a symlink's final target (the link stays a link)."""
    return Path(os.path.realpath(path))


def ensure_dir(path: Path) -> list[Path]:
    """Create a directory and its missing parents with mode 0700 (as root, each owned as the folder
    it is made in: `new_owner`); existing ones are left alone. Returns the folders this call made,
    parents first (one another process made meanwhile is not among them)."""
    missing: list[Path] = []
    made: list[Path] = []
    current = path
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, NEW_DIR_MODE)
        except FileExistsError:
            continue
        except OSError as exc:
            raise VoraError("io_error", f"cannot create directory {directory}: {exc.strerror}") from exc
        owner = new_owner(directory.parent)
        if owner is not None:
            _chown(directory, owner)
        made.append(directory)
    return made


# -- owners -------------------------------------------------------------------------------------

Owner = tuple[int, int]  # (uid, gid)


def new_owner(folder: Path) -> Owner | None:
    """The owner and group of what vora creates in `folder`: the folder's own when vora runs as root
    (a state dir of `svc`'s stays `svc`'s whoever runs `sudo vora`); None otherwise, where the
    system gives it the creator's (nobody else's to give)."""
    if os.geteuid() != 0:
        return None
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return (st.st_uid, st.st_gid) if (st.st_uid, st.st_gid) != (0, os.getegid()) else None


def kept_owner(target: Path, st: os.stat_result) -> Owner | None:
    """The owner and group the file replacing `target` (as it is: `st`) must have: its own. None
    when a new file of this process has them anyway. Refused (`refused`, nothing written) where
    this process cannot give them: not root, and the file is someone else's, or its group one this
    user is not in."""
    uid, gid = st.st_uid, st.st_gid
    euid = os.geteuid()
    if euid == 0:
        return None if (uid, gid) == (0, os.getegid()) else (uid, gid)
    if uid == euid and (gid == os.getegid() or gid in os.getgroups()):
        return None if gid == os.getegid() else (uid, gid)
    import grp
    import pwd

    def name(lookup: Callable[[int], Any], number: int) -> str:
        try:
            return str(lookup(number)[0])
        except KeyError:
            return str(number)

    owner, group, me = name(pwd.getpwuid, uid), name(grp.getgrgid, gid), name(pwd.getpwuid, euid)
    if uid == 0:
        hint = "run it as root: sudo vora …"
    elif uid != euid:
        hint = f"run it as {owner}: sudo -u {owner} vora …"
    else:
        hint = f"run it as root (sudo vora …), or give the file your group: {command_line('chgrp', me, target)}"
    raise VoraError(
        "refused",
        f"{target} belongs to {owner}:{group}; replacing it as {me} would make it {me}'s "
        f"and {owner} (a gateway running as {owner}) might no longer read it; nothing was written",
        hint,
    )


def _chown(path: Path | int, owner: Owner, *, link: bool = False) -> None:
    try:
        if isinstance(path, int):
            os.fchown(path, *owner)
        elif link:
            os.lchown(path, *owner)
        else:
            os.chown(path, *owner)
    except OSError as exc:
        raise VoraError("io_error", f"cannot give {path} to uid {owner[0]}, gid {owner[1]}: {exc.strerror}") from exc


def check_owners(paths: Sequence[Path]) -> None:
    """Refuse, before anything is written, a change whose replace of one of `paths` could not keep
    that file's owner (`kept_owner`): for a caller that writes several files and more than the
    replace (the devices store's journal)."""
    for path in paths:
        target = resolve_target(path)
        try:
            st = os.stat(target)
        except OSError:
            continue
        kept_owner(target, st)


def _checked_target(path: Path) -> Path:
    """The real target of `path`; a symlink whose target's folder is missing is refused."""
    target = resolve_target(path)
    if os.path.islink(path) and not target.parent.is_dir():
        raise VoraError(
            "not_found",
            f"{path} is a symlink to {target}, whose folder does not exist",
            "fix or remove the link; vora does not create folders at a link's far end",
        )
    return target


def _refuse_read_only(target: Path, mode: int | None = None, *, owners: bool = True) -> None:
    """Replacing by rename would succeed; an operator who made the file read-only meant "no". And a
    replace that cannot keep the file's owner is refused as well (`kept_owner`; `owners=False`
    for a removal, which gives nothing to anyone)."""
    if mode is None:
        try:
            st = os.stat(target)
        except OSError:
            return
        mode = st.st_mode & 0o7777
        if owners:
            kept_owner(target, st)
    if not mode & stat.S_IWUSR:
        raise VoraError(
            "refused",
            f"{target} is read-only (mode {mode:04o}); nothing was written",
            f"make it writable first ({command_line('chmod', 'u+w', target)}) if vora should change it",
        )


def check_replaceable(path: Path) -> None:
    """Raise what `update_file` would refuse `path` for (a link into a missing folder, a read-only
    file, an owner it cannot keep), so a change of several files can stop before its first write."""
    _refuse_read_only(_checked_target(path))


def unused_backup_path(path: Path) -> Path:
    """`<path>.bak`, or `.bak.1`, `.bak.2`, … when that is taken: where a copy of a file vora is
    about to replace without owning it goes (`--force`), never over an earlier copy."""
    candidate = path.with_name(path.name + ".bak")
    n = 0
    while os.path.lexists(candidate):
        n += 1
        candidate = path.with_name(f"{path.name}.bak.{n}")
    return candidate


def lock_path_for(path: Path) -> Path:
    target = _checked_target(path)
    return target.with_name(target.name + ".lock")


@contextlib.contextmanager
def file_lock(path: Path, timeout: float, *, keep_lock_file: bool = True) -> Iterator[None]:
    """Hold the advisory lock of `path` (the file `<target>.lock` beside it).

    Waits up to `timeout` seconds (the caller's: the writer reads no preference itself), then
    fails with a `conflict` (exit 3): nothing was written, safe to retry. `keep_lock_file=False`
    removes the lock file before releasing it (operator's own dirs, or a lock file that was not
    there before); every waiter holding the removed file notices and locks the new one.
    """
    try:
        import fcntl  # imported here so that reading commands still import on any platform
    except ImportError:
        raise VoraError("refused", POSIX_ONLY, POSIX_ONLY_HINT) from None
    lock_file = lock_path_for(path)
    ensure_dir(lock_file.parent)
    owner = new_owner(lock_file.parent)  # as root: the lock is the install's, as the file it locks

    def opened() -> int:
        try:
            fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, NEW_FILE_MODE)
        except OSError as exc:
            raise VoraError("io_error", f"cannot open lock file {lock_file}: {exc.strerror}") from exc
        if owner is not None:
            with contextlib.suppress(OSError):  # a lock of another owner still locks
                os.fchown(fd, *owner)
        return fd

    while True:
        fd = _flock_waiting(opened, fcntl, path, lock_file, timeout)
        if _same_file(fd, lock_file):
            break
        os.close(fd)  # a holder before us removed this lock file: lock the current one
    try:
        yield
    finally:
        if not keep_lock_file:
            with contextlib.suppress(OSError):
                os.unlink(lock_file)
        os.close(fd)  # closing the descriptor releases the lock


def _flock_waiting(opened: Callable[[], int], fcntl: Any, path: Path, lock: Path, timeout: float) -> int:
    """A descriptor from `opened()` holding an exclusive flock, waited for up to `timeout` seconds
    (then `conflict`: nothing was written, safe to retry)."""
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        fd = opened()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EAGAIN, errno.EACCES):
                raise VoraError("io_error", f"cannot lock {lock}: {exc.strerror}") from exc
        if time.monotonic() >= deadline:
            raise VoraError("conflict", f"{path} is locked by another vora process (lock file {lock})",
                            "nothing was written; retry when the other command has finished")
        time.sleep(delay)
        delay = min(delay * 2, 0.1)


@contextlib.contextmanager
def folder_lock(folder: Path, timeout: float) -> Iterator[None]:
    """Hold an exclusive flock on `folder` itself (its own descriptor: no lock file is made in
    it or anywhere), waiting up to `timeout` seconds, then `conflict`."""
    try:
        import fcntl
    except ImportError:
        raise VoraError("refused", POSIX_ONLY, POSIX_ONLY_HINT) from None

    def opened() -> int:
        try:
            return os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError as exc:
            raise VoraError("io_error", f"cannot open {folder}: {exc.strerror}") from exc

    fd = _flock_waiting(opened, fcntl, folder, folder, timeout)
    try:
        yield
    finally:
        os.close(fd)


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def replace_atomically(path: Path, data: bytes, *, new_mode: int = NEW_FILE_MODE, force_mode: bool = False) -> Path:
    """Write `data` to `path` atomically (no locking, no content check). Returns the real target.
    An existing file keeps its mode unless `force_mode` (secrets: always `new_mode`). Others than
    this module's helpers should use `write_file` or `update_file`."""
    target = _checked_target(path)
    ensure_dir(target.parent)
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise VoraError("io_error", f"cannot stat {target}: {exc.strerror}") from exc
    if st is not None:
        _refuse_read_only(target, st.st_mode & 0o7777)
        owner = kept_owner(target, st)
    else:
        owner = new_owner(target.parent)
    mode = new_mode if force_mode or st is None else st.st_mode & 0o7777
    fd, tmp_name = temp_file(target)
    _land(fd, tmp_name, target, data, mode, owner)
    return target


def _land(fd: int, tmp_name: str | Path, target: Path, data: bytes, mode: int | None,
          owner: Owner | None = None) -> None:
    """`data` into the open temp file `fd`, flushed, fsynced (given `owner` and `mode`: the owner
    first, as a change of owner clears set-id bits), renamed over `target`, the folder fsynced; on
    any failure the temp file is removed. The temp file stays open (and flock-ed) until it is
    renamed: its writer is alive as long as it can be found under its temp name (`clean_dead_temps`)."""
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            if owner is not None:
                os.fchown(handle.fileno(), *owner)
            if mode is not None:
                os.fchmod(handle.fileno(), mode)
            os.replace(tmp_name, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        if isinstance(exc, OSError):
            raise VoraError("io_error", f"cannot write {target}: {exc.strerror}") from exc
        raise
    _fsync_dir(target.parent)


@dataclass(frozen=True)
class WriteResult:
    """What one write of the writer did to a file. Its digests are made when first asked for
    (the config's audit reads them; a store change does not)."""
    path: Path  # the path the caller named
    target: Path  # the file actually written (differs for a symlink)
    changed: bool
    before: bytes | None = field(repr=False)  # None: there was no file
    after: bytes | None = field(repr=False)

    @property
    def before_sha256(self) -> str | None:
        return sha256_hex(self.before)

    @property
    def after_sha256(self) -> str | None:
        return sha256_hex(self.after)

    @property
    def before_size(self) -> int | None:
        return None if self.before is None else len(self.before)

    @property
    def after_size(self) -> int | None:
        return None if self.after is None else len(self.after)


def _check_unchanged(path: Path, expected: bytes | None) -> bytes | None:
    current = read_bytes(path)
    if current != expected:
        raise VoraError(
            "conflict",
            f"{path} changed on disk since vora read it",
            "nothing was written; run the command again to apply it to the new content",
        )
    return current


def write_file(path: Path, data: bytes, *, expected: bytes | None, lock_timeout: float,
               new_mode: int = NEW_FILE_MODE) -> WriteResult:
    """Replace `path` with `data` if it still holds `expected` (None: must not exist)."""
    with file_lock(path, lock_timeout):
        _check_unchanged(path, expected)
        return _commit(path, expected, data, new_mode)


def update_file(
    path: Path,
    transform: Callable[[bytes | None], bytes | None],
    *,
    lock_timeout: float,
    new_mode: int = NEW_FILE_MODE,
    before_replace: Callable[[bytes | None, bytes], None] | None = None,
    keep_lock_file: bool = True,
    after_replace: Callable[[WriteResult], None] | None = None,
    force_mode: bool = False,
) -> WriteResult:
    """Read, transform and write `path` under its lock.

    `transform(current bytes or None)` returns the new bytes, None for no change, or raises to
    abort (nothing written). The content is compared again right before the rename: a non-vora
    change meanwhile is a conflict. `before_replace(old, new)` runs under the lock just before
    the rename; `after_replace(result)` just after the bytes landed, and must not raise (the
    write is reported as landed). `force_mode` gives an existing file `new_mode` too (secrets).
    `lock_timeout` and `keep_lock_file` are `file_lock`'s.
    """
    with file_lock(path, lock_timeout, keep_lock_file=keep_lock_file):
        old = read_bytes(path)
        new = transform(old)
        if new is None or new == old:
            return _unchanged(path, old)
        _refuse_read_only(resolve_target(path))
        if before_replace is not None:
            before_replace(old, new)
        _check_unchanged(path, old)
        result = _commit(path, old, new, new_mode, force_mode)
        if after_replace is not None and result.changed:
            after_replace(result)
        return result


def remove_file(path: Path, *, expected: bytes | None, lock_timeout: float) -> bool:
    """Delete `path` if it still holds `expected` (a conflict otherwise), under its lock; the
    lock file goes too. Returns whether a file was removed."""
    with file_lock(path, lock_timeout, keep_lock_file=False):
        if _check_unchanged(path, expected) is None:
            return False
        _refuse_read_only(resolve_target(path), owners=False)
        try:
            os.unlink(path)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise VoraError("io_error", f"cannot remove {path}: {exc.strerror}") from exc
    _fsync_dir(path.parent)
    return True


def _unchanged(path: Path, data: bytes | None) -> WriteResult:
    """The result of a write that found nothing to change (`data` is on disk, as it was)."""
    return WriteResult(path, resolve_target(path), False, data, data)


def _commit(path: Path, old: bytes | None, new: bytes, new_mode: int, force_mode: bool = False) -> WriteResult:
    if old == new:
        return _unchanged(path, old)
    target = replace_atomically(path, new, new_mode=new_mode, force_mode=force_mode)
    return WriteResult(path, target, True, old, new)


def append_line(path: Path, line: str) -> None:
    """Append one line to a log file (audit logs), creating it 0600 under a 0700 folder. A lone
    surrogate is written as its `\\uXXXX` escape, as JSON lines need: a landed change is always
    audited."""
    ensure_dir(path.parent)
    data = (line.rstrip("\n") + "\n").encode("utf-8", "backslashreplace")
    owner = new_owner(path.parent)
    try:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, NEW_FILE_MODE)
        except FileExistsError:  # an existing log keeps its owner
            owner = None
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    except OSError as exc:
        raise VoraError("io_error", f"cannot open log {path}: {exc.strerror}") from exc
    try:
        if owner is not None:
            os.fchown(fd, *owner)
        os.write(fd, data)  # one write() of a short line under O_APPEND: lines never interleave
    except OSError as exc:
        raise VoraError("io_error", f"cannot write log {path}: {exc.strerror}") from exc
    finally:
        os.close(fd)


class ContentChanged(VoraError):
    """A file changed on disk between the caller's read and its replace (a `conflict`). `written`
    lists the files already replaced before it was seen, so a caller knows what landed."""

    def __init__(self, path: Path, written: tuple[Path, ...]) -> None:
        super().__init__(
            "conflict",
            f"{path} changed on disk since vora read it",
            "nothing was written; run the command again to apply it to the new content",
        )
        self.path = path
        self.written = written


def replace_files_if_unchanged(
    writes: Sequence[tuple[Path, bytes]],
    expected: Mapping[Path, bytes | None],
    *,
    new_mode: int = NEW_FILE_MODE,
    force_mode: bool = False,
    after_replace: Callable[[WriteResult], None] | None = None,
) -> list[WriteResult]:
    """Replace several files in order, each only while every file of `expected` is unchanged.

    For stores another program rewrites without a lock: before each replace, every file in
    `expected` (path -> bytes read, None for "did not exist") is compared with the disk; a
    difference raises `ContentChanged`. The caller holds its own lock (`file_lock`).
    `force_mode` gives every replaced file `new_mode`. `after_replace` is told of each file as
    soon as it is replaced, so a caller meeting any later error can put it back (`undo_replace`).
    """
    check_owners([path for path, _data in writes])  # all of them before the first replace
    current = dict(expected)
    results: list[WriteResult] = []
    for path, data in writes:
        for check_path, check_bytes in current.items():
            if read_bytes(check_path) != check_bytes:
                raise ContentChanged(check_path, tuple(r.target for r in results))
        result = _commit(path, current.get(path), data, new_mode, force_mode)
        results.append(result)
        current[path] = data
        if after_replace is not None:
            after_replace(result)
    return results


def undo_replace(path: Path, written: bytes, original: bytes | None, *, new_mode: int = NEW_FILE_MODE,
                 durable: bool = True) -> bool:
    """Put back `original` (None: remove the file) where the caller replaced it with `written`.

    Only while the file still holds `written` (else another program's change would be lost:
    nothing is done, False returned). The caller holds its own lock. `durable=False` skips the
    folder's fsync after a removal, for a file whose return after a crash is harmless.
    """
    if read_bytes(path) != written:
        return False
    if original is None:
        target = resolve_target(path)
        try:
            os.unlink(target)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise VoraError("io_error", f"cannot remove {target}: {exc.strerror}") from exc
        if durable:
            _fsync_dir(target.parent)
        return True
    replace_atomically(path, original, new_mode=new_mode, force_mode=True)
    return True


class StagedFile:
    """A new file written in pieces, landing atomically: a temp file beside `target` (0600 while
    written), fsynced, given `mode`, then renamed over the target (`commit`) or removed
    (`discard`). Several may be committed together; until a commit the target is untouched.
    `commit(exclusive=True)` never replaces an existing file. The caller makes the target's
    folder (`ensure_dir`), so it knows which folders it made.
    """

    def __init__(self, target: Path, mode: int = NEW_FILE_MODE) -> None:
        self.target = target
        self.mode = mode
        try:
            st = os.stat(target)
        except OSError:
            self.owner = new_owner(target.parent)
        else:
            self.owner = kept_owner(target, st)
        fd, name = temp_file(target)
        self.temp = Path(name)
        self._handle = os.fdopen(fd, "wb")
        self._finished = False

    def write(self, data: bytes) -> None:
        try:
            self._handle.write(data)
        except OSError as exc:
            self.discard()
            raise VoraError("io_error", f"cannot write {self.target}: {exc.strerror}") from exc

    @property
    def handle(self) -> IO[bytes]:
        """The open temp file (for writers that want a file object, such as gzip)."""
        return self._handle

    def finish(self) -> None:
        """Flush, fsync and close the temp file and give it its mode (`commit` does this too);
        the caller may then set its times (`os.utime(staged.temp, ...)`) before the commit."""
        if self._finished:
            return
        try:
            self._handle.flush()
            os.fsync(self._handle.fileno())
            if self.owner is not None:
                os.fchown(self._handle.fileno(), *self.owner)
            self._handle.close()
            os.chmod(self.temp, self.mode)
        except OSError as exc:
            self.discard()
            raise VoraError("io_error", f"cannot write {self.target}: {exc.strerror}") from exc
        self._finished = True

    def commit(self, *, exclusive: bool = False) -> Path:
        """Land the file; `exclusive`: an existing target is an `exists` error (nothing replaced)."""
        self.finish()
        try:
            if exclusive:
                os.link(self.temp, self.target)  # fails with EEXIST instead of replacing
                os.unlink(self.temp)
            else:
                os.replace(self.temp, self.target)
        except FileExistsError:
            self.discard()
            raise VoraError("exists", f"{self.target} already exists; nothing was replaced",
                            "choose another name or folder") from None
        except OSError as exc:
            self.discard()
            raise VoraError("io_error", f"cannot write {self.target}: {exc.strerror}") from exc
        _fsync_dir(self.target.parent)
        return self.target

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self._handle.close()
        with contextlib.suppress(OSError):
            os.unlink(self.temp)
