"""A restore lands all of it or none of it, and a `kill -9` anywhere is repaired: the journal, the
staged files, the landing and its undo (docs/backup.md, "All or nothing, even under `kill -9`").
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from vora_cli.core.backup import journal_dir
from vora_cli.core.errors import VoraError
from vora_cli.core.json_data import CamelJson
from vora_cli.core.records import dataclass, field
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

JOURNAL_VERSION = 1


@dataclass
class Op:
    """One path a restore writes: a file or a link, created or replaced, and what its staged
    copy was: identity (st_dev, st_ino), mtime in ns, and a file's size and sha256 or a link's
    target."""
    path: str
    type: str  # file | symlink
    action: str  # create | replace
    temp: str | None = None
    identity: tuple[int, int] | None = None
    mtime_ns: int | None = None
    size: int | None = None
    sha256: str | None = None
    link: str | None = None

    def keep(self, restore_id: str) -> str:
        from vora_cli.core.temp_files import NAME_MAX, fitted

        head, name = os.path.split(self.path)
        suffix = f".vora-restore-{restore_id}.old"
        return os.path.join(head, f".{fitted(name, NAME_MAX - 1 - len(suffix))}{suffix}")

    def staged(self, temp: str, sha256: str | None) -> None:
        """Record what was staged at `temp` (as lstat sees it now)."""
        info = os.lstat(temp)
        self.temp = temp
        self.identity = (info.st_dev, info.st_ino)
        self.mtime_ns = info.st_mtime_ns
        self.size = info.st_size
        self.sha256 = sha256
        self.link = os.readlink(temp) if self.type == "symlink" else None

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "type": self.type, "action": self.action, "temp": self.temp,
                "identity": list(self.identity) if self.identity else None, "mtimeNs": self.mtime_ns,
                "size": self.size, "sha256": self.sha256, "link": self.link}


@dataclass(frozen=True)
class Recovered(CamelJson):
    """What the repair of one interrupted restore did."""
    journal: str
    archive: str
    outcome: str  # finished | rolled-back | in-progress
    restored: int  # paths put back as they were (rolled back) or kept as landed (finished)
    left: tuple[str, ...] = field(default=())  # paths changed by someone since, left as they are
    removed: int = 0  # temp files, kept old files and folders removed
    stuck: tuple[str, ...] = field(default=())  # what could not be removed: the journal stays


class Journal:
    """The record of one restore (docs/backup.md, "All or nothing"), written through the writer."""

    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data

    @classmethod
    def new(cls, restore_id: str, archive: Path, owner: str, ops: Sequence[Op], dirs: Sequence[Path],
            backup: Path | None) -> Journal:
        return cls(journal_dir() / f"{restore_id}.json", {
            "version": JOURNAL_VERSION, "id": restore_id, "archive": str(archive), "owner": owner,
            "phase": "staging", "dirs": [str(d) for d in dirs], "made": None,
            "preRestoreBackup": None if backup is None else str(backup), "ops": [op.to_dict() for op in ops]})

    @property
    def id(self) -> str:
        return str(self.data["id"])

    def write(self, phase: str, ops: Sequence[Op]) -> None:
        from vora_cli.core.writer import NEW_FILE_MODE, replace_atomically

        self.data["phase"] = phase
        self.data["ops"] = [op.to_dict() for op in ops]
        text = json.dumps(self.data, indent=1).encode("utf-8", "surrogateescape")
        replace_atomically(self.path, text, new_mode=NEW_FILE_MODE, force_mode=True)

    def ops(self) -> list[Op]:
        found = []
        for item in self.data["ops"]:
            identity = item.get("identity")
            found.append(Op(item["path"], item["type"], item["action"], item.get("temp"),
                            (identity[0], identity[1]) if identity else None, item.get("mtimeNs"),
                            item.get("size"), item.get("sha256"), item.get("link")))
        return found

    def folders(self) -> list[str]:
        """The folders this restore made (or, killed before it could say, the ones it planned)."""
        made = self.data.get("made")
        return list(made if made is not None else self.data.get("dirs", []))

    def remove(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)


@contextlib.contextmanager
def holding(journal: Journal, timeout: float = 0) -> Iterator[None]:
    """This process's claim on `journal` for as long as its restore (or repair) runs."""
    from vora_cli.core.writer import file_lock

    with file_lock(journal.path, timeout, keep_lock_file=False):
        yield


def _sha256(path: str) -> str | None:
    from vora_cli.core.backup.limits import file_sha256

    try:
        return file_sha256(Path(path))
    except OSError:
        return None


def landed(op: Op) -> bool:
    """Whether `op.path` still holds all of what the journal recorded: an inode number alone proves nothing."""
    import stat

    if op.identity is None:
        return False
    try:
        info = os.lstat(op.path)
    except OSError:
        return False
    if (info.st_dev, info.st_ino) != op.identity or info.st_mtime_ns != op.mtime_ns:
        return False
    if op.type == "symlink":
        return stat.S_ISLNK(info.st_mode) and os.readlink(op.path) == op.link
    return stat.S_ISREG(info.st_mode) and info.st_size == op.size and _sha256(op.path) == op.sha256


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samestat(os.lstat(a), os.lstat(b))
    except OSError:
        return False


