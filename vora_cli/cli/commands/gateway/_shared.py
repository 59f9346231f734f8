"""What `vora gateway`, `vora logs` and the `--live` of `vora doctor` and `vora security audit` share:
the options, opening a client, collecting the status."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from vora_cli.cli.output import Output

if TYPE_CHECKING:
    from vora_cli.core.errors import VoraError
    from vora_cli.core.gateway.client import GatewayClient
    from vora_cli.core.gateway.connect import GatewaySetup
    from vora_cli.core.gateway.status import GatewayStatus
    from vora_cli.core.paths import VoraPaths

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


def setup(paths: VoraPaths, url: str | None, out: Output) -> GatewaySetup:
    from vora_cli.core.gateway.connect import setup_gateway

    found = setup_gateway(paths, os.environ, url)
    for warning in found.target.warnings:
        out.warn(warning)
    return found


def open_client(paths: VoraPaths, found: GatewaySetup, timeout: float | None, out: Output,
                scopes: Sequence[str] | None = None) -> GatewayClient:
    """Connect and complete the handshake; says on stderr when it created this host's identity."""
    from vora_cli.core.gateway.client import READ_SCOPES
    from vora_cli.core.gateway.connect import client_for

    client = client_for(found, paths, timeout, scopes or READ_SCOPES)
    try:
        client.open()
    finally:
        if client.identity_created:
            out.note(f"created this host's device identity at {paths.identity_path} (mode 0600)")
    return client


def live_status(paths: VoraPaths, url: str | None, timeout: float | None,
                out: Output) -> GatewayStatus | VoraError:
    """What `vora gateway status` collects, or the error that stopped it (`--live` of `vora
    doctor` and `vora security audit`: a gateway that does not answer is a finding, not a crash)."""
    from vora_cli.core.errors import VoraError
    from vora_cli.core.gateway.status import collect_status

    try:
        found = setup(paths, url, out)
        with open_client(paths, found, timeout, out) as client:
            status = collect_status(client, found.config)
    except VoraError as error:
        return error
    _remember_version(paths, status)
    return status


def _remember_version(paths: VoraPaths, status: GatewayStatus) -> None:
    """Keep the live gateway's version: what `plugins install` checks a plugin's `compat`
    against when no `gateway.version` is set (docs/plugins.md)."""
    from vora_cli.core.clock import now_ms
    from vora_cli.core.errors import VoraError
    from vora_cli.core.plugins.compat import remember_live_gateway_version

    version = status.hello.server.get("version")
    if not (isinstance(version, str) and version.strip()):
        return
    try:
        remember_live_gateway_version(paths.state_dir, version.strip(), now_ms())
    except (VoraError, OSError):
        pass  # a cache file vora could not write changes no finding
