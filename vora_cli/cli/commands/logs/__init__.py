"""`vora logs`: the gateway's log, through the gateway (`logs.tail`) or straight from the file."""

from __future__ import annotations

from vora_cli.cli.commands.logs.command import EPILOG, logs
from vora_cli.cli.common import add_command, command_group

app = command_group("Show the gateway's log: through the running gateway, else from the log file.", no_args_is_help=False)
add_command(app, "logs", logs, epilog=EPILOG)
