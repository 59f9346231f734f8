"""`vora plugins`: install, link, list, inspect, enable/disable, use, uninstall, update, init.

One small module per command; this file only composes them.
"""

from __future__ import annotations

from vora_cli.cli.commands.plugins import enable, info, init, install, listing, uninstall, update, use
from vora_cli.cli.common import add_command, command_group
from vora_cli.cli.groups import GROUP_HELP
from vora_cli.cli.hot import plugins as hot

app = command_group(GROUP_HELP["plugins"])

add_command(app, "install", install.plugins_install, examples=install.EXAMPLES)
add_command(app, "list", listing.plugins_list, body=hot.plugins_list,
            examples=("vora plugins list --verbose", "vora plugins list --enabled --json"))
add_command(app, "inspect", info.plugins_inspect, examples=("vora plugins inspect my-engine --json",))
add_command(app, "info", info.plugins_inspect, examples=("vora plugins inspect my-engine --json",),
            help="Same as 'inspect'.")
add_command(app, "enable", enable.plugins_enable, examples=("vora plugins enable my-engine",))
add_command(app, "disable", enable.plugins_disable, examples=("vora plugins disable my-engine --dry-run",))
add_command(app, "use", use.plugins_use,
            examples=("vora plugins use my-engine", "vora plugins use my-memory --slot memory"))
add_command(app, "uninstall", uninstall.plugins_uninstall,
            examples=("vora plugins uninstall my-engine --dry-run", "vora plugins uninstall my-engine --yes"))
add_command(app, "update", update.plugins_update,
            examples=("vora plugins update lossless-claw", "vora plugins update --all --dry-run"))
add_command(app, "init", init.plugins_init,
            examples=("vora plugins init ./my-engine --id my-engine --kind context-engine",))
