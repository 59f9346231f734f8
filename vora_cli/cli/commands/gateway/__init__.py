"""`vora gateway`: ask the running gateway what it actually did (spec gateway.md).

Read-only over the network; the only files written are this host's device identity and
device token. Core logic lives in `vora_cli/core/gateway/`, imported inside the commands.
"""

from __future__ import annotations

import typer

from vora_cli.cli.commands.gateway import call, status

app = typer.Typer(help="Ask the running gateway: reachability, auth, health, memory, loaded plugins; raw RPC.",
                  no_args_is_help=True)

app.command("status", epilog=status.EPILOG)(status.gateway_status)
app.command("call", epilog=call.EPILOG)(call.gateway_call)
