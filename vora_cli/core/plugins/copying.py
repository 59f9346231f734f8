"""Putting a plugin's files in place: copy a folder or a file, settle modes, remove a staged copy."""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.errors import VoraError


def copy_tree(src: Path, dest: Path) -> None:
    """Copy a plugin folder (symlinks stay links; VCS folders are left behind), without recursion and
    refusing a folder deeper than the install scan would accept before it grows the staging dir.

    Only files, folders and symlinks: a FIFO would block forever and a socket or device cannot
    be copied, so either is refused naming it. OS refusals name the source file, never the
    staging path; the caller deletes the staging dir."""
    import shutil
    import stat

    from vora_cli.core.plugins.install_scan import MAX_DEPTH, too_deep

    copied: list[tuple[str, str]] = []
    stack = [(os.fspath(src), os.fspath(dest), 0)]
    while stack:
        here, there, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise too_deep(here)
        try:
            with os.scandir(here) as listing:
                found = sorted(listing, key=lambda entry: entry.name)
            os.mkdir(there)
        except OSError as exc:
            raise _copy_error(here, exc) from exc
        copied.append((here, there))
        for entry in found:
            if entry.name in _LEFT_BEHIND:
                continue
            to = os.path.join(there, entry.name)
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISLNK(mode):
                    os.symlink(os.readlink(entry.path), to)
                    shutil.copystat(entry.path, to, follow_symlinks=False)
                elif stat.S_ISDIR(mode):
                    stack.append((entry.path, to, depth + 1))
                elif stat.S_ISREG(mode):
                    shutil.copy2(entry.path, to, follow_symlinks=False)
                else:
                    raise VoraError("invalid", f"{entry.path}: {_file_type(mode)} inside the plugin folder cannot "
                                    "be copied", "a plugin folder holds only files, folders and symlinks: remove it "
                                    "(or move it out), then install again")
            except OSError as exc:
                raise _copy_error(entry.path, exc) from exc
    for here, there in reversed(copied):  # the deepest first, so filling a folder does not touch its times again
        try:
            shutil.copystat(here, there, follow_symlinks=False)
        except OSError as exc:
            raise _copy_error(here, exc) from exc


_LEFT_BEHIND = frozenset({".git", ".hg", ".svn"})  # VCS folders (or files) are not part of the plugin


def _copy_error(path: str, exc: OSError) -> VoraError:
    return VoraError("io_error", f"cannot copy {path}: {exc.strerror or type(exc).__name__}",
                     "check that the file is readable and the extensions dir has space")


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
    from vora_cli.core import trees

    for entry, _depth in trees.entries(staged):
        settle(Path(entry.path))
    settle(staged)
    os.chmod(staged, 0o700)
