"""`vora logs`: the gateway's log, through the gateway (`logs.tail`) or straight from the file."""

from __future__ import annotations

from vora_cli.cli.commands.logs.command import EXAMPLES, logs
from vora_cli.cli.common import add_command, command_group
from vora_cli.cli.groups import GROUP_HELP

app = command_group(GROUP_HELP["logs"], no_args_is_help=False)  # one command: its docstring is the help
add_command(app, "logs", logs, examples=EXAMPLES)
