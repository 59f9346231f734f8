"""`vora sessions`: what each chat holds and what compaction kept, read offline from the files.

One small module per command; this file only composes them. Core logic lives in
`vora_cli/core/sessions/`, imported inside the commands so `vora --help` stays light.
"""

from __future__ import annotations

from vora_cli.cli.commands.sessions import listing, show
from vora_cli.cli.common import add_command, command_group
from vora_cli.cli.groups import GROUP_HELP
from vora_cli.cli.hot import sessions as hot

app = command_group(GROUP_HELP["sessions"])

add_command(app, "list", listing.sessions_list, body=hot.sessions_list,
            examples=("vora sessions list", "vora sessions list --all-agents --active 60 --json"))
add_command(app, "show", show.sessions_show, body=hot.sessions_show,
            examples=("vora sessions show agent:main:main", "vora sessions show main --no-preview --json"))