class Cleanup:
    """What a roll back or a finish removed, and what it could not."""

    def __init__(self) -> None:
        self.removed = 0
        self.stuck: list[str] = []

    def unlink(self, path: str | None) -> None:
        if not path:
            return
        try:
            os.unlink(path)
        except FileNotFoundError:
            return
        except OSError:
            if path not in self.stuck:
                self.stuck.append(path)
            return
        self.removed += 1


def _fsync_dirs(paths: Sequence[str]) -> None:
    for folder in dict.fromkeys(os.path.dirname(p) for p in paths):
        with contextlib.suppress(OSError):
            fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def land(journal: Journal, ops: Sequence[Op]) -> None:
    """Every staged op into place, in order; on any failure, every landed one back (rollback)."""
    journal.write("landing", ops)
    try:
        for op in ops:
            if op.temp is None:
                raise VoraError("internal", f"{op.path} was never staged; nothing was restored")
            if op.action == "replace":
                os.link(op.path, op.keep(journal.id), follow_symlinks=False)
                os.replace(op.temp, op.path)
            else:
                try:
                    os.link(op.temp, op.path, follow_symlinks=False)
                except FileExistsError:
                    raise VoraError("conflict", f"{op.path} appeared while the restore was landing; nothing was restored",
                                    "something wrote it meanwhile (is the gateway running?); run the restore again") from None
                os.unlink(op.temp)
        _fsync_dirs([op.path for op in ops])
    except BaseException as exc:
        undone = roll_back(journal, ops)
        stuck = f"; {plural(len(undone.stuck), 'temp file')} could not be removed yet ({undone.stuck[0]}): " \
            "vora doctor --fix backup-restore removes them" if undone.stuck else ""
        if isinstance(exc, OSError):
            raise VoraError("io_error", f"cannot restore {exc.filename or ''}: {exc.strerror}; nothing was restored "
                            f"(every file landed before it was put back){stuck}", _hard_link_hint(exc)) from exc
        raise
    cleanup = Cleanup()
    for op in ops:
        if op.action == "replace":
            cleanup.unlink(op.keep(journal.id))
    if not cleanup.stuck:
        journal.remove()


def _hard_link_hint(error: OSError) -> str | None:
    """A file system without hard links (FAT, exFAT, some network shares) refuses `link()`, which
    the exclusive create and the kept old files need."""
    import errno

    if error.errno in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS):
        return ("the restore needs hard links (each new file lands by link(), each replaced one is kept by one); "
                "this file system may have none (FAT, exFAT, some shares): restore onto another one with --to DIR")
    return None


def roll_back(journal: Journal, ops: Sequence[Op]) -> Recovered:
    """Every landed op undone (its kept old file back, or the new one removed), every temp and
    kept file and every folder the restore made removed; then the journal goes (it stays when
    something could not be removed)."""
    cleanup = Cleanup()
    restored = 0
    left: list[str] = []
    for op in reversed(ops):
        keep = op.keep(journal.id)
        if landed(op):
            if op.action == "replace" and os.path.lexists(keep):
                os.replace(keep, op.path)
            else:
                os.unlink(op.path)
            restored += 1
        elif op.action == "replace" and os.path.lexists(keep) and not _same_file(keep, op.path):
            # neither what the restore put there nor the old file: someone wrote it since; the old
            # file stays, under its keep name, beside what they wrote
            left.append(f"{op.path} (what it held before the restore is kept as {keep})")
            keep = ""
        elif op.action == "create" and os.path.lexists(op.path):
            left.append(op.path)  # not what the restore put there: someone's since
        if op.action == "replace":
            cleanup.unlink(keep)
        cleanup.unlink(op.temp)
    _remove_strays(journal, ops, cleanup)
    _fsync_dirs([op.path for op in ops])
    if not cleanup.stuck:
        journal.remove()
    return Recovered(str(journal.path), str(journal.data.get("archive", "")), "rolled-back", restored, tuple(left),
                     cleanup.removed, tuple(cleanup.stuck))


def _remove_strays(journal: Journal, ops: Sequence[Op], cleanup: Cleanup) -> None:
    """The temp files of the dead restore that the journal could not name yet (it was killed while
    staging): one pass over each folder, whatever the number of files in it; then the folders it
    made, deepest first, while empty."""
    from vora_cli.core.temp_files import temp_prefix

    owner = str(journal.data.get("owner", ""))
    if owner:
        prefixes: dict[str, set[str]] = {}
        for op in ops:
            prefixes.setdefault(os.path.dirname(op.path), set()).add(temp_prefix(Path(op.path), owner))
        tail = len(".tmp") + 10  # the random part and ".tmp" after a temp name's prefix
        for folder, wanted in prefixes.items():
            with contextlib.suppress(OSError), os.scandir(folder) as listing:
                for entry in listing:
                    if entry.name.endswith(".tmp") and entry.name[:-tail] in wanted and \
                            (entry.is_symlink() or entry.is_file(follow_symlinks=False)):
                        cleanup.unlink(entry.path)
    for folder in reversed(journal.folders()):
        with contextlib.suppress(OSError):
            os.rmdir(folder)
            cleanup.removed += 1
