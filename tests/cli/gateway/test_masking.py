"""The masking leaks a review of the gateway-payload masker found (h32; docs/secrets.md, "Member
values", "Escaped quotes", "Keys", "Log fields"), through the real `vora` against the test gateway:
every command that prints what a gateway sent, in text and `--json`.

1. an unquoted credential with blanks (`Authorization: Basic X`, `Cookie: a=1; b=2`) was hidden
   only up to its first blank;
2. a secret between escaped quotes (`{\\"apiKey\\":\\"…\\"}` in a raw `logs.tail` line) was read
   by no rule, and `gateway call logs.tail` printed it;
3. a payload's keys only lost known values and URLs (`{"sk-…": 1}` printed the key);
4. a log line's subsystem, level and time were not masked once decoded.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from gateway_server import Refused, gateway_log_line, iso, running_gateway

TOKEN = "leaks-gateway-token-0123456789"
CONFIG = f'{{gateway: {{auth: {{mode: "token", token: "{TOKEN}"}}}}}}\n'

# Messages as a gateway logs them, each with the secrets in it: every header form, the auth
# schemes, a passphrase; and JSON text inside the message (escaped once in the raw line) and JSON
# text of a JSON string (escaped twice).
HEADERS = {
    "Authorization: Basic dXNlcjpwdzEyMzQ1Ng==": ["dXNlcjpwdzEyMzQ1Ng"],
    'proxy-authorization: Digest username="ops", realm="gw", response="6629fae49393a0539745"': ["6629fae49393a0539745"],
    "Cookie: sid=sidvalue0001; csrf=csrfvalue0002": ["sidvalue0001", "csrfvalue0002"],
    "Set-Cookie: session=setcookie0003; Path=/; HttpOnly": ["setcookie0003"],
    "x-api-key: abcvalue0004 defvalue0005": ["abcvalue0004", "defvalue0005"],
    "X-Auth-Token: first0006 second0007": ["first0006", "second0007"],
    "token: Bearer bearer0008 tail0009": ["bearer0008", "tail0009"],
    "apiKey: Token tokenword0010": ["tokenword0010"],
    "password: correct horse0011 battery0012": ["horse0011", "battery0012"],
}
ESCAPED = {
    'bad config {"apiKey":"escaped0013"}': ["escaped0013"],
    'then PASSWORD="escaped0014" and --token "escaped0015"': ["escaped0014", "escaped0015"],
    'a plugin said {"clientSecret": "escaped0016", "headers": {"Cookie": "a=escaped0017; b=2"}}':
        ["escaped0016", "escaped0017"],
    "nested " + json.dumps(json.dumps({"apiKey": "deep0018", "botToken": "deep0019"})): ["deep0018", "deep0019"],
}
MESSAGES = {**HEADERS, **ESCAPED}
SECRETS = [TOKEN] + [s for secrets in MESSAGES.values() for s in secrets]


@pytest.fixture
def config(state_dir: Path) -> Path:
    path = state_dir / "vora.json"
    path.write_text(CONFIG)
    return path


def clean(*texts: str) -> None:
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, (secret, text[-600:])


def lines_with(messages: list[str]) -> list[str]:
    start = iso(int(time.time() * 1000) - 30_000)
    return [gateway_log_line(start, "ready (0 plugins, 1.0s)"),
            *(gateway_log_line(start, f"my-engine-{i} failed to load from /p/{i}.js: Error: {m}", level="ERROR",
                               subsystem="plugins") for i, m in enumerate(messages))]


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_raw_log_lines_from_gateway_call_are_masked_and_stay_json(config: Path, vora: Any,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  json_flag: list[str]) -> None:
    lines = lines_with(list(MESSAGES))
    assert all(secret in "".join(lines) for secret in SECRETS[1:])
    assert '\\"escaped0013\\"' in lines[1 + list(MESSAGES).index('bad config {"apiKey":"escaped0013"}')]
    with running_gateway(token=TOKEN, log_lines=lines) as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        run = vora("gateway", "call", "logs.tail", "--params", '{"limit": 50}', *json_flag)
        revealed = vora("gateway", "call", "logs.tail", "--params", '{"limit": 50}', "--reveal", "--json")
    assert run.exit_code == 0, run.stderr
    clean(run.stdout, run.stderr)
    shown = json.loads(run.stdout)["lines"]
    assert len(shown) == len(lines)
    for raw, line in zip(lines, shown, strict=True):  # each masked line is still the gateway's JSON
        doc, sent = json.loads(line), json.loads(raw)
        assert doc.keys() == sent.keys() and doc["time"] == sent["time"]
    first = json.loads(shown[1])["1"]
    assert first.endswith("Error: Authorization: <redacted>"), first
    assert json.loads(revealed.stdout)["lines"] == lines  # --reveal: as sent


def test_a_payloads_headers_and_keys_are_masked(config: Path, vora: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    device_token = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5"  # a token used as a key below `tokens`
    payload = {"headers": list(HEADERS), "sk-abcdefgh12345": 1, "sk-zyxwvuts98765": 2, "<redacted>": 3,
               "ghp_abcdefghijklmnopqrstuvwxyz0123": {"ok": True},
               "tokens": {"operator": {"scopes": ["operator.read"]}, device_token: {"scopes": []}},
               "usage": {"tokensByModel": {"claude-3-5-sonnet-20241022": 12}}}
    with running_gateway(token=TOKEN) as gw:
        gw.handlers["status"] = lambda params: payload
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        runs = [vora("gateway", "call", "status"), vora("gateway", "call", "status", "--json")]
    for run in runs:
        assert run.exit_code == 0, run.stderr
        clean(run.stdout, run.stderr)
        assert device_token not in run.stdout and "sk-abcdefgh12345" not in run.stdout
        assert "ghp_abcdefghijklmnopqrstuvwxyz0123" not in run.stdout
    shown = json.loads(runs[1].stdout)
    # two keys hidden to the same text are numbered, and none takes the place of a key as sent
    assert [k for k in shown if "redacted" in k] == ["<redacted-2>", "<redacted-3>", "<redacted>", "<redacted-4>"]
    assert [shown[k] for k in ("<redacted-2>", "<redacted-3>", "<redacted>", "<redacted-4>")] == [1, 2, 3, {"ok": True}]
    assert shown["tokens"] == {"operator": {"scopes": ["<redacted>"]}, "<redacted>": {"scopes": []}}
    assert list(shown["usage"]["tokensByModel"]) == ["claude-3-5-sonnet-20241022"]  # a name, not a token
    assert shown["headers"][0] == "Authorization: <redacted>"


def test_status_doctor_and_logs_mask_every_decoded_field(config: Path, vora: Any,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    lines = lines_with(list(MESSAGES))
    start = iso(int(time.time() * 1000) - 20_000)
    fields = {"subsystem": "sk-subsystem00123456", "level": "ghp_levellevellevellevel0123", "time": "sk-timetimetime0123456"}
    odd = json.loads(gateway_log_line(start, "odd fields", subsystem=fields["subsystem"]))
    odd["_meta"]["logLevelName"] = fields["level"]
    odd["time"] = fields["time"]
    lines.append(json.dumps(odd))
    with running_gateway(token=TOKEN, log_lines=lines) as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        monkeypatch.setenv("VORA_GATEWAY_TOKEN", TOKEN)
        runs = [vora("gateway", "status"), vora("gateway", "status", "--json"), vora("doctor", "--live"),
                vora("doctor", "--live", "--json"), vora("logs"), vora("logs", "--json")]
        revealed = vora("logs", "--json", "--reveal")
    for run in runs:
        clean(run.stdout, run.stderr)
        for value in fields.values():
            assert value not in run.stdout + run.stderr
    failed = json.loads(runs[1].stdout)["plugins"]["failed"]
    assert len(failed) == len(MESSAGES)
    assert failed[0]["error"] == "Error: Authorization: <redacted>"
    assert failed[list(MESSAGES).index('bad config {"apiKey":"escaped0013"}')]["error"] == \
        'Error: bad config {"apiKey":"<redacted>"}'
    shown = [json.loads(line) for line in runs[5].stdout.splitlines() if line.strip().startswith("{")]
    odd_line = next(line for doc in shown for line in (doc.get("lines") or [doc]) if "odd fields" in line["message"])
    assert (odd_line["subsystem"], odd_line["level"]) == ("<redacted>", "<redacted>")
    assert "[<redacted>]" in runs[4].stdout
    assert fields["subsystem"] in revealed.stdout  # --reveal: the lines as sent


def test_a_refusal_that_repeats_a_header_is_masked_in_security_audit_live(state_dir: Path, vora: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    path = state_dir / "vora.json"
    path.write_text(CONFIG)
    path.chmod(0o600)
    message = 'got Authorization: Basic dXNlcjpwdzEyMzQ1Ng== {"apiKey":"escaped0013"}'
    with running_gateway(token=TOKEN) as gw:
        gw.refusal = lambda params: {"code": "INVALID_REQUEST", "message": message,
                                     "details": {"code": "AUTH_TOKEN_MISMATCH"}}
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        runs = [vora("security", "audit", "--live", "--only", "live-gateway"),
                vora("security", "audit", "--live", "--only", "live-gateway", "--json"),
                vora("gateway", "call", "health", "--json")]
    for run in runs:
        clean(run.stdout, run.stderr)
    assert "Authorization: <redacted>" in runs[1].stdout, runs[1].stdout


def test_a_gateway_method_error_with_a_cookie_is_masked(config: Path, vora: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(params: dict[str, Any]) -> Any:
        raise Refused("UNAVAILABLE", "upstream said Set-Cookie: session=setcookie0003; Path=/", None)

    with running_gateway(token=TOKEN) as gw:
        gw.handlers["health"] = refuse
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        run = vora("gateway", "call", "health", "--json")
    assert run.exit_code == 1
    clean(run.stdout, run.stderr)
    assert run.json()["error"]["message"] == "health: UNAVAILABLE: upstream said Set-Cookie: <redacted>"
