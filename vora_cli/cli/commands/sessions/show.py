"""`vora sessions show KEY`: the entry, compaction history, transcript statistics and the
context manifest (what the model sees now). Its body: `cli/hot/sessions.py`."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.clickcompat import app_state
from vora_cli.cli.common import JsonOption
from vora_cli.cli.hot import sessions as hot


def sessions_show(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="Session key (agent:main:main), request key (main) or session id.")],
    agent: Annotated[
        str | None,
        typer.Option("--agent", metavar="ID", help="The agent whose store to look in (default: the key's agent, else the default agent)."),
    ] = None,
    no_preview: Annotated[
        bool, typer.Option("--no-preview", help="Print no transcript content at all (no previews, no summaries).")
    ] = False,
    json: JsonOption = False,
) -> int:
    """Show one session: entry, compactions with checkpoints, transcript stats, context manifest."""
    return hot.sessions_show(app_state(ctx), key=key, agent=agent, no_preview=no_preview, json=json)
