"""`vora devices list` (its body: `cli/hot/devices.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.clickcompat import app_state
from vora_cli.cli.common import JsonOption, NoHeadersOption
from vora_cli.cli.hot import devices as hot


def devices_list(
    ctx: typer.Context,
    pending: Annotated[bool, typer.Option("--pending", help="Only pending pairing requests.")] = False,
    paired: Annotated[bool, typer.Option("--paired", help="Only paired devices.")] = False,
    json: JsonOption = False,
    no_headers: NoHeadersOption = False,
) -> int:
    """List pending pairing requests and paired devices (tokens are never shown)."""
    return hot.devices_list(app_state(ctx), pending=pending, paired=paired, json=json, no_headers=no_headers)
