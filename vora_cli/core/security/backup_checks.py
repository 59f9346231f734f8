"""vora's backups folder and every archive in it, by owner and mode, an archive known by its content
(`backup_kind`), never by its name (docs/security.md, "Files", `backups`).
"""

from __future__ import annotations

import os

from vora_cli.core.doctor.model import WARN, CheckResult, Install
from vora_cli.core.security import perms
from vora_cli.core.security.model import CRITICAL
from vora_cli.core.security.perms import (
    GROUP_READABLE,
    GROUP_WRITABLE,
    WORLD_READABLE,
    WORLD_WRITABLE,
    Kind,
    Targets,
)

BACKUPS_DIR = Kind("backups folder", True, {**perms.PRIVATE_DIR, GROUP_WRITABLE: CRITICAL},
                   why="whoever can write it can put a forged archive where vora backup restore takes it from")
BACKUP_ARCHIVE = Kind("backup archive", False, perms.SECRET, why="it holds every token and key of the install")
SEALED_ARCHIVE = Kind("encrypted backup archive", False, {
    WORLD_WRITABLE: CRITICAL, GROUP_WRITABLE: CRITICAL, WORLD_READABLE: WARN, GROUP_READABLE: WARN},
    why="it is sealed with age, but whoever can change it can destroy the backup")


def check_backups(install: Install) -> CheckResult:
    from vora_cli.core.backup.listing import backup_kind
    from vora_cli.core.errors import VoraError
    from vora_cli.core.security.file_checks import rate_files
    from vora_cli.core.userdirs import backup_dir

    folder = backup_dir()
    targets = Targets()
    targets.add(folder, BACKUPS_DIR)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    for name in names:
        path = folder / name
        try:
            kind = None if name.startswith(".") else backup_kind(path)
        except VoraError:
            continue  # unreadable by this user: nothing to rate from here
        if kind is not None:
            targets.add(path, SEALED_ARCHIVE if kind == "encrypted" else BACKUP_ARCHIVE)
    return rate_files("backups", install, targets, "only you can read and change the backups folder and its archives")
