"""`vora gateway`: ask the running gateway what it actually did (spec gateway.md).

Read-only over the network; the only files written are this host's device identity and
device token. Core logic lives in `vora_cli/core/gateway/`, imported inside the commands.
"""

from __future__ import annotations

from vora_cli.cli.commands.gateway import call, status
from vora_cli.cli.common import add_command, command_group
from vora_cli.cli.groups import GROUP_HELP
from vora_cli.cli.hot import gateway as hot

app = command_group(GROUP_HELP["gateway"])

add_command(app, "status", status.gateway_status, body=hot.gateway_status, examples=status.EXAMPLES)
add_command(app, "call", call.gateway_call, examples=call.EXAMPLES)
