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


def setup_gateway(paths: VoraPaths, env: Mapping[str, str], url: str | None) -> GatewaySetup:
    config = read_gateway_config(paths, env)
    return GatewaySetup(config, resolve_target(config, env, url))


def client_for(setup: GatewaySetup, paths: VoraPaths, timeout: float,
               scopes: Sequence[str] = READ_SCOPES) -> GatewayClient:
    return GatewayClient(setup.target, paths.state_dir, timeout=check_timeout(timeout), scopes=tuple(scopes))
