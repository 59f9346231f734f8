"""The `gateway.url` and `gateway.timeout` settings in `vora gateway`, `vora logs` and `vora doctor --live`.

Precedence: flag > env > settings file > config-derived / built-in default (docs/settings.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gateway_server import gateway_log_line, running_gateway, silent_port
from waits_support import record_waits

TOKEN = "s3cret-config-token-0123456789"


def test_the_url_setting_wins_over_the_config_and_is_named_as_the_source(
        state_dir: Path, settings_file: Path, vora) -> None:
    (state_dir / "vora.json").write_text('{gateway: {port: 1, auth: {token: "' + TOKEN + '"}}}\n')
    with running_gateway() as gw:
        settings_file.write_text(f'[gateway]\nurl = "{gw.url}"\n')
        doc = vora("gateway", "status", "--json").json()
        human = vora("gateway", "status")
    assert doc["url"] == gw.url and doc["urlSource"] == "settings"
    # a URL the config did not name gets no secret from the config
    assert doc["auth"] == {"mode": "none", "source": "none"}
    assert "auth" not in gw.connects[0]
    assert human.stdout.startswith(f"Gateway {gw.url} (from the gateway.url setting)\n")
    assert TOKEN not in human.stdout + human.stderr


def test_the_flag_and_the_env_win_over_the_url_setting(
        state_dir: Path, settings_file: Path, vora, monkeypatch: pytest.MonkeyPatch) -> None:
    settings_file.write_text('[gateway]\nurl = "ws://127.0.0.1:1"\n')
    with running_gateway() as gw:
        by_flag = vora("gateway", "status", "--url", gw.url, "--json").json()
        monkeypatch.setenv("VORA_GATEWAY_URL", gw.url)
        by_env = vora("gateway", "call", "health", "--json")
    assert by_flag["urlSource"] == "--url"
    assert by_env.exit_code == 0 and [m for m, _ in gw.requests][-1] == "health"


def test_the_env_token_goes_to_a_url_from_settings(
        state_dir: Path, settings_file: Path, vora, monkeypatch: pytest.MonkeyPatch) -> None:
    with running_gateway(token=TOKEN) as gw:
        settings_file.write_text(f'[gateway]\nurl = "{gw.url}"\n')
        monkeypatch.setenv("VORA_GATEWAY_TOKEN", TOKEN)
        doc = vora("gateway", "status", "--json").json()
    assert doc["auth"] == {"mode": "token", "source": "VORA_GATEWAY_TOKEN"}


def test_logs_and_doctor_live_read_the_url_setting(state_dir: Path, settings_file: Path, vora) -> None:
    line = gateway_log_line("2026-04-12T10:00:00.000+02:00", "ready (0 plugins, 1.0s)")
    with running_gateway(log_lines=[line]) as gw:
        settings_file.write_text(f'[gateway]\nurl = "{gw.url}"\n')
        logs = vora("logs", "--json")
        doctor = vora("doctor", "--live", "--only", "gateway-reachable", "--json")
    assert logs.exit_code == 0, logs.stderr
    assert logs.json()["source"] == "gateway" and logs.json()["lines"][0]["message"] == "ready (0 plugins, 1.0s)"
    reachable = doctor.json()["checks"][0]
    assert reachable["id"] == "gateway-reachable" and reachable["status"] == "pass"
    assert "(from the gateway.url setting)" in reachable["message"]


def test_an_insecure_url_setting_is_refused_naming_the_setting(state_dir: Path, settings_file: Path, vora) -> None:
    settings_file.write_text('[gateway]\nurl = "ws://gw.example.com:18789"\n')
    run = vora("gateway", "status", "--json")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "gateway-insecure-url"
    assert "(from settings)" in run.json()["error"]["message"]


@pytest.mark.parametrize("command", [["gateway", "status"], ["gateway", "call", "health"], ["logs"]])
def test_the_timeout_setting_bounds_each_step_and_the_flag_wins(
        state_dir: Path, settings_file: Path, vora, command: list[str], monkeypatch) -> None:
    settings_file.write_text("[gateway]\ntimeout = 0.4\n")
    waits = record_waits(monkeypatch)
    with silent_port() as port:
        url = f"ws://127.0.0.1:{port}"
        run = vora(*command, "--url", url, "--json")
        setting_waits = (waits.connects[:], waits.opens[:], waits.receives[:], waits.sleeps[:])
        waits.clear()
        flagged = vora("gateway", "status", "--url", url, "--timeout", "0.2", "--json")
    if command == ["logs"]:  # logs falls back to the file on a timeout and says why
        assert "within 0.4s" in run.stderr
    else:
        assert run.exit_code == 1 and "within 0.4s" in run.json()["error"]["message"]
    # the setting reached both waiting steps, once each (it waited at the WebSocket opening)
    assert setting_waits == ([0.4], [0.4], [], [])
    assert "within 0.2s" in flagged.json()["error"]["message"]
    assert (waits.connects, waits.opens) == ([0.2], [0.2])


@pytest.mark.parametrize("value", ["0", "601", "0.0"])
def test_an_unusable_timeout_setting_fails_naming_the_setting_and_the_file(
        state_dir: Path, settings_file: Path, vora, value: str) -> None:
    settings_file.write_text(f"[gateway]\ntimeout = {value}\n")
    run = vora("gateway", "status", "--url", "ws://127.0.0.1:1", "--json")
    assert run.exit_code == 1
    error = run.json()["error"]
    assert error["code"] == "invalid" and "gateway.timeout" in error["message"]
    assert str(settings_file) in error["message"]
