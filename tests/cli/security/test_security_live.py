"""`vora security audit --live` against the test gateway (tests/support/gateway_server.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gateway_server import refused_port, running_gateway
from security_support import SAFE_CONFIG

TOKEN = "live-token-0123456789abcdefghij"


def _state(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text(SAFE_CONFIG)
    (state / "vora.json").chmod(0o600)
    return state


def _live(doc: dict[str, Any]) -> dict[str, Any]:
    (check,) = [c for c in doc["checks"] if c["id"] == "live-gateway"]
    return check


def test_a_gateway_that_lets_anyone_in_is_critical(tmp_path: Path, vora) -> None:
    state = _state(tmp_path)
    with running_gateway() as gw:
        run = vora("--state-dir", str(state), "security", "audit", "--live", "--url", gw.url, "--json",
                   "--only", "live-gateway")
    doc = run.json()
    (finding,) = doc["findings"]
    assert (finding["id"], finding["severity"]) == ("live-gateway", "critical")
    assert "without any credential" in finding["title"] and run.exit_code == 1


def test_a_gateway_that_asks_for_a_token_passes(tmp_path: Path, vora) -> None:
    state = _state(tmp_path)
    with running_gateway(token=TOKEN) as gw:
        run = vora("--state-dir", str(state), "security", "audit", "--live", "--url", gw.url, "--json",
                   "--only", "live-gateway", env={"VORA_GATEWAY_TOKEN": TOKEN})
        refused = vora("--state-dir", str(state), "security", "audit", "--live", "--url", gw.url, "--json",
                       "--only", "live-gateway")
    assert _live(run.json())["status"] == "pass" and "asked for a credential" in _live(run.json())["message"]
    assert TOKEN not in run.stdout + run.stderr
    assert _live(refused.json())["status"] == "pass" and refused.exit_code == 0


def test_no_gateway_is_only_information(tmp_path: Path, vora) -> None:
    state = _state(tmp_path)
    run = vora("--state-dir", str(state), "security", "audit", "--live", "--url", f"ws://127.0.0.1:{refused_port()}",
               "--json", "--only", "live-gateway", "--timeout", "2")
    (finding,) = run.json()["findings"]
    assert finding["severity"] == "info" and run.exit_code == 0
