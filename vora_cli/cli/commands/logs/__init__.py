"""`vora logs`: the gateway's log, through the gateway (`logs.tail`) or straight from the file."""

from __future__ import annotations

import typer

from vora_cli.cli.commands.logs.command import EPILOG, logs

app = typer.Typer(help="Show the gateway's log: through the running gateway, else from the log file.")
app.command("logs", epilog=EPILOG)(logs)
