"""The writer's temp files, named after their writer, and the removal of those whose writer provably died
(docs/reliability.md, "Temp files of dead writers are cleaned"). The writer is the only caller.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import stat
from pathlib import Path

from vora_cli.core.errors import VoraError

# `.<name>.vora-<pid>-<start>.<random>.tmp`: who wrote it (pid and /proc start time, 0 where there
# is none), so a later vora can prove the writer is gone and remove what a `kill -9` left.
# (compiled on first use, by `re`'s cache: a folder without temp files never needs it)
_TEMP_NAME = r"\.(?P<name>.+)\.vora-(?P<pid>\d+)-(?P<start>\d+)\.[A-Za-z0-9_]+\.tmp"
_CLEANED: set[str] = set()  # folders this process has already cleaned (once per folder per run)


NAME_MAX = 255  # bytes of one file name (Linux, macOS)
_RANDOM = 10  # hex digits of a temp name's random part


def fitted(name: str, room: int) -> str:
    """`name` cut to `room` bytes (as the file system stores it) when it is longer: a temp or
    kept name is the target's name plus vora's parts, and a target's own name may use all 255."""
    data = os.fsencode(name)
    return name if len(data) <= room else os.fsdecode(data[:room])


def temp_prefix(target: Path, owner: str) -> str:
    """`.<name>.<owner>.`: the temp files of `owner` beside `target` start so (the name cut to fit)."""
    room = NAME_MAX - len(f"..{owner}.") - _RANDOM - len(".tmp")
    return f".{fitted(target.name, room)}.{owner}."


def temp_owner() -> str:
    """`vora-<pid>-<start>`: this process as its temp files name it."""
    return _temp_owner()


@functools.cache
def _temp_owner() -> str:
    from vora_cli.core.processes import process_start

    return f"vora-{os.getpid()}-{process_start(os.getpid()) or 0}"


# What `tempfile.mkstemp` opens with, made here: `tempfile` imports `shutil` (with bz2, lzma and
# zlib), `random` and `weakref`, which a command that writes a file would otherwise load.
_NEW_TEMP = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
_TEMP_TRIES = 100  # names are random: a clash is a retry, a hundred of them something else


def temp_file(target: Path) -> tuple[int, str]:
    """A new temp file beside `target`, named after this process, flock-ed while it is open: 0600,
    created exclusively, never through a link, as `tempfile.mkstemp` makes one."""
    clean_dead_temps(target.parent)
    prefix = os.path.join(os.path.abspath(target.parent), temp_prefix(target, _temp_owner()))
    try:
        for attempt in range(_TEMP_TRIES):
            name = f"{prefix}{os.urandom(_RANDOM // 2).hex()}.tmp"
            try:
                fd = os.open(name, _NEW_TEMP, 0o600)
                break
            except FileExistsError:
                if attempt == _TEMP_TRIES - 1:
                    raise
    except OSError as exc:
        raise VoraError("io_error", f"cannot write in {target.parent}: {exc.strerror}") from exc
    with contextlib.suppress(ImportError, OSError):
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd, name


def clean_dead_temps(directory: Path) -> list[Path]:
    """Remove the temp files in `directory` whose vora writer is provably dead; what went.
    Provably: the name's pid runs no more (or runs a process with another start time), and the
    file's flock is free (a live writer holds it until the rename, whatever its pid namespace).
    Only regular files of this user's, never through a link; a temp file without vora's writer
    in its name is left alone. Once per folder per process.
    """
    key = str(directory)
    if key in _CLEANED:
        return []
    _CLEANED.add(key)
    try:
        import fcntl
    except ImportError:
        return []
    from vora_cli.core.processes import pid_alive

    removed: list[Path] = []
    try:
        entries = [e.name for e in os.scandir(directory) if e.name.endswith(".tmp") and ".vora-" in e.name]
    except OSError:
        return removed
    for name in entries:
        match = re.fullmatch(_TEMP_NAME, name)
        if match is None:
            continue
        pid, start = int(match["pid"]), int(match["start"])
        if pid_alive(pid, start or None):
            continue
        path = directory / name
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # its writer is alive after all
            if os.path.samestat(info, os.lstat(path)):
                os.unlink(path)
                removed.append(path)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed
