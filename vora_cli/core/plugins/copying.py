"""Putting a plugin's files in place: copy a folder or a file, settle modes, remove a staged copy."""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.errors import VoraError


def copy_tree(src: Path, dest: Path) -> None:
    """Copy a plugin folder (symlinks stay links; VCS folders are left behind).

    Only files, folders and symlinks: a FIFO would block forever and a socket or device cannot
    be copied, so either is refused naming it. OS refusals name the source file, never the
    staging path; the caller deletes the staging dir."""
    import shutil
    import stat

    def copy_file(from_path: str, to_path: str) -> object:
        mode = os.lstat(from_path).st_mode
        if not stat.S_ISREG(mode):
            raise VoraError("invalid", f"{from_path}: {_file_type(mode)} inside the plugin folder cannot be copied",
                            "a plugin folder holds only files, folders and symlinks: remove it (or move it out), "
                            "then install again")
        try:
            return shutil.copy2(from_path, to_path)
        except OSError as exc:
            raise _copy_error(from_path, exc) from exc

    try:
        shutil.copytree(src, dest, symlinks=True, copy_function=copy_file,
                        ignore=shutil.ignore_patterns(".git", ".hg", ".svn"))
    except shutil.Error as exc:  # copytree collects what failed on folders and links
        failures = exc.args[0] if exc.args and isinstance(exc.args[0], list) else []
        first = failures[0] if failures else (str(src), str(dest), str(exc))
        raise VoraError("io_error", f"cannot copy {first[0]}: {_strip_errno(str(first[2]))}",
                        "check that you may read every file of the plugin folder") from exc
    except OSError as exc:
        where = exc.filename if isinstance(exc.filename, str) and not exc.filename.startswith(str(dest)) else src
        raise _copy_error(str(where), exc) from exc


def _copy_error(path: str, exc: OSError) -> VoraError:
    return VoraError("io_error", f"cannot copy {path}: {exc.strerror or type(exc).__name__}",
                     "check that the file is readable and the extensions dir has space")


def _strip_errno(text: str) -> str:
    """`[Errno 13] Permission denied: '/x'` -> `Permission denied: '/x'`."""
    return text.split("] ", 1)[1] if text.startswith("[Errno ") and "] " in text else text


def _file_type(mode: int) -> str:
    import stat

    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device file"
    return "a special file"


def copy_file(src: Path, dest: Path) -> None:
    import shutil

    try:
        shutil.copy2(src, dest)
    except OSError as exc:
        raise _copy_error(str(src), exc) from exc


def remove_path(path: Path) -> None:
    import shutil

    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.exists():
        shutil.rmtree(path, ignore_errors=True)


def settle_modes(staged: Path, owner: tuple[int, int] | None = None) -> None:
    """Make the staged root a 0700 folder (spec README, new state dirs 0700), keeping the modes
    inside except that nothing stays world-writable. `owner` (uid, gid): who everything in it
    belongs to when vora runs as root (`writer.new_owner`), so the gateway's user can read it.
    """
    import stat

    def settle(path: Path) -> None:
        st = path.lstat()
        if owner is not None and (st.st_uid, st.st_gid) != owner:
            os.lchown(path, *owner)
        if not stat.S_ISLNK(st.st_mode) and st.st_mode & 0o002:
            os.chmod(path, stat.S_IMODE(st.st_mode) & ~0o002)

    if staged.is_symlink() or not staged.is_dir():
        settle(staged)
        return
    for dirpath, dirnames, filenames in os.walk(staged):
        for name in (*dirnames, *filenames):
            settle(Path(dirpath) / name)
    settle(staged)
    os.chmod(staged, 0o700)
