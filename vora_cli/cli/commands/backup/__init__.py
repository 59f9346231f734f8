"""`vora backup`: archives of an install that the gateway reads too, proven by their hashes.

One small module per command; this file only composes them. Core logic lives in
`vora_cli/core/backup/`, imported inside the commands so `vora --help` stays light.
"""

from __future__ import annotations

from vora_cli.cli.commands.backup import create, listing, restore, verify
from vora_cli.cli.common import add_command, command_group
from vora_cli.cli.groups import GROUP_HELP

app = command_group(GROUP_HELP["backup"])

add_command(app, "create", create.backup_create,
            examples=(
                "vora backup create",
                "vora backup create --output ~/Backups/ --json",
                "vora backup create --dry-run",
                "vora backup create --only-config",
            ))
add_command(app, "verify", verify.backup_verify,
            examples=("vora backup verify ~/Backups/2026-01-01T00-00-00.000Z-vora-backup.tar.gz --json",))
add_command(app, "restore", restore.backup_restore,
            examples=(
                "vora backup restore ARCHIVE --dry-run",
                "vora backup restore ARCHIVE --to /tmp/inspect",
                "vora backup restore ARCHIVE --force",
            ))
add_command(app, "list", listing.backup_list,
            examples=("vora backup list", "vora backup list ~/Backups --json"))
