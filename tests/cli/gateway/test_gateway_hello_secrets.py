"""What the gateway's `hello-ok` carries is shown through vora's rules too (review of issues 22 and 23).

- The device token a gateway issues in `hello-ok` is vora's credential from then on; a payload
  or an error of the same connection that repeats it printed it in clear (the first run, the
  one that received it; later runs send it, and it was masked as the credential sent).
- `uptimeMs` in `gateway status --json` was the peer's value as sent: a string (the gateway's
  token in it), an object or a bool in a `…Ms` field, where the JSON convention holds a number.
- The device token's scopes were shown unmasked in `gateway status`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gateway_server import Refused, running_gateway

TOKEN = "gw-shared-token-0123456789abcdef"


def _config(state_dir: Path, port: int, token: str | None = None) -> None:
    auth = f', auth: {{mode: "token", token: "{token}"}}' if token else ""
    (state_dir / "vora.json").write_text(f"{{gateway: {{port: {port}{auth}}}}}\n")


def _issued(gw: Any) -> list[str]:
    return list(gw.device_tokens.values())


@pytest.mark.parametrize("method", ["health", "config.get", "status"])
def test_a_payload_repeating_the_token_just_issued_does_not_show_it(state_dir: Path, vora: Any, method: str) -> None:
    with running_gateway() as gw:
        gw.handlers[method] = lambda params: {"echo": _issued(gw), "text": f"your token is {' '.join(_issued(gw))}",
                                              "nested": [{"note": t} for t in _issued(gw)]}
        _config(state_dir, gw.port)
        run = vora("gateway", "call", method)
        issued = _issued(gw)
    assert run.exit_code == 0, run.stderr
    assert issued and not any(t in run.stdout + run.stderr for t in issued)
    assert json.loads(run.stdout)["echo"] == ["<redacted>"]


def test_an_error_repeating_the_token_just_issued_does_not_show_it(state_dir: Path, vora: Any) -> None:
    with running_gateway() as gw:
        def refuse(params: dict[str, Any]) -> Any:
            raise Refused("UNAVAILABLE", f"no health for token {_issued(gw)[0]}", None)

        gw.handlers["health"] = refuse
        _config(state_dir, gw.port)
        runs = [vora("gateway", "call", "health"), vora("gateway", "call", "health", "--json")]
        issued = _issued(gw)
    for run in runs:
        assert run.exit_code == 1
        assert not any(t in run.stdout + run.stderr for t in issued)


@pytest.mark.parametrize("uptime", [TOKEN, {"ms": TOKEN}, True, [1, 2], "60000", None])
def test_gateway_status_shows_uptime_only_as_a_number(state_dir: Path, vora: Any, uptime: Any) -> None:
    with running_gateway(token=TOKEN, uptime_ms=uptime) as gw:
        _config(state_dir, gw.port, TOKEN)
        text, data = vora("gateway", "status"), vora("gateway", "status", "--json")
    assert text.exit_code == 0 and data.exit_code == 0, text.stderr
    assert TOKEN not in text.stdout + text.stderr + data.stdout + data.stderr
    assert json.loads(data.stdout)["uptimeMs"] is None
    assert ", up ?)" in text.stdout


def test_gateway_status_masks_the_device_token_scopes(state_dir: Path, vora: Any) -> None:
    with running_gateway(token=TOKEN) as gw:
        _config(state_dir, gw.port, TOKEN)
        first = vora("gateway", "status")  # pairs this device with operator.read
        device_id = next(iter(gw.paired))
        gw.paired[device_id] = ["operator.read", f"token={TOKEN}"]
        runs = [vora("gateway", "status"), vora("gateway", "status", "--json")]
    assert first.exit_code == 0, first.stderr
    for run in runs:
        assert run.exit_code == 0, run.stderr
        assert TOKEN not in run.stdout + run.stderr
    assert "operator.read" in json.loads(runs[1].stdout)["deviceTokenScopes"]
