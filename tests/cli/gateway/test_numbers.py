"""Odd numbers are refused or shown plainly, never `internal` or a wrong answer (issue 22, class 8).

NaN and Infinity in `--params` (Python's json reads them and writes words JSON.parse refuses: the
gateway dropped the frame, vora reported a timeout); NaN, ±Infinity and `1e400` where the
gateway sends numbers (`int()` of them raised); log lines dated in year 1, 9999 or 275760; token
counts of 1e32 in a session store (`Decimal` ran out of precision); an HTTP redirect where the
gateway should answer the WebSocket upgrade (websockets refused to follow it over vora's socket,
as `internal`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from gateway_server import gateway_log_line, iso, running_gateway

from vora_cli.core.clock import iso_or_none


@pytest.mark.parametrize("params", ['{"a": NaN}', '{"a": Infinity}', '{"a": [-Infinity]}', '{"a": 1e400}',
                                    '{"a": -1e309}', '{"a": 1' + "0" * 400 + "}"])
def test_params_the_gateway_could_not_read_back_are_a_usage_error_before_connecting(state_dir: Path, vora: Any,
                                                                                     params: str) -> None:
    with running_gateway() as gw:
        run = vora("gateway", "call", "health", "--params", params, "--url", gw.url, "--json")
    assert (run.exit_code, run.json()["error"]["code"]) == (2, "usage")
    assert "is not a finite JSON number" in run.json()["error"]["message"]
    assert gw.connects == []  # nothing was sent


def test_params_at_the_edges_of_a_double_are_sent_as_json(state_dir: Path, vora: Any) -> None:
    with running_gateway() as gw:
        gw.handlers["status"] = lambda params: params
        run = vora("gateway", "call", "status", "--params", '{"a": 1.7976931348623157e308, "b": -5e-324, "c": 9007199254740993}',
                   "--url", gw.url)
    assert run.exit_code == 0 and json.loads(run.stdout) == {"a": 1.7976931348623157e308, "b": -5e-324,
                                                              "c": 9007199254740993}


def answer(number: str) -> Any:
    """Handlers that answer with `number` written into the frame as is (`1e400`, `NaN`)."""
    return {
        "health": lambda f: [f'{{"type":"res","id":"{f["id"]}","ok":true,"payload":{{"ok":true,"ts":{number},'
                             f'"agents":[],"sessions":{{"count":{number}}},"channels":{{}}}}}}'],
        "doctor.memory.status": lambda f: [f'{{"type":"res","id":"{f["id"]}","ok":true,"payload":{{"agentId":"main",'
                                           f'"provider":"auto","embedding":{{"ok":{number}}}}}}}'],
    }


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e308"])
def test_non_finite_numbers_from_the_gateway_are_shown_plainly(state_dir: Path, vora: Any, number: str) -> None:
    with running_gateway(log_lines=[gateway_log_line(iso(int(time.time() * 1000) - 10_000), "ready (0 plugins, 1.0s)")]) as gw:
        gw.raw.update(answer(number))
        status = vora("gateway", "status", "--url", gw.url, "--json")
        human = vora("gateway", "status", "--url", gw.url)
        call = vora("gateway", "call", "health", "--url", gw.url)
        logs = vora("logs", "--url", gw.url)
        live = vora("doctor", "--live", "--url", gw.url, "--json")
    for run in (status, human, call, logs, live):
        assert "internal" not in run.stdout + run.stderr and "Traceback" not in run.stderr
    assert status.exit_code == human.exit_code == call.exit_code == logs.exit_code == 0
    doc = status.json()
    assert doc["health"]["sessions"] == (1e308 if number == "1e308" else None)
    # no start bound: the newest ready line; a clock at 1e308 puts every line before this start
    assert doc["plugins"]["evidence"] == ("none" if number == "1e308" else "log")
    shown = json.loads(call.stdout)["ts"]
    assert shown == ({"NaN": "NaN", "Infinity": "Infinity", "1e400": "Infinity"}.get(number.lstrip("-"), 1e308)
                     if not number.startswith("-") else "-Infinity")


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00", "9999-12-31T23:59:59", "+275760-09-13T00:00:00.000Z",
                                  "-271821-04-20T00:00:00.000Z", "2026-13-45T99:99:99Z"])
@pytest.mark.parametrize("tz", ["Asia/Tokyo", "America/New_York"])
def test_log_lines_dated_at_the_edges_of_time(tmp_path: Path, state_dir: Path, vora: Any, monkeypatch: pytest.MonkeyPatch,
                                              when: str, tz: str) -> None:
    monkeypatch.setenv("TZ", tz)
    time.tzset()
    try:
        lines = [gateway_log_line(when, "ready (1 plugins: forged; 1.0s)"), '{"0": "x", "time": NaN}',
                 gateway_log_line(iso(int(time.time() * 1000) - 10_000), "ready (1 plugins: real; 1.0s)")]
        log = tmp_path / "gateway.log"
        log.write_text("\n".join(lines) + "\n")
        (state_dir / "vora.json").write_text(json.dumps({"logging": {"file": str(log)}}))
        file_run = vora("logs", "--file", "--json")
        doctor = vora("doctor", "--only", "last-gateway-start", "--json")
        with running_gateway(log_lines=lines, uptime_ms=60_000) as gw:
            status = vora("gateway", "status", "--url", gw.url, "--json")
            logs = vora("logs", "--url", gw.url, "--json")
        expected = iso_or_none(when)  # read in the same time zone as vora read it
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    for run in (file_run, doctor, status, logs):
        assert run.exit_code == 0 and "internal" not in run.stdout, run.stdout[-300:]
    # the moment in UTC when it is one in JavaScript's range of years 1-9999, else none
    assert [line["loggedAt"] for line in file_run.json()["lines"]][:2] == [expected, None]
    assert status.json()["plugins"]["loaded"] == ["real"]  # a line dated past the gateway's now is not this start's


@pytest.mark.parametrize(("tokens", "shown"), [
    (1e32, "1.0000000000000001e+29k"), (-1e32, "unknown"), (1.5e300, "1.5000000000000002e+297k"),
    (123456789012345678901234567890, "1.2345678901234568e+26k"), (1e24, "1e+21k"), (2e21, "2000000000000000000k"),
])
def test_huge_token_counts_in_a_store_are_shown_as_the_gateway_shows_them(state_dir: Path, vora: Any, tokens: Any,
                                                                          shown: str) -> None:
    """`(n / 1000).toFixed(0) + "k"` in JavaScript (checked with node 24): String(n) from 1e21 on."""
    store = state_dir / "agents" / "main" / "sessions" / "sessions.json"
    store.parent.mkdir(parents=True)
    store.write_text(json.dumps({"agent:main:main": {"sessionId": "s1", "updatedAt": 1, "totalTokens": tokens,
                                                     "contextTokens": 200_000, "inputTokens": tokens}}))
    listing = vora("sessions", "list")
    detail = vora("sessions", "show", "agent:main:main")
    as_json = vora("sessions", "list", "--json")
    assert listing.exit_code == detail.exit_code == as_json.exit_code == 0, listing.stderr + detail.stderr
    assert f"{shown}/200k" in listing.stdout and f"{shown}/200k" in detail.stdout
    assert as_json.json()["sessions"][0]["totalTokens"] == tokens


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_refused_not_followed(state_dir: Path, vora: Any, monkeypatch: pytest.MonkeyPatch,
                                           status: int) -> None:
    monkeypatch.setenv("VORA_GATEWAY_TOKEN", "redirected-token-0123456789")
    with running_gateway() as elsewhere, running_gateway() as gw:
        gw.http_answer = (status, {"Location": f"{elsewhere.url}/?token=in-the-location"}, b"")
        run = vora("gateway", "call", "health", "--url", gw.url, "--json")
    assert (run.exit_code, run.json()["error"]["code"]) == (1, "gateway-protocol")
    message = run.json()["error"]["message"]
    assert f"answered with a redirect (HTTP {status} to {elsewhere.url}/?token=<redacted>)" in message
    assert "does not follow redirects" in message and "in-the-location" not in run.stdout + run.stderr
    assert elsewhere.connects == [] and gw.connects == []
