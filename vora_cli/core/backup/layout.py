"""How a backup archive is named and laid out: the gateway's own layout (openclaw 2026.4.12,
`tests/data/upstream/backup/`), so each side reads the other's archives.

`<createdAt, ':' -> '-'>-vora-backup.tar.gz` holds one folder of the same name (the archive
root) with `manifest.json` and `payload/posix/<absolute source path>/…`.
"""

from __future__ import annotations

import posixpath
import re
from datetime import UTC, datetime
from pathlib import Path

SCHEMA_VERSION = 1
MANIFEST_NAME = "manifest.json"
PAYLOAD = "payload"
SUFFIX = ".tar.gz"
VORA_KIND = "vora-backup"
PRE_RESTORE_KIND = "vora-pre-restore-backup"
# Archive names `vora backup list` recognises: vora's, vora's pre-restore copies and the gateway's.
_BACKUP_NAME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(?:\.\d+)?Z-[a-z0-9-]*backup\.tar\.gz$")


def iso_time(ms: int) -> str:
    """`2026-01-01T00:00:00.000Z`, as JavaScript's `toISOString` writes it."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def archive_root(now_ms: int, kind: str = VORA_KIND) -> str:
    return f"{iso_time(now_ms).replace(':', '-')}-{kind}"


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


def within(path: str, folder: str) -> bool:
    """Is the archive path `path` the folder `folder` or below it?"""
    return path == folder or path.startswith(folder.rstrip("/") + "/")
