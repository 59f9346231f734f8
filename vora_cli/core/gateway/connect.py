"""From an install to a gateway client: read the config once, find the target (spec gateway.md)."""

from __future__ import annotations

from collections.abc import Sequence

from vora_cli.core.errors import VoraError
from vora_cli.core.gateway.client import READ_SCOPES, GatewayClient
from vora_cli.core.gateway.target import Target, resolve_target
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install


@dataclass(frozen=True)
class GatewaySetup:
    """The resolved config and the target a gateway command connects with."""
    config: dict[str, Any]  # placeholders resolved; VORA_GATEWAY_TOKEN NOT folded in (sources matter)
    target: Target


def read_gateway_config(install: Install) -> dict[str, Any]:
    """The config with `${VAR}` resolved, without VORA_GATEWAY_TOKEN folded in (the credential's
    source matters to the gateway's rules)."""
    from vora_cli.core.config.loading import substitute_env

    loaded = install.require_config()
    value, _ = substitute_env(loaded.value, loaded.runtime_env)
    return value if isinstance(value, dict) else {}


def check_timeout(timeout: float) -> float:
    if not timeout > 0 or timeout > 600:
        raise VoraError("usage", f"invalid --timeout {timeout:g}", "give seconds between 0 and 600, e.g. --timeout 3")
    return timeout


def resolve_timeout(install: Install, flag: float | None) -> float:
    """Seconds per live-gateway step: --timeout > the `gateway.timeout` setting > 3 (docs/settings.md)."""
    # the setting's own check (core/settings/resolve.py) refuses what the client cannot use
    return check_timeout(float(install.settings.value("gateway.timeout", flag)))


def setup_gateway(install: Install, url: str | None) -> GatewaySetup:
    """The config and the target: URL from --url > VORA_GATEWAY_URL > the gateway.url setting > the config."""
    config = read_gateway_config(install)
    return GatewaySetup(config, resolve_target(config, install.env, url, install.settings))


def open_client(install: Install, setup: GatewaySetup, timeout: float | None, scopes: Sequence[str] = READ_SCOPES,
                *, notes: list[str], reveal: bool = False) -> GatewayClient:
    """A client, connected and past the handshake. When the handshake made this host's device
    identity, `notes` gets a line saying so, also when the handshake then failed. `reveal`:
    payloads as the gateway sent them, not through vora's secret rules."""
    client = client_for(install, setup, timeout, scopes, reveal=reveal)
    try:
        client.open()
    finally:
        if client.identity_created:
            notes.append(f"created this host's device identity at {install.paths.identity_path} (mode 0600)")
    return client


def client_for(install: Install, setup: GatewaySetup, timeout: float | None,
               scopes: Sequence[str] = READ_SCOPES, *, reveal: bool = False) -> GatewayClient:
    """A client (not yet open); `timeout` None means the `gateway.timeout` setting, else 3 s. It
    knows the run's secrets (the config's, the environment's) to keep them out of what it returns."""
    from vora_cli.core.gateway.shown import known_secrets

    return GatewayClient(setup.target, install.paths.state_dir, timeout=resolve_timeout(install, timeout),
                         now_ms=install.now_ms, lock_timeout=install.lock_timeout, scopes=tuple(scopes),
                         secrets=known_secrets(setup.config, install.env), reveal=reveal,
                         may_write=install.may_write_state, refuse_write=install.refuse_newer_line_write)
