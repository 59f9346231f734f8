"""What the commands that ask the running gateway share (`vora gateway`, `vora logs`, `vora
doctor --live`): opening a client with its warnings and notes on stderr. One CLI module beside the
groups, so no group imports another group's module; Typer-free, for the hot commands too. Their
`--url` and `--timeout` options are in `cli/options.py`."""

from __future__ import annotations

from collections.abc import Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.output import Output
    from vora_cli.core.gateway.client import GatewayClient
    from vora_cli.core.gateway.connect import GatewaySetup
    from vora_cli.core.install import Install

def setup(install: Install, url: str | None, out: Output) -> GatewaySetup:
    """The config and the target (core: `setup_gateway`); the target's warnings on stderr."""
    from vora_cli.core.gateway.connect import setup_gateway

    found = setup_gateway(install, url)
    for warning in found.target.warnings:
        out.warn(warning)
    return found


def open_client(install: Install, found: GatewaySetup, timeout: float | None, out: Output,
                scopes: Sequence[str] | None = None, *, reveal: bool = False) -> GatewayClient:
    """Connect and complete the handshake; says on stderr when it created this host's identity.
    Payloads come through vora's secret rules unless `reveal` (`--reveal`)."""
    from vora_cli.core.gateway.client import READ_SCOPES
    from vora_cli.core.gateway.connect import open_client as connect

    notes: list[str] = []
    try:
        return connect(install, found, timeout, scopes or READ_SCOPES, notes=notes, reveal=reveal)
    finally:
        for note in notes:
            out.note(note)


def tell(out: Output, warnings: Sequence[str], notes: Sequence[str]) -> None:
    """What a core operation that asked the gateway has to say on the way (`--live` of `vora
    doctor` and `vora security audit`): its warnings, then its notes, on stderr."""
    for warning in warnings:
        out.warn(warning)
    for note in notes:
        out.note(note)
