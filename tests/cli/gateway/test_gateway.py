"""`vora gateway status` and `vora gateway call` against a real WebSocket gateway on 127.0.0.1."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from gateway_server import gateway_log_line, iso, refused_port, running_gateway, silent_port
from waits_support import record_waits

TOKEN = "s3cret-gateway-token-0123456789"


def write_config(state_dir: Path, text: str) -> None:
    (state_dir / "vora.json").write_text(text)


def ready_lines(uptime_ms: int, plugins: str = "2 plugins: my-engine, other") -> list[str]:
    start = int(time.time() * 1000) - uptime_ms
    return [
        gateway_log_line(iso(start - 3_600_000), "ready (1 plugins: from-an-older-start; 1.0s)"),
        gateway_log_line(iso(start + 400), f"log file: /tmp/vora/vora-{iso(start)[:10]}.log"),
        gateway_log_line(iso(start + 900), "broken failed to load from /p/broken/index.js: Error: boom",
                         level="ERROR", subsystem="plugins"),
        gateway_log_line(iso(start + 1500), f"ready ({plugins}; 1.5s)"),
    ]


def test_status_reports_the_handshake_health_memory_plugins_and_slots(state_dir: Path, vora, monkeypatch) -> None:
    write_config(state_dir, '// local gateway\n{gateway: {auth: {token: "' + TOKEN + '"}}, plugins: {slots: '
                            '{contextEngine: "my-engine", memory: "memory-core"}}}\n')
    with running_gateway(token=TOKEN, log_lines=ready_lines(60_000), uptime_ms=60_000) as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        run = vora("gateway", "status", "--json")
        assert run.exit_code == 0, run.stderr
        doc = run.json()
        assert doc["url"] == f"ws://127.0.0.1:{gw.port}" and doc["urlSource"] == "VORA_GATEWAY_PORT"
        assert doc["auth"] == {"mode": "token", "source": "gateway.auth.token"}
        assert doc["scopes"] == ["operator.read"] and doc["deviceTokenScopes"] == ["operator.read"]
        assert doc["server"]["version"] == "2026.4.2" and doc["protocol"] == 3 and doc["uptimeMs"] == 60_000
        assert doc["health"] == {"ok": True, "defaultAgentId": "main", "agents": 1, "sessions": 2,
                                 "channels": ["telegram", "slack"]}
        assert doc["memory"] == {"answered": True, "runtime": True, "agentId": "main", "provider": "auto",
                                 "embeddingOk": False,
                                 "error": "no API key"}
        assert doc["plugins"]["evidence"] == "log" and doc["plugins"]["loaded"] == ["my-engine", "other"]
        assert [f["id"] for f in doc["plugins"]["failed"]] == ["broken"]
        assert doc["slots"] == {"contextEngine": {"configured": "my-engine", "builtin": False, "loaded": True},
                                "memory": {"configured": "memory-core", "builtin": True, "loaded": None}}
        assert (doc["device"]["identityCreated"], doc["device"]["tokenStored"]) == (True, True)
        assert "created this host's device identity" in run.stderr
        assert [m for m, _ in gw.requests] == ["health", "doctor.memory.status", "logs.tail"]
        assert gw.requests[2][1] == {"limit": 5000, "maxBytes": 1000000}
        assert gw.origins == [None]  # never an Origin header: the gateway would treat vora as a browser
        connect = gw.connects[0]
        assert connect["client"] == {"id": "cli", "mode": "cli", "version": connect["client"]["version"],
                                     "platform": connect["client"]["platform"], "displayName": "vora"}
        assert connect["role"] == "operator" and connect["scopes"] == ["operator.read"] and connect["caps"] == []
        assert TOKEN not in run.stdout + run.stderr
        # the second run is the same device, reuses the identity and leaves the token store alone
        again = vora("gateway", "status", "--json").json()
        assert again["device"] == {**doc["device"], "identityCreated": False, "tokenStored": False}
        human = vora("gateway", "status")
    assert human.exit_code == 0
    assert f"Gateway ws://127.0.0.1:{gw.port} (from VORA_GATEWAY_PORT)\n" in human.stdout
    assert "  auth           token from gateway.auth.token\n" in human.stdout
    assert "  contextEngine  my-engine: loaded\n" in human.stdout
    assert "  failed         broken failed to load from /p/broken/index.js: Error: boom\n" in human.stdout
    assert TOKEN not in human.stdout + human.stderr


def test_status_without_a_ready_line_of_this_start_says_there_is_no_evidence(state_dir: Path, vora) -> None:
    write_config(state_dir, '{plugins: {slots: {contextEngine: "my-engine"}}}')
    old = ready_lines(60_000)[:1]  # only a ready line of an older start
    with running_gateway(log_lines=old, uptime_ms=60_000) as gw:
        doc = vora("gateway", "status", "--url", gw.url, "--json").json()
    assert doc["plugins"]["evidence"] == "none" and doc["plugins"]["loaded"] is None
    assert doc["slots"]["contextEngine"] == {"configured": "my-engine", "builtin": False, "loaded": None}
    assert doc["auth"] == {"mode": "none", "source": "none"}


def test_a_failed_later_call_is_reported_in_its_part_and_status_still_exits_0(state_dir: Path, vora) -> None:
    with running_gateway(silent_on={"doctor.memory.status"}) as gw:
        gw.handlers["health"] = lambda params: (_ for _ in ()).throw(__import__("gateway_server")
                                                                      .Refused("UNAVAILABLE", "health probe failed",
                                                                               None))
        run = vora("gateway", "status", "--url", gw.url, "--timeout", "0.5", "--json")
    assert run.exit_code == 0, run.stdout
    doc = run.json()
    assert doc["health"] == {"ok": False, "error": "health: UNAVAILABLE: health probe failed"}
    assert doc["memory"]["answered"] is False and "did not answer doctor.memory.status" in doc["memory"]["error"]


def test_the_stored_device_token_is_sent_when_no_shared_credential_applies(state_dir: Path, vora,
                                                                           monkeypatch) -> None:
    with running_gateway() as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))  # the config's own gateway
        first = vora("gateway", "status", "--json").json()
        assert first["auth"]["mode"] == "none" and first["device"]["tokenStored"] is True
        second = vora("gateway", "status", "--json").json()
        assert second["auth"] == {"mode": "device-token", "source": "device token"}
        assert gw.connects[1]["auth"] == {"deviceToken": gw.device_tokens[first["device"]["id"]]}
        # a token the gateway rejects is dropped from the store so the next run does not retry it
        gw.device_tokens[first["device"]["id"]] = "rotated-elsewhere"
        refused = vora("gateway", "status")
        assert refused.exit_code == 1
        assert "the gateway refused the token from device token" in refused.stderr
        store = json.loads((state_dir / "identity" / "device-auth.json").read_text())
        assert "operator" not in store["tokens"]
        assert "rotated-elsewhere" not in refused.stderr


# -- failures -------------------------------------------------------------------------------------------

def test_gateway_down_is_one_line_naming_the_url_and_how_it_was_chosen(state_dir: Path, vora, monkeypatch) -> None:
    port = refused_port()
    write_config(state_dir, f"{{gateway: {{port: {port}}}}}")
    waits = record_waits(monkeypatch)
    run = vora("gateway", "status")
    # fast because nothing waits: one connect attempt, refused by the kernel; no retry, no sleep,
    # no WebSocket opening
    assert waits.connects == [3.0] and waits.opens == [] and waits.receives == [] and waits.sleeps == []
    assert run.exit_code == 1
    assert run.stderr.splitlines()[0] == (
        f"error: no gateway is listening at ws://127.0.0.1:{port} (connection refused; from gateway.port)")
    assert run.stderr.splitlines()[1].startswith("hint: start the gateway")
    doc = vora("gateway", "status", "--json").json()
    assert doc["error"]["code"] == "gateway-unreachable"


@pytest.mark.parametrize(("env", "source"), [
    ({"VORA_GATEWAY_TOKEN": "wrong-token-1"}, "VORA_GATEWAY_TOKEN"),
    ({}, "gateway.auth.token"),
])
def test_a_wrong_token_exits_1_naming_its_source_never_its_value(state_dir: Path, vora, monkeypatch, env,
                                                                 source) -> None:
    write_config(state_dir, '{gateway: {auth: {token: "wrong-token-2"}}}')
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with running_gateway(token=TOKEN) as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        run = vora("gateway", "status")
        doc = vora("gateway", "status", "--json").json()
    assert run.exit_code == 1
    assert run.stderr.splitlines()[1].startswith(
        f"error: the gateway refused the token from {source}: unauthorized: gateway token mismatch")
    assert doc["error"]["code"] == "gateway-auth"
    assert "wrong-token" not in run.stderr + run.stdout + json.dumps(doc)
    assert "Traceback" not in run.stderr


def test_no_credential_for_a_gateway_that_wants_one_says_so(state_dir: Path, vora) -> None:
    with running_gateway(token=TOKEN) as gw:
        run = vora("gateway", "status", "--url", gw.url, "--json")
    assert run.exit_code == 1
    assert run.json()["error"]["code"] == "gateway-auth"
    assert run.json()["error"]["message"] == ("the gateway wants a credential and vora had none to send: "
                                              "unauthorized: gateway token missing")


def test_a_missing_password_and_a_rate_limit_are_auth_errors(state_dir: Path, vora, monkeypatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PASSWORD", "bad-password")
    with running_gateway(password="right-password") as gw:
        run = vora("gateway", "status", "--url", gw.url)
    assert run.exit_code == 1 and "refused the password from VORA_GATEWAY_PASSWORD" in run.stderr
    assert gw.connects[0]["auth"] == {"password": "bad-password"}
    with running_gateway(rate_limited=True) as gw:
        run = vora("gateway", "status", "--url", gw.url, "--json")
    assert run.json()["error"]["code"] == "gateway-auth" and "retry later" in run.json()["error"]["hint"]


def test_pairing_required_names_the_device_reason_and_approve_command(state_dir: Path, vora) -> None:
    with running_gateway(auto_pair=False) as gw:
        run = vora("gateway", "status", "--url", gw.url)
        doc = vora("gateway", "status", "--url", gw.url, "--json").json()
    device_id = json.loads((state_dir / "identity" / "device.json").read_text())["deviceId"]
    assert run.exit_code == 1
    first = run.stderr.splitlines()[1]  # after the identity-created note
    assert first.startswith(f"error: the gateway requires pairing for device {device_id} (reason: not-paired, request ")
    assert "hint: on the gateway host run: vora devices approve " in run.stderr
    assert doc["error"]["code"] == "gateway-pairing-required"


def test_a_scope_upgrade_through_call_asks_for_approval(state_dir: Path, vora) -> None:
    with running_gateway() as gw:
        assert vora("gateway", "call", "health", "--url", gw.url).exit_code == 0  # paired with operator.read
        run = vora("gateway", "call", "chat.send", "--scope", "operator.write", "--url", gw.url, "--json")
    assert run.exit_code == 1
    assert run.json()["error"]["code"] == "gateway-pairing-required"
    assert "reason: scope-upgrade" in run.json()["error"]["message"]
    assert gw.connects[1]["scopes"] == ["operator.write"]


def test_a_port_that_never_speaks_times_out_after_the_timeout(state_dir: Path, vora, monkeypatch) -> None:
    waits = record_waits(monkeypatch)
    with silent_port() as port:
        run = vora("gateway", "status", "--url", f"ws://127.0.0.1:{port}", "--timeout", "0.4", "--json")
    # the timeout reached the one connect and the one WebSocket opening (where it waited), nothing more
    assert waits.connects == [0.4] and waits.opens == [0.4] and waits.receives == [] and waits.sleeps == []
    assert run.exit_code == 1 and run.json()["error"]["code"] == "gateway-timeout"
    assert "within 0.4s" in run.json()["error"]["message"]


@pytest.mark.parametrize(("code", "reason", "expected"), [
    (1011, "internal error", "closed the connection during health (close 1011: internal error)"),
    (4001, "device removed", "the gateway ended the connection: device removed (close 4001)"),
])
def test_a_gateway_that_closes_mid_call_is_a_clear_error(state_dir: Path, vora, code, reason, expected) -> None:
    with running_gateway(close_on={"health": (code, reason)}) as gw:
        run = vora("gateway", "call", "health", "--url", gw.url)
    assert run.exit_code == 1
    assert expected in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""


def test_clock_skew_is_reported_with_a_pointer_at_the_clock(state_dir: Path, vora) -> None:
    with running_gateway(skew_ms=10 * 60_000) as gw:
        run = vora("gateway", "status", "--url", gw.url, "--json")
    assert run.json()["error"]["code"] == "gateway-device-auth"
    assert "device signature expired" in run.json()["error"]["message"]
    assert "clock" in run.json()["error"]["hint"]


def test_an_insecure_remote_url_is_refused_before_any_connection(state_dir: Path, vora) -> None:
    write_config(state_dir, '{gateway: {mode: "remote", remote: {url: "ws://10.1.2.3:18789", token: "t0ken"}}}')
    run = vora("gateway", "status", "--json")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "gateway-insecure-url"
    assert not (state_dir / "identity").exists()


# -- call ---------------------------------------------------------------------------------------------

def test_call_prints_the_payload_as_json_with_or_without_json(state_dir: Path, vora) -> None:
    lines = [gateway_log_line(iso(0), f"line {i}") for i in range(5)]
    with running_gateway(log_lines=lines) as gw:
        plain = vora("gateway", "call", "logs.tail", "--params", '{"limit": 2}', "--url", gw.url)
        as_json = vora("gateway", "call", "logs.tail", "--params", '{"limit": 2}', "--url", gw.url, "--json")
    assert plain.exit_code == 0 and as_json.exit_code == 0
    assert json.loads(plain.stdout) == json.loads(as_json.stdout)
    assert json.loads(plain.stdout)["lines"] == lines[-2:]
    assert gw.requests[0] == ("logs.tail", {"limit": 2})


@pytest.mark.parametrize("params", ["[1, 2]", "3", "not json", '"text"'])
def test_call_params_must_be_a_json_object(state_dir: Path, vora, params: str) -> None:
    run = vora("gateway", "call", "health", "--params", params, "--json")
    assert run.exit_code == 2 and run.json()["error"]["code"] == "usage"


@pytest.mark.parametrize(("method", "message", "hint"), [
    ("nope.method", "nope.method: INVALID_REQUEST: unknown method: nope.method", None),
    ("chat.send", "chat.send: INVALID_REQUEST: missing scope: operator.write", "--scope operator.write"),
])
def test_a_method_error_exits_1_with_the_method_error_document(state_dir: Path, vora, method, message,
                                                               hint) -> None:
    with running_gateway() as gw:
        run = vora("gateway", "call", method, "--url", gw.url, "--json")
    assert run.exit_code == 1
    error = run.json()["error"]
    assert error["code"] == "gateway-method-error" and error["message"] == message
    if hint:
        assert hint in error["hint"]
    else:
        assert error["hint"] is None, error


def test_status_and_call_run_as_real_processes(state_dir: Path, vora_process) -> None:
    with running_gateway() as gw:
        status = vora_process("gateway", "status", "--url", gw.url, "--json", env={"VORA_STATE_DIR": str(state_dir)})
        call = vora_process("gateway", "call", "health", "--url", gw.url, env={"VORA_STATE_DIR": str(state_dir)})
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["reachable"] is True
    assert json.loads(call.stdout)["defaultAgentId"] == "main"
    down = vora_process("gateway", "status", "--url", f"ws://127.0.0.1:{refused_port()}",
                        env={"VORA_STATE_DIR": str(state_dir)})
    assert down.returncode == 1 and down.stderr.count("\n") == 2 and "Traceback" not in down.stderr


def test_an_identity_whose_id_does_not_match_its_key_is_refused_before_sending(state_dir: Path, vora) -> None:
    with running_gateway() as gw:
        assert vora("gateway", "status", "--url", gw.url).exit_code == 0
        identity = state_dir / "identity" / "device.json"
        doc = json.loads(identity.read_text())
        identity.write_text(json.dumps({**doc, "deviceId": "0" * 64}, indent=2) + "\n")
        run = vora("gateway", "status", "--url", gw.url, "--json")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "invalid"
    assert "deviceId does not match the public key" in run.json()["error"]["message"]
    assert len(gw.connects) == 1  # the second run never sent a connect
    assert doc["privateKeyPem"] not in run.stdout + run.stderr
