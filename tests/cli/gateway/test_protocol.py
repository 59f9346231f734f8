"""The protocol edges: the test server's own strictness, a silent handshake, a silent call, a mismatch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gateway_server import running_gateway
from waits_support import record_waits
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def _raw_connect(url: str, params: dict) -> tuple[dict, int | None]:
    with connect(url, compression=None, proxy=None) as ws:
        challenge = json.loads(ws.recv(timeout=5))
        assert challenge["event"] == "connect.challenge" and challenge["payload"]["nonce"]
        ws.send(json.dumps({"type": "req", "id": "1", "method": "connect", "params": params}))
        answer = json.loads(ws.recv(timeout=5))
        try:
            ws.recv(timeout=5)
        except ConnectionClosed as closed:
            return answer, closed.rcvd.code if closed.rcvd else None
    return answer, None


@pytest.mark.parametrize("params", [
    {"minProtocol": 3, "maxProtocol": 3, "client": {"id": "cli", "mode": "cli", "version": "1", "platform": "linux"},
     "unknownField": 1},
    {"minProtocol": 3, "maxProtocol": 3, "client": {"id": "vora", "mode": "cli", "version": "1", "platform": "linux"}},
    {"minProtocol": 3, "maxProtocol": 3, "client": {"id": "cli", "mode": "cli", "version": "1", "platform": "linux",
                                                    "extra": True}},
    {"minProtocol": 3, "maxProtocol": 3, "client": {"id": "cli", "mode": "cli", "version": "1", "platform": "linux"}},
])
def test_the_test_gateway_refuses_a_connect_outside_the_schema_with_1008(params: dict) -> None:
    with running_gateway() as gw:
        answer, code = _raw_connect(gw.url, params)
    assert answer["ok"] is False and answer["error"]["code"] == "INVALID_REQUEST"
    assert code == 1008


def test_a_gateway_that_never_sends_the_challenge_times_out(state_dir: Path, vora, monkeypatch) -> None:
    waits = record_waits(monkeypatch)
    with running_gateway(send_challenge=False) as gw:
        run = vora("gateway", "status", "--url", gw.url, "--timeout", "0.5", "--json")
    # one wait for the challenge, given what is left of the handshake's 0.5 s; no retry
    assert waits.connects == [0.5] and waits.opens == [0.5] and waits.sleeps == []
    assert [r.timed_out for r in waits.receives] == [True]
    assert 0.25 < waits.receives[0].timeout <= 0.5
    assert run.exit_code == 1 and run.json()["error"]["code"] == "gateway-timeout"
    assert "did not answer the connect.challenge within 0.5s" in run.json()["error"]["message"]


def test_a_call_that_is_never_answered_times_out_after_the_timeout(state_dir: Path, vora, monkeypatch) -> None:
    waits = record_waits(monkeypatch)
    with running_gateway(silent_on={"health"}) as gw:
        run = vora("gateway", "call", "health", "--url", gw.url, "--timeout", "0.5", "--json")
    # the handshake's receives (and any event) were answered; the last wait, the call's, got what
    # was left of its 0.5 s and ran out; no retry
    assert waits.connects == [0.5] and waits.opens == [0.5] and waits.sleeps == []
    assert [r.timed_out for r in waits.receives].count(True) == 1 and waits.receives[-1].timed_out
    assert all(0 < r.timeout <= 0.5 for r in waits.receives)
    assert waits.receives[-1].timeout > 0.25
    assert run.exit_code == 1 and run.json()["error"]["code"] == "gateway-timeout"
    assert "did not answer health within 0.5s" in run.json()["error"]["message"]


def test_a_protocol_mismatch_names_both_versions(state_dir: Path, vora) -> None:
    with running_gateway(protocol=4) as gw:
        run = vora("gateway", "status", "--url", gw.url, "--json")
    assert run.exit_code == 1
    assert run.json()["error"] == {"code": "gateway-protocol",
                                   "message": "protocol mismatch: vora speaks 3, the gateway expects 4",
                                   "hint": "update vora or the gateway"}


def test_the_signature_covers_the_token_so_a_swapped_token_fails(state_dir: Path, vora, monkeypatch) -> None:
    """The server checks the v3 payload with the token in it: vora must sign the token it sends."""
    monkeypatch.setenv("VORA_GATEWAY_TOKEN", "tok-A")
    with running_gateway(token="tok-A") as gw:
        assert vora("gateway", "status", "--url", gw.url).exit_code == 0
        connect_params = gw.connects[0]
    assert connect_params["auth"] == {"token": "tok-A"}
    assert set(connect_params["device"]) == {"id", "publicKey", "signature", "signedAt", "nonce"}


def test_status_sends_its_three_calls_at_once_and_matches_answers_out_of_order(state_dir: Path, vora) -> None:
    """The server answers only after it holds all three requests, and then last-first: a client that
    waited for each answer before sending the next would time out; one that took the first answer
    for its first call would mix the parts up."""
    with running_gateway(reverse_batch=3) as gw:
        run = vora("gateway", "status", "--url", gw.url, "--timeout", "1", "--json")
    assert run.exit_code == 0, run.stderr
    doc = run.json()
    assert doc["health"]["defaultAgentId"] == "main" and doc["memory"]["provider"] == "auto"
    assert doc["plugins"]["logFile"] == gw.log_file
    assert [m for m, _ in gw.requests] == ["logs.tail", "doctor.memory.status", "health"]
