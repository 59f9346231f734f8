"""How a backup archive is named and laid out: the gateway's own layout (openclaw 2026.4.12), so each side
reads the other's archives (docs/backup.md, "The archive").
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Generic, TypeVar

from vora_cli.core.clock import iso_utc

SCHEMA_VERSION = 1
MANIFEST_NAME = "manifest.json"
PAYLOAD = "payload"
SUFFIX = ".tar.gz"
VORA_KIND = "vora-backup"
PRE_RESTORE_KIND = "vora-pre-restore-backup"
# Archive names `vora backup list` recognises: vora's, vora's pre-restore copies and the gateway's.
_BACKUP_NAME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(?:\.\d+)?Z-[a-z0-9-]*backup\.tar\.gz$")


def archive_root(now_ms: int, kind: str = VORA_KIND) -> str:
    return f"{iso_utc(now_ms).replace(':', '-')}-{kind}"


def is_backup_name(name: str) -> bool:
    return bool(_BACKUP_NAME.match(name))


def encode_source(source: Path) -> str:
    """`/home/me/.vora` -> `posix/home/me/.vora` (the gateway's encoding of an absolute path)."""
    text = str(source).replace("\\", "/")
    drive = re.match(r"^([A-Za-z]):/(.*)$", text)
    if drive:
        return posixpath.join("windows", drive.group(1).upper(), drive.group(2))
    if text.startswith("/"):
        return posixpath.join("posix", text[1:])
    return posixpath.join("relative", text)


def payload_path(root: str, source: Path) -> str:
    """Where `source` lives in an archive whose root folder is `root`."""
    return posixpath.join(root, PAYLOAD, encode_source(source)).rstrip("/")


def manifest_path(root: str) -> str:
    return f"{root}/{MANIFEST_NAME}"


def is_manifest_member(name: str) -> bool:
    """`<root>/manifest.json`: the one member that is the manifest (the gateway's rule), whatever
    the archive root is called."""
    parts = name.strip("/").split("/")
    return len(parts) == 2 and parts[1] == MANIFEST_NAME


_T = TypeVar("_T")


class _Node(Generic[_T]):
    __slots__ = ("children", "value")

    def __init__(self) -> None:
        self.value: _T | None = None
        self.children: dict[str, _Node[_T]] = {}


class PathIndex(Generic[_T]):
    """Values kept at "/"-separated paths (archive names, absolute paths), looked up in one walk
    of a path's components: which kept path holds a given one, however many paths are kept (an
    archive may declare thousands of assets; comparing each entry with each one is quadratic).
    A node exists only on the way to a kept value."""

    def __init__(self) -> None:
        self._root: _Node[_T] = _Node()

    def put(self, path: str, value: _T) -> None:
        """Keep `value` at `path` (over any value kept there)."""
        node = self._root
        for name in path.rstrip("/").split("/"):
            node = node.children.setdefault(name, _Node())
        node.value = value

    def clash(self, path: str) -> _T | None:
        """A value kept at `path`, above it or below it, if any."""
        node = self._root
        for name in path.rstrip("/").split("/"):
            child = node.children.get(name)
            if child is None:
                return None
            if child.value is not None:
                return child.value
            node = child
        while node.value is None:  # every branch below leads to a kept value
            node = next(iter(node.children.values()))
        return node.value

    def along(self, path: str) -> list[_T]:
        """The values kept at `path` and above it, the outermost first."""
        found = []
        node = self._root
        for name in path.rstrip("/").split("/"):
            child = node.children.get(name)
            if child is None:
                break
            if child.value is not None:
                found.append(child.value)
            node = child
        return found

    def deepest(self, path: str) -> _T | None:
        """The value kept nearest above `path` (or at it), if any."""
        found = self.along(path)
        return found[-1] if found else None
