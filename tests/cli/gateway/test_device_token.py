"""The stored device token goes only to the gateway the config names (issue 22; decision in
docs/gateway.md, "The device token goes only to the config's gateway").

It is a credential of the real gateway: sent to a stand-in at `--url`, `VORA_GATEWAY_URL` or the
`gateway.url` setting, the stand-in would learn it, and could replace it (a `hello-ok` with a
token of its own) or have vora delete it (`AUTH_DEVICE_TOKEN_MISMATCH`). So vora sends it, stores
a new one and drops a refused one only for the URL the config resolves to — by default, or
named again with `--url`.

`vora gateway status` stores the device token 0600 over an existing, wider token store
(spec gateway.md, "Device token"), against the real test gateway.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from gateway_server import running_gateway

from vora_cli.core.gateway.device import device_auth_path


def stored(state_dir: Path) -> str:
    return json.loads((state_dir / "identity" / "device-auth.json").read_text())["tokens"]["operator"]["token"]


@pytest.fixture
def paired(state_dir: Path, vora: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A real gateway the config names (its port), that this host paired with: a token is stored."""
    with running_gateway() as gw:
        (state_dir / "vora.json").write_text(json.dumps({"gateway": {"port": gw.port}}))
        assert vora("gateway", "status", "--json").json()["device"]["tokenStored"] is True
        yield gw


@pytest.mark.parametrize("how", ["--url", "VORA_GATEWAY_URL", "gateway.url setting"])
def test_a_stand_in_at_another_url_gets_no_token_and_cannot_replace_or_delete_it(
        state_dir: Path, home: Path, vora: Any, monkeypatch: pytest.MonkeyPatch, paired: Any, how: str) -> None:
    token = stored(state_dir)
    with running_gateway() as stand_in:
        args: list[str] = []
        if how == "--url":
            args = ["--url", stand_in.url]
        elif how == "VORA_GATEWAY_URL":
            monkeypatch.setenv("VORA_GATEWAY_URL", stand_in.url)
        else:
            settings = home / ".config" / "vora" / "settings.toml"
            settings.parent.mkdir(parents=True)
            settings.write_text(f'[gateway]\nurl = "{stand_in.url}"\n')
        offered = vora("gateway", "status", *args, "--json").json()  # it hands back a token of its own
        stand_in.refusal = lambda params: {"code": "INVALID_REQUEST", "message": "unauthorized: device token mismatch",
                                           "details": {"code": "AUTH_DEVICE_TOKEN_MISMATCH"}}
        refused = vora("gateway", "status", *args, "--json")
    assert all("auth" not in connect for connect in stand_in.connects)  # never sent
    assert offered["auth"] == {"mode": "none", "source": "none"} and offered["device"]["tokenStored"] is False
    assert refused.exit_code == 1 and refused.json()["error"]["code"] == "gateway-auth"
    assert stored(state_dir) == token  # neither replaced nor deleted
    assert paired.device_tokens[offered["device"]["id"]] == token


def test_the_config_gateway_named_again_with_url_gets_the_token(state_dir: Path, vora: Any, paired: Any) -> None:
    token = stored(state_dir)
    doc = vora("gateway", "status", "--url", f"ws://127.0.0.1:{paired.port}/", "--json").json()
    assert doc["auth"] == {"mode": "device-token", "source": "device token"}
    assert paired.connects[-1]["auth"] == {"deviceToken": token}


def test_a_stand_in_that_wants_a_credential_says_why_none_was_sent(state_dir: Path, vora: Any, paired: Any) -> None:
    with running_gateway(token="the-stand-ins-token") as stand_in:
        run = vora("gateway", "status", "--url", stand_in.url, "--json")
    assert run.json()["error"]["code"] == "gateway-auth"
    assert "the stored device token goes only to the gateway the config names" in run.json()["error"]["hint"]


def test_a_remote_gateway_the_config_names_gets_the_token(state_dir: Path, vora: Any) -> None:
    with running_gateway() as gw:
        (state_dir / "vora.json").write_text(json.dumps({"gateway": {"mode": "remote", "remote": {"url": gw.url}}}))
        first = vora("gateway", "status", "--json").json()
        second = vora("gateway", "status", "--json").json()
    assert first["urlSource"] == "gateway.remote.url" and first["device"]["tokenStored"] is True
    assert second["auth"] == {"mode": "device-token", "source": "device token"}


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
