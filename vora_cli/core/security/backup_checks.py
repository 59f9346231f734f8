"""vora's backups folder and every archive in it, by owner and mode (docs/security.md, "Files").

A backup archive holds every token and key of the install (unless it is age-encrypted), and a
folder others can write to is where a forged archive waits for a restore. The folder is rated
like the state dir (0700), each plain archive like a credential (0600), an encrypted one less
severely for being read (its content is sealed) but as severely for being writable. An archive
is known by its content, whatever its name, by the one rule `backup list` uses too
(core/backup/listing.py, `backup_kind`): a link is rated only when what it leads to is an archive,
so no finding ever names a file that is not one. The fix is the file checks' chmod, of exactly
the folder or archive looked at, never through a symlink.
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
