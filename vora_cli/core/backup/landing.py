"""A restore lands all of it or none of it, and a `kill -9` anywhere is repaired (docs/backup.md,
"After a disaster: restore"; docs/reliability.md).

Before the first temp file or folder is made, a journal names every path the restore will
write (`<vora data dir>/restores/<id>.json`, replaced atomically, held under a lock while its
restore runs). Every new file and link is staged beside its target under the writer's temp name
(`.<name>.vora-<pid>-<start>.<random>.tmp`). Once all are staged, the journal is rewritten with
each temp file, its identity (device and inode) and, for a replace, the name that will keep the
old file (`.<name>.vora-restore-<id>.old`, a hard link: no copy); only then does the first file
land. Each replace links the old file to its keep name, then renames the new one over it; each
create links the staged file to its target, which fails if anything appeared there meanwhile.

A failure while landing puts every landed file back (its kept old one, or nothing) and removes
every temp file and every folder the restore made. The next `vora backup restore` or `vora doctor
--fix` finds a journal whose lock is free (its restore died) and does the same from the journal:
a restore that had landed every file is finished (the kept old files go), any other is rolled
back. A path that no longer holds what the restore put there was changed by someone since, and
is left as it is.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.json_data import CamelJson
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

JOURNAL_VERSION = 1
JOURNAL_MAX = 64 * 1024 * 1024


def journal_dir() -> Path:
    """Where restores keep their journals: vora's own data dir, beside its backups."""
    from vora_cli.core.userdirs import data_dir

    return data_dir() / "restores"


@dataclass
class Op:
    """One path a restore writes: a file or a link, created or replaced."""
    path: str
    type: str  # file | symlink
    action: str  # create | replace
    temp: str | None = None
    identity: tuple[int, int] | None = None  # (st_dev, st_ino) of the staged file or link

    def keep(self, restore_id: str) -> str:
        head, name = os.path.split(self.path)
        return os.path.join(head, f".{name}.vora-restore-{restore_id}.old")

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "type": self.type, "action": self.action, "temp": self.temp,
                "identity": list(self.identity) if self.identity else None}


@dataclass(frozen=True)
class Recovered(CamelJson):
    """What the repair of one interrupted restore did."""
    journal: str
    archive: str
    outcome: str  # finished | rolled-back | in-progress
    restored: int  # paths put back as they were (rolled back) or kept as landed (finished)
    left: tuple[str, ...] = field(default=())  # paths changed by someone since, left as they are
    removed: int = 0  # temp files, kept old files and folders removed


class Journal:
    """The record of one restore (see the module docstring), written through the writer."""

    def __init__(self, path: Path, data: dict[str, Any]) -> None:
        self.path = path
        self.data = data

    @classmethod
    def new(cls, restore_id: str, archive: Path, owner: str, ops: Sequence[Op], dirs: Sequence[Path]) -> Journal:
        return cls(journal_dir() / f"{restore_id}.json", {
            "version": JOURNAL_VERSION, "id": restore_id, "archive": str(archive), "owner": owner,
            "phase": "staging", "dirs": [str(d) for d in dirs], "ops": [op.to_dict() for op in ops]})

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
        for item in self.data.get("ops", []):
            identity = item.get("identity")
            found.append(Op(str(item["path"]), str(item["type"]), str(item["action"]), item.get("temp"),
                            (int(identity[0]), int(identity[1])) if identity else None))
        return found

    def remove(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)


@contextlib.contextmanager
def holding(journal: Journal, timeout: float = 0) -> Iterator[None]:
    """This process's claim on `journal` for as long as its restore (or repair) runs."""
    from vora_cli.core.writer import file_lock

    with file_lock(journal.path, timeout, keep_lock_file=False):
        yield


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _unlink(path: str | None) -> int:
    if not path:
        return 0
    try:
        os.unlink(path)
    except OSError:
        return 0
    return 1


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
            assert op.temp is not None
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
        roll_back(journal, ops)
        if isinstance(exc, OSError):
            raise VoraError("io_error", f"cannot restore {exc.filename or ''}: {exc.strerror}; nothing was restored "
                            "(every file landed before it was put back)") from exc
        raise
    for op in ops:
        if op.action == "replace":
            _unlink(op.keep(journal.id))
    journal.remove()


