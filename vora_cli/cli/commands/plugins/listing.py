"""`vora plugins list` (its body: `cli/hot/plugins.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.clickcompat import app_state
from vora_cli.cli.common import JsonOption, NoHeadersOption
from vora_cli.cli.hot import plugins as hot


def plugins_list(
    ctx: typer.Context,
    enabled: Annotated[bool, typer.Option("--enabled", help="Only plugins the gateway would load.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Add the reason for each enable decision.")] = False,
    json: JsonOption = False,
    no_headers: NoHeadersOption = False,
) -> int:
    """List the plugins the gateway would find: status, origin, version and path."""
    return hot.plugins_list(app_state(ctx), enabled=enabled, verbose=verbose, json=json, no_headers=no_headers)
