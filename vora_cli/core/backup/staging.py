"""The restore's second pass over the archive: every new file and link staged beside its target, each
file's bytes checked against the first pass, nothing landed yet (docs/backup.md, "All or nothing").
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from vora_cli.core.backup.create import Moved
from vora_cli.core.backup.landing import Journal, Op
from vora_cli.core.backup.restore_plan import Planned
from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

    from vora_cli.core.backup.encryption import Keys


class Stage:
    """The restore's staged files and links, and the folders it made, as the journal names them."""

    def __init__(self, journal: Journal, ops: list[Op], total: int, progress: Callable[[int, int], None] | None) -> None:
        self.journal = journal
        self.ops = {op.path: op for op in ops}
        self.staged: dict[str, Path] = {}  # archive entry whose bytes were staged -> its temp file
        self.moved = Moved(total, progress)

    def make_dirs(self) -> None:
        from vora_cli.core.writer import ensure_dir

        made: list[str] = []
        for folder in self.journal.data.get("dirs", []):
            made += [str(d) for d in ensure_dir(Path(folder))]
        self.journal.data["made"] = made
        self.journal.write("staging", list(self.ops.values()))


def missing_dirs(planned: list[Planned]) -> list[Path]:
    """Every folder the restore may make, parents first: the archive's new folders and any
    missing parent of a path it writes."""
    found: dict[Path, None] = {}
    for p in planned:
        if p.action.action not in ("create", "replace"):
            continue
        path = Path(p.action.path)
        chain = [path] if p.action.type == "dir" else []
        current = path.parent
        while current not in found and not os.path.lexists(current) and current != current.parent:
            chain.append(current)
            current = current.parent
        for folder in reversed(chain):
            found.setdefault(folder)
    return list(found)


def _new_mode(entry_mode: int) -> int:
    """A new file is private to its owner whatever the archive says; an executable stays one."""
    return 0o600 | (entry_mode & 0o100)


def _stage_file(stage: Stage, planned: Planned, data: IO[bytes], archive: Path) -> None:
    from vora_cli.core.backup.limits import hash_stream
    from vora_cli.core.writer import StagedFile

    action, entry = planned.action, planned.entry
    target = Path(action.path)
    mode = _new_mode(entry.mode)
    if action.action == "replace" and planned.seen is not None and os.path.isfile(target) and not os.path.islink(target):
        mode = os.lstat(target).st_mode & 0o7777  # an existing file keeps its mode
    staged = StagedFile(target, mode)
    stage.ops[action.path].temp = str(staged.temp)

    written = 0

    def write(chunk: bytes) -> None:
        nonlocal written
        written += len(chunk)
        if written > entry.size:  # bytes the first pass did not see: never written past them
            raise VoraError("conflict", f"{archive.name}: {action.entry} grew since it was verified; nothing was "
                            "restored", "is something rewriting the archive? run the restore again")
        staged.write(chunk)
        stage.moved.add(len(chunk))

    digest, _size = hash_stream(data, write)
    if digest != entry.sha256:
        raise VoraError("conflict", f"{archive.name}: {action.entry} changed since it was verified; nothing was restored",
                        "is something rewriting the archive? run the restore again")
    staged.finish()
    if entry.mtime > 0:
        os.utime(staged.temp, (entry.mtime, entry.mtime))
    stage.ops[action.path].staged(str(staged.temp), digest)
    stage.staged[action.entry] = staged.temp


def _stage_link(stage: Stage, planned: Planned) -> None:
    from vora_cli.core.temp_files import temp_owner, temp_prefix

    path = Path(planned.action.path)
    temp = path.with_name(f"{temp_prefix(path, temp_owner())}{os.urandom(5).hex()}.tmp")
    op = stage.ops[planned.action.path]
    op.temp = str(temp)
    os.symlink(planned.entry.link or "", temp)
    op.staged(str(temp), None)


def stage_all(archive: Path, keys: Keys | None, planned: list[Planned], stage: Stage) -> None:
    """Every create and replace of `planned` staged; an archive changed since the first pass stops it."""
    import gzip
    import tarfile
    import zlib

    from vora_cli.core.backup.encryption import open_archive
    from vora_cli.core.backup.limits import ArchiveBomb, Checked, Counted, Expansion

    by_data: dict[str, list[Planned]] = {}  # member whose bytes a file needs -> the files (its own, hard links)
    for p in planned:
        if p.action.action in ("create", "replace"):
            if p.action.type == "symlink":
                _stage_link(stage, p)
            elif p.action.type == "file":
                by_data.setdefault(p.entry.name, []).append(p)
    member_name = ""
    try:
        with open_archive(archive, keys) as opened:
            raw = Counted(opened.stream)
            with gzip.GzipFile(fileobj=raw, mode="rb") as stream:  # type: ignore[call-overload]  # a counted stream
                checked = Checked(stream, Expansion(raw, stream), archive.name)
                with tarfile.open(fileobj=checked, mode="r|") as tar:  # type: ignore[call-overload]  # a checked stream
                    for member in tar:
                        member_name = checked.member = member.name
                        wanting = by_data.pop(member.name.rstrip("/"), None)
                        if wanting is None:
                            continue
                        data = tar.extractfile(member) if member.isfile() else None
                        if data is None:
                            raise tarfile.TarError("no longer a file")
                        _stage_file(stage, wanting[0], data, archive)
                        for copy in wanting[1:]:  # more names of one file's bytes: copies of the first
                            with open(stage.staged[wanting[0].action.entry], "rb") as again:
                                _stage_file(stage, copy, again, archive)
    except (ArchiveBomb, tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        if isinstance(exc, OSError) and exc.filename is not None:
            raise  # a target's folder or file: the boundary names it
        where = f"{archive}: {member_name}" if member_name else str(archive)
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
        raise VoraError("conflict", f"{where}: the archive changed or broke since it was verified ({why}); "
                        "nothing was restored",
                        "is something rewriting it, or is its disk failing? verify it again, then restore") from None
    if by_data:
        missing = next(iter(by_data))
        raise VoraError("conflict", f"{archive.name}: {missing} is no longer in the archive it was verified from; "
                        "nothing was restored", "is something rewriting the archive? run the restore again")
