"""`vora gateway status`: is the gateway up, does it accept vora, what did this start load."""

from __future__ import annotations

import typer

from vora_cli.cli.clickcompat import app_state
from vora_cli.cli.common import JsonOption
from vora_cli.cli.connect_options import TimeoutOption, UrlOption
from vora_cli.cli.hot import gateway as hot

EXAMPLES = (
    "vora gateway status",
    "vora gateway status --json",
    "vora gateway status --url ws://127.0.0.1:19001",
)


def gateway_status(
    ctx: typer.Context,
    url: UrlOption = None,
    timeout: TimeoutOption = None,
    json: JsonOption = False,
) -> int:
    """Connect to the running gateway and report version, auth, health, memory and loaded plugins.

    Exit 0 when the gateway completed the handshake (a later call that failed is reported in its
    part), 1 when it could not be reached or refused vora.
    """
    return hot.gateway_status(app_state(ctx), url=url, timeout=timeout, json=json)
