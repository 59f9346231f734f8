"""Walking and removing folder trees without recursion: Python 3.11's `os.walk`, `shutil.rmtree` and
`shutil.copytree` recurse once per level, so a tree deeper than the recursion limit (a deep
`node_modules`, a hostile archive) would end a command in `RecursionError`. Symlinks are never followed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


def entries(root: Path | str) -> Iterator[tuple[os.DirEntry[str], int]]:
    """Every entry under the folder `root`, each folder's entries before what lies inside them, with its
    depth (1 for `root`'s own entries). A folder that cannot be listed is passed over."""
    stack = [(os.fspath(root), 1)]
    while stack:
        here, depth = stack.pop()
        try:
            with os.scandir(here) as listing:
                found = list(listing)
        except OSError:
            continue
        for entry in found:
            yield entry, depth
            if _is_folder(entry):
                stack.append((entry.path, depth + 1))


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def remove(path: Path | str) -> bool:
    """Remove `path` (a file, a link or a whole folder, however deep); whether nothing of it is left.
    What cannot be removed stays, and the rest still goes."""
    path = os.fspath(path)
    try:
        if not _lstat_is_folder(path):
            os.unlink(path)
            return True
    except FileNotFoundError:
        return True
    except OSError:
        return False
    folders = [path]
    for entry, _depth in entries(path):
        if _is_folder(entry):
            folders.append(entry.path)
            continue
        try:
            os.unlink(entry.path)
        except FileNotFoundError:
            pass
        except OSError:
            continue
    for folder in reversed(folders):  # the deepest first: each is empty once what it held has gone
        try:
            os.rmdir(folder)
        except FileNotFoundError:
            pass
        except OSError:
            continue
    return not os.path.lexists(path)


def _lstat_is_folder(path: str) -> bool:
    import stat

    return stat.S_ISDIR(os.lstat(path).st_mode)


def size(path: Path | str) -> tuple[int, int]:
    """Bytes and files under the folder `path` (0, 0 when it does not exist)."""
    total = files = 0
    for entry, _depth in entries(path):
        if _is_folder(entry):
            continue
        try:
            total += entry.stat(follow_symlinks=False).st_size
        except OSError:
            continue
        files += 1
    return total, files
