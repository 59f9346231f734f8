"""`vora sessions list`: every stored session with its age, model and context used (its body: `cli/hot/sessions.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.clickcompat import app_state
from vora_cli.cli.commands.sessions._shared import AgentOption
from vora_cli.cli.common import JsonOption, NoHeadersOption
from vora_cli.cli.hot import sessions as hot


def sessions_list(
    ctx: typer.Context,
    agent: AgentOption = None,
    all_agents: Annotated[bool, typer.Option("--all-agents", help="Every configured agent and every store on disk.")] = False,
    active: Annotated[
        int | None, typer.Option("--active", metavar="MINUTES", help="Only sessions active in the last MINUTES.")
    ] = None,
    json: JsonOption = False,
    no_headers: NoHeadersOption = False,
) -> int:
    """List sessions: key, kind, age, model, context used of the window, compactions, transcript size."""
    return hot.sessions_list(app_state(ctx), agent=agent, all_agents=all_agents, active=active, json=json,
                             no_headers=no_headers)
