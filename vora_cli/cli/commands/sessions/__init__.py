"""`vora sessions`: what each chat holds and what compaction kept, read offline from the files.

One small module per command; this file only composes them. Core logic lives in
`vora_cli/core/sessions/`, imported inside the commands so `vora --help` stays light.
"""

from __future__ import annotations

import typer

from vora_cli.cli.commands.sessions import listing, show

app = typer.Typer(
    help="Session stores and transcripts: context used, compactions, what the model sees now (read-only).",
    no_args_is_help=True,
)

app.command("list", epilog="Examples: vora sessions list; vora sessions list --all-agents --active 60 --json")(
    listing.sessions_list
)
app.command("show", epilog="Examples: vora sessions show agent:main:main; vora sessions show main --no-preview --json")(
    show.sessions_show
)
