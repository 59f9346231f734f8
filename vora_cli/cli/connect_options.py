"""The `--url` and `--timeout` options of the commands that ask the running gateway (`vora
gateway`, `vora logs`, `vora doctor --live`, `vora security audit --live`); opening the client is
`cli/connect.py`'s, which needs no Typer."""

from __future__ import annotations

from typing import Annotated

import typer

UrlOption = Annotated[
    str | None,
    typer.Option("--url", metavar="URL", help="Gateway URL, ws:// or wss:// (default: env VORA_GATEWAY_URL, "
                 "the gateway.url setting, then the config: gateway.remote.url in remote mode, else "
                 "ws://127.0.0.1:<gateway.port>)."),
]
TimeoutOption = Annotated[
    float | None,
    typer.Option("--timeout", metavar="SEC", help="Seconds to wait for the socket, the handshake and each call "
                 "(default: the gateway.timeout setting, else 3)."),
]
