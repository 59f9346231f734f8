"""From an install to a gateway client: read the config once, find the target (spec gateway.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vora_cli.core.errors import VoraError
from vora_cli.core.gateway.client import READ_SCOPES, GatewayClient
from vora_cli.core.gateway.target import Target, resolve_target
from vora_cli.core.paths import VoraPaths


@dataclass(frozen=True)
class GatewaySetup:
    config: dict[str, Any]  # placeholders resolved; VORA_GATEWAY_TOKEN NOT folded in (sources matter)
    target: Target


def read_gateway_config(paths: VoraPaths, env: Mapping[str, str]) -> dict[str, Any]:
    from vora_cli.core.config.loading import load_config, substitute_env

    loaded = load_config(paths, env)
    value, _ = substitute_env(loaded.value, env)
    return value if isinstance(value, dict) else {}


def check_timeout(timeout: float) -> float:
    if not timeout > 0 or timeout > 600:
        raise VoraError("usage", f"invalid --timeout {timeout:g}", "give seconds between 0 and 600, e.g. --timeout 3")
    return timeout


def resolve_timeout(flag: float | None) -> float:
    """Seconds per live-gateway step: --timeout > the `gateway.timeout` setting > 3 (docs/settings.md)."""
    from vora_cli.core.settings.resolve import SOURCE_SETTINGS, resolve_setting

    found = resolve_setting("gateway.timeout", flag)
    timeout = float(found.value)
    if found.source == SOURCE_SETTINGS and not 0 < timeout <= 600:
        raise VoraError("invalid", f"setting 'gateway.timeout' in {found.origin} must be seconds between 0 and 600, "
                        f"not {found.value!r}", "fix it: vora settings set gateway.timeout 3")
    return check_timeout(timeout)


def _url_setting() -> str | None:
    from vora_cli.core.settings.resolve import setting_value

    value = setting_value("gateway.url")
    return value if isinstance(value, str) else None


def setup_gateway(paths: VoraPaths, env: Mapping[str, str], url: str | None) -> GatewaySetup:
    """The config and the target: URL from --url > VORA_GATEWAY_URL > the gateway.url setting > the config."""
    config = read_gateway_config(paths, env)
    return GatewaySetup(config, resolve_target(config, env, url, _url_setting))


def client_for(setup: GatewaySetup, paths: VoraPaths, timeout: float | None,
               scopes: Sequence[str] = READ_SCOPES) -> GatewayClient:
    """A client (not yet open); `timeout` None means the `gateway.timeout` setting, else 3 s."""
    return GatewayClient(setup.target, paths.state_dir, timeout=resolve_timeout(timeout), scopes=tuple(scopes))
