"""`vora settings`: the operator's own preferences, in the user config dir (docs/settings.md).

One small module per concern; core logic is the package `vora_cli/core/settings/`, imported inside the
commands so `vora --help` stays light.
"""

from __future__ import annotations

from vora_cli.cli.commands.settings import edit, show
from vora_cli.cli.common import add_command, command_group
from vora_cli.cli.groups import GROUP_HELP

app = command_group(GROUP_HELP["settings"])

add_command(app, "list", show.settings_list, examples=("vora settings list", "vora settings list --json"))
add_command(app, "get", show.settings_get,
            examples=("vora settings get color", "vora settings get doctor.fail_on --json"))
add_command(app, "set", edit.settings_set,
            examples=(
                "vora settings set color never",
                "vora settings set doctor.skip skills,pairing-store",
                "vora settings set lock_timeout 30",
            ))
add_command(app, "unset", edit.settings_unset, examples=("vora settings unset profile",))
add_command(app, "path", show.settings_path, examples=("vora settings path", "vora settings path --json"))
