"""`vora gateway status` stores the device token 0600 over an existing, wider token store
(spec gateway.md, "Device token"), against the real test gateway."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from gateway_server import running_gateway

from vora_cli.core.gateway.device import device_auth_path


def _loose_store(state: Path, device_id: str, token: str) -> Path:
    path = device_auth_path(state)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 1, "deviceId": device_id, "tokens": {"operator": {
        "token": token, "role": "operator", "scopes": ["operator.read"], "updatedAtMs": 1}}}, indent=2) + "\n")
    path.chmod(0o644)
    return path


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_gateway_status_stores_the_token_0600_over_a_loose_store(state_dir: Path, vora: Any, monkeypatch: Any) -> None:
    path = _loose_store(state_dir, "not-this-host", "stale")
    with running_gateway() as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))  # the config's gateway: tokens are stored from it
        doc = vora("gateway", "status", "--json").json()
    assert doc["device"]["tokenStored"] is True
    assert json.loads(path.read_text())["deviceId"] == doc["device"]["id"]
    assert _mode(path) == 0o600