def _landed(op: Op) -> bool:
    return op.identity is not None and _identity(op.path) == op.identity


def roll_back(journal: Journal, ops: Sequence[Op]) -> Recovered:
    """Every landed op undone (its kept old file back, or the new one removed), every temp and
    kept file and every folder the restore made removed; then the journal goes."""
    restored = removed = 0
    left: list[str] = []
    for op in reversed(ops):
        keep = op.keep(journal.id)
        if _landed(op):
            if op.action == "replace" and os.path.lexists(keep):
                os.replace(keep, op.path)
            else:
                os.unlink(op.path)
            restored += 1
        elif op.action == "replace" and os.path.lexists(keep) and _identity(keep) != _identity(op.path):
            left.append(op.path)  # neither ours nor the old file: someone wrote it since
        removed += _unlink(keep) if op.action == "replace" else 0
        removed += _unlink(op.temp)
    removed += _remove_strays(journal, ops)
    _fsync_dirs([op.path for op in ops])
    journal.remove()
    return Recovered(str(journal.path), str(journal.data.get("archive", "")), "rolled-back", restored, tuple(left),
                     removed)


def _remove_strays(journal: Journal, ops: Sequence[Op]) -> int:
    """The temp files of the dead restore that the journal could not name yet (it was killed while
    staging), and the folders it made, deepest first, while empty."""
    owner = str(journal.data.get("owner", ""))
    removed = 0
    for op in ops:
        folder, name = os.path.split(op.path)
        prefix = f".{name}.{owner}."
        if not owner:
            continue
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                if entry.name.startswith(prefix) and entry.name.endswith(".tmp") and \
                        (entry.is_symlink() or entry.is_file(follow_symlinks=False)):
                    removed += _unlink(entry.path)
    for folder in reversed(journal.data.get("dirs", [])):
        with contextlib.suppress(OSError):
            os.rmdir(folder)
            removed += 1
    return removed


def _finish(journal: Journal, ops: Sequence[Op]) -> Recovered:
    removed = sum(_unlink(op.keep(journal.id)) for op in ops if op.action == "replace")
    removed += sum(_unlink(op.temp) for op in ops)
    journal.remove()
    return Recovered(str(journal.path), str(journal.data.get("archive", "")), "finished", len(ops), (), removed)


def pending() -> list[Path]:
    """The journals of restores that did not finish (running or dead), oldest name first."""
    try:
        return sorted(p for p in journal_dir().iterdir() if p.name.endswith(".json"))
    except OSError:
        return []


def read_journal(path: Path) -> Journal | None:
    from vora_cli.core import nesting

    try:
        with open(path, "rb") as handle:
            data = handle.read(JOURNAL_MAX + 1)
        parsed = nesting.loads(data.decode("utf-8", "surrogateescape"))
    except (OSError, ValueError):
        return None
    if not isinstance(parsed, dict) or parsed.get("version") != JOURNAL_VERSION or not isinstance(parsed.get("ops"), list):
        return None
    return Journal(path, parsed)


def running(path: Path) -> bool:
    """Whether the restore that wrote the journal at `path` still holds it (it is alive). Only
    tried, read-only: a live restore holds its lock file; none, or a free one, is a dead restore."""
    import fcntl

    from vora_cli.core.writer import lock_path_for

    try:
        fd = os.open(lock_path_for(path), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except (OSError, VoraError):
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def recover(path: Path) -> Recovered:
    """Finish or roll back the dead restore whose journal is at `path` (see the module docstring)."""
    journal = read_journal(path)
    try:
        with holding(Journal(path, {})):
            if journal is None:
                raise VoraError("invalid", f"{path} is not a restore journal vora can read",
                                "move it away if no restore of yours is running")
            ops = journal.ops()
            if journal.data.get("phase") == "landing" and ops and all(_landed(op) for op in ops):
                return _finish(journal, ops)
            return roll_back(journal, ops)
    except VoraError as error:
        if error.code != "conflict":
            raise
        return Recovered(str(path), str(journal.data.get("archive", "")) if journal else "", "in-progress", 0)


def recover_all() -> list[Recovered]:
    """Repair every interrupted restore (those still running are left to finish)."""
    return [recover(path) for path in pending()]
