"""`vora devices approve`: approve a pairing request by id, by device, or the newest one (its body:
`cli/hot/devices.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.clickcompat import app_state
from vora_cli.cli.common import DryRunOption, JsonOption, YesOption
from vora_cli.cli.hot import devices as hot


def devices_approve(
    ctx: typer.Context,
    request_id: Annotated[str | None, typer.Argument(
        metavar="[REQUEST_ID]", help="The request id, or its first 8+ characters (see 'vora devices list').")] = None,
    device: Annotated[
        str | None, typer.Option("--device", metavar="ID", help="Approve the newest live request of this device (id or 8+ hex prefix).")
    ] = None,
    latest: Annotated[bool, typer.Option("--latest", help="Show the newest live request and ask; --yes approves it.")] = False,
    yes: YesOption = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> int:
    """Approve a pairing request: mints one fresh token per requested role (never printed)."""
    return hot.devices_approve(app_state(ctx), request_id=request_id, device=device, latest=latest, yes=yes,
                               dry_run=dry_run, json=json)
