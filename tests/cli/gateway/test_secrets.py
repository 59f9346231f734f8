"""Secrets from the gateway are never printed (issue 22, class 1; docs/secrets.md, "From the gateway").

The real gateway's `config.get` carries its auth token and every API key in clear, twice
(`sourceConfig`, `runtimeConfig`): its answer is kept as test data (openclaw 2026.4.12). Every
payload, gateway message, close reason and log line vora prints goes through vora's own rules —
secret-named keys, the free-text patterns, and the exact values vora knows (the credential it
sent, the config's secrets, the environment's) — unless `--reveal` asks for the payload raw.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gateway_server import Refused, gateway_log_line, iso, running_gateway

DATA = json.loads((Path(__file__).resolve().parents[2] / "data" / "upstream" /
                   "gateway-config-get-openclaw-2026.4.12.json").read_text())
TOKEN = DATA["secrets"]["gateway.auth.token"]
API_KEY = DATA["secrets"]["models.providers.openai.apiKey"]
CONFIG = DATA["configFile"]


def refuse(message: str) -> Any:
    def handler(params: dict[str, Any]) -> Any:
        raise Refused("UNAVAILABLE", message, None)

    return handler


@pytest.fixture
def config(state_dir: Path) -> Path:
    path = state_dir / "vora.json"
    path.write_text(CONFIG)
    return path


def clean(*texts: str, secrets: tuple[str, ...] = (TOKEN, API_KEY)) -> None:
    for text in texts:
        for secret in secrets:
            assert secret not in text, text[-400:]


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_config_get_of_the_real_gateway_prints_no_secret(config: Path, vora: Any, monkeypatch: pytest.MonkeyPatch,
                                                         json_flag: list[str]) -> None:
    with running_gateway(token=TOKEN) as gw:
        gw.handlers["config.get"] = lambda params: DATA["payload"]
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        run = vora("gateway", "call", "config.get", *json_flag)
        raw = vora("gateway", "call", "config.get", "--reveal", *json_flag)
    assert run.exit_code == 0, run.stderr
    clean(run.stdout, run.stderr)
    shown = json.loads(run.stdout)
    for part in ("sourceConfig", "runtimeConfig"):
        assert shown[part]["gateway"]["auth"] == {"mode": "token", "token": "<redacted>"}
        assert shown[part]["models"]["providers"]["openai"]["apiKey"] == "<redacted>"
        assert shown[part]["gateway"]["port"] == 28791  # everything else as sent
    assert shown["parsed"]["gateway"]["auth"]["token"] == "<redacted>"  # the gateway's own sentinel, hidden too
    assert json.loads(raw.stdout) == DATA["payload"]  # --reveal: exactly what the gateway sent


def test_free_text_in_a_payload_is_masked_by_the_gateways_patterns_and_the_known_values(
        config: Path, vora: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    long_name = "A" * 200 + "_TOKEN"
    payload = {"notes": [f"started with {long_name}=zq9longnamevalue0001", f"the token is {TOKEN}",
                         f"key {API_KEY[:3]}… is short", "Authorization: Bearer abcdefghijklmnopqrstuv0123"],
               TOKEN: "a key that is the secret itself"}
    with running_gateway(token=TOKEN) as gw:
        gw.handlers["status"] = lambda params: payload
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        run = vora("gateway", "call", "status")
    clean(run.stdout, secrets=(TOKEN, API_KEY, "zq9longnamevalue0001", "abcdefghijklmnopqrstuv0123"))
    notes = json.loads(run.stdout)["notes"]
    assert notes[1] == "the token is <redacted>" and notes[2] == f"key {API_KEY[:3]}… is short"


def test_an_error_that_repeats_the_credential_vora_sent_is_masked(config: Path, vora: Any,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    sent = "env-token-that-the-gateway-echoes-42"
    monkeypatch.setenv("VORA_GATEWAY_TOKEN", sent)
    with running_gateway() as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        gw.handlers["health"] = refuse(f"bad auth {sent} and {TOKEN}")
        method = vora("gateway", "call", "health", "--json")
        gw.close_on["status"] = (1008, f"closing: token {sent}")
        closed = vora("gateway", "call", "status", "--json")
        gw.refusal = lambda params: {"code": "INVALID_REQUEST", "message": f"unauthorized: got {params['auth']['token']}",
                                     "details": {"code": "AUTH_TOKEN_MISMATCH"}}
        refused = vora("gateway", "status")
        live = vora("doctor", "--live", "--only", "gateway-live-auth", "--json")
    for run in (method, closed, refused, live):
        assert run.exit_code == 1
        clean(run.stdout, run.stderr, secrets=(sent, TOKEN))
    assert method.json()["error"]["message"] == "health: UNAVAILABLE: bad auth <redacted> and <redacted>"
    assert "<redacted>" in closed.json()["error"]["message"]
    assert "refused the token from VORA_GATEWAY_TOKEN: unauthorized: got <redacted>" in refused.stderr


def test_the_device_token_vora_sent_is_masked_when_echoed(state_dir: Path, vora: Any,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    with running_gateway() as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        assert vora("gateway", "status").exit_code == 0  # stores the device token
        token = next(iter(gw.device_tokens.values()))
        gw.handlers["health"] = refuse(f"device token {token} is fine")
        run = vora("gateway", "call", "health", "--json")
    assert run.exit_code == 1 and token not in run.stdout + run.stderr
    assert run.json()["error"]["message"] == "health: UNAVAILABLE: device token <redacted> is fine"


def test_status_doctor_and_logs_mask_what_they_print(config: Path, vora: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    start = iso(int(__import__("time").time() * 1000) - 30_000)
    lines = [gateway_log_line(start, "ready (0 plugins, 1.0s)"),
             gateway_log_line(start, f"my-engine failed to load from /p/index.js: Error: key {API_KEY}",
                              level="ERROR", subsystem="plugins"),
             gateway_log_line(start, "debug", extra=[{"headers": {"x-api-key": "hdrsecret-0123456789"}}])]
    with running_gateway(token=TOKEN, log_lines=lines, memory={"agentId": "main", "provider": "openai",
                                                               "embedding": {"ok": False, "error": f"401 for {API_KEY}"}}) as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        monkeypatch.setenv("VORA_GATEWAY_TOKEN", TOKEN)
        gw.handlers["health"] = refuse(f"probe failed with {TOKEN}")
        runs = [vora("gateway", "status"), vora("gateway", "status", "--json"), vora("doctor", "--live"),
                vora("doctor", "--live", "--json"), vora("logs"), vora("logs", "--json")]
        revealed = vora("logs", "--json", "--reveal")
    for run in runs:
        clean(run.stdout, run.stderr, secrets=(TOKEN, API_KEY, "hdrsecret-0123456789"))
    assert "401 for <redacted>" in runs[0].stdout
    assert API_KEY in revealed.stdout  # --reveal: the lines as the gateway sent them


# Secrets the masker finds only once the line's JSON is decoded: in the raw line the gateway sends
# (and masks), the quotes around them are escapes (`{\"apiKey\":\"…\"}`, `PASSWORD=\"…\"`), which
# the JSON-field and NAME=value patterns do not read through (openclaw 2026.4.12 leaves them too).
DECODED_ONLY = ("AbCdEf-decoded-1234", "hunter2-decoded-5678")


def test_a_plugin_failure_is_masked_as_vora_logs_masks_it(config: Path, vora: Any,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    start = iso(int(__import__("time").time() * 1000) - 30_000)
    error = f'Error: bad config {{"apiKey":"{DECODED_ONLY[0]}"}} after PASSWORD="{DECODED_ONLY[1]}"'
    lines = [gateway_log_line(start, "ready (0 plugins, 1.0s)"),
             gateway_log_line(start, f"my-engine failed to load from /p/index.js: {error}", level="ERROR",
                              subsystem="plugins")]
    assert all(secret in lines[1] for secret in DECODED_ONLY)
    with running_gateway(token=TOKEN, log_lines=lines) as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        monkeypatch.setenv("VORA_GATEWAY_TOKEN", TOKEN)
        runs = [vora("gateway", "status"), vora("gateway", "status", "--json"), vora("doctor", "--live"),
                vora("doctor", "--live", "--json"), vora("logs"), vora("logs", "--json")]
    for run in runs:
        clean(run.stdout, run.stderr, secrets=DECODED_ONLY)
    failed = json.loads(runs[1].stdout)["plugins"]["failed"]
    assert [(f["id"], f["source"], f["error"]) for f in failed] == [
        ("my-engine", "/p/index.js", 'Error: bad config {"apiKey":"<redacted>"} after PASSWORD="<redacted>"')]
