"""Core of the gateway client: target and credential discovery, the log format, the device token store."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest
from gateway_server import gateway_log_line, iso, running_gateway

from vora_cli.core.errors import VoraError
from vora_cli.core.gateway.device import (
    device_auth_path,
    forget_device_token,
    read_device_token,
    store_device_token,
)
from vora_cli.core.gateway.logfile import (
    find_log_file,
    format_log_line,
    log_dirs,
    parse_log_line,
    read_from,
    start_evidence,
    tail_lines,
)
from vora_cli.core.gateway.target import resolve_target

# -- the URL, first source wins ----------------------------------------------------------------------


@pytest.mark.parametrize(("config", "env", "flag", "url", "source"), [
    ({}, {}, None, "ws://127.0.0.1:18789", "default"),
    ({"gateway": {"port": 19001}}, {}, None, "ws://127.0.0.1:19001", "gateway.port"),
    ({"gateway": {"port": 19001, "bind": "lan"}}, {"VORA_GATEWAY_PORT": "19002"}, None,
     "ws://127.0.0.1:19002", "VORA_GATEWAY_PORT"),
    ({}, {"VORA_GATEWAY_PORT": "0.0.0.0:19003"}, None, "ws://127.0.0.1:19003", "VORA_GATEWAY_PORT"),
    ({}, {"VORA_GATEWAY_PORT": "[::1]:19004"}, None, "ws://127.0.0.1:19004", "VORA_GATEWAY_PORT"),
    ({"gateway": {"port": 19005}}, {"VORA_GATEWAY_PORT": "nope"}, None, "ws://127.0.0.1:19005", "gateway.port"),
    ({"gateway": {"tls": {"enabled": True}}}, {}, None, "wss://127.0.0.1:18789", "default"),
    ({"gateway": {"mode": "remote", "remote": {"url": "wss://gw.example:443"}}}, {}, None,
     "wss://gw.example:443", "gateway.remote.url"),
    ({"gateway": {"mode": "remote", "remote": {"url": "wss://gw.example"}}}, {"VORA_GATEWAY_URL": "ws://127.0.0.2:1"},
     None, "ws://127.0.0.2:1", "VORA_GATEWAY_URL"),
    ({}, {"VORA_GATEWAY_URL": "ws://127.0.0.2:1"}, "ws://localhost:2", "ws://localhost:2", "--url"),
])
def test_url_comes_from_the_first_source_that_applies(config, env, flag, url, source) -> None:
    target = resolve_target(config, env, flag)
    assert (target.url, target.url_source) == (url, source)


def test_remote_mode_without_a_url_warns_and_falls_through() -> None:
    target = resolve_target({"gateway": {"mode": "remote", "port": 19010}}, {})
    assert target.url == "ws://127.0.0.1:19010"
    assert "gateway.remote.url is not set" in target.warnings[0]


@pytest.mark.parametrize("url", ["ws://10.0.0.5:18789", "ws://gw.example", "ws://[fe80::1]:80"])
def test_plaintext_to_a_non_loopback_host_is_refused_before_connecting(url: str) -> None:
    with pytest.raises(VoraError) as caught:
        resolve_target({}, {}, url)
    assert caught.value.code == "gateway-insecure-url"
    assert resolve_target({}, {"VORA_ALLOW_INSECURE_PRIVATE_WS": "1"}, url).url == url


@pytest.mark.parametrize("url", ["http://127.0.0.1:1", "127.0.0.1:18789", "ws://", "ws://127.0.0.1:99999"])
def test_a_url_that_is_not_ws_is_a_usage_error(url: str) -> None:
    with pytest.raises(VoraError) as caught:
        resolve_target({}, {}, url)
    assert caught.value.code == "usage"


# -- the credential --------------------------------------------------------------------------------

LOCAL = {"gateway": {"auth": {"token": "cfg-token", "password": "cfg-pass"}}}
REMOTE = {"gateway": {"mode": "remote", "remote": {"url": "wss://r.example", "token": "remote-token",
                                                   "password": "remote-pass"},
                      "auth": {"token": "cfg-token", "password": "cfg-pass"}}}


@pytest.mark.parametrize(("config", "env", "flag", "mode", "source", "secret"), [
    (LOCAL, {}, None, "token", "gateway.auth.token", "cfg-token"),
    (LOCAL, {"VORA_GATEWAY_TOKEN": " env-token "}, None, "token", "VORA_GATEWAY_TOKEN", "env-token"),
    (LOCAL, {"VORA_GATEWAY_TOKEN": "   "}, None, "token", "gateway.auth.token", "cfg-token"),
    ({"gateway": {"auth": {"mode": "password", **LOCAL["gateway"]["auth"]}}}, {}, None,
     "password", "gateway.auth.password", "cfg-pass"),
    ({"gateway": {"auth": {"mode": "password", "password": "p"}}}, {"VORA_GATEWAY_PASSWORD": "env-pass"}, None,
     "password", "VORA_GATEWAY_PASSWORD", "env-pass"),
    ({"gateway": {"auth": {"mode": "none", "token": "t"}}}, {}, None, "none", "none", None),
    ({"gateway": {"auth": {"mode": "trusted-proxy", "token": "t"}}}, {}, None, "none", "none", None),
    ({"gateway": {"auth": {"password": "only-pass"}}}, {}, None, "password", "gateway.auth.password", "only-pass"),
    (REMOTE, {"VORA_GATEWAY_TOKEN": "env-token"}, None, "token", "gateway.remote.token", "remote-token"),
    ({"gateway": {**REMOTE["gateway"], "auth": {"mode": "password"}}}, {"VORA_GATEWAY_PASSWORD": "env-pass"}, None,
     "password", "VORA_GATEWAY_PASSWORD", "env-pass"),
    # a URL the config did not name never gets the config's secrets
    (LOCAL, {}, "ws://127.0.0.1:1", "none", "none", None),
    (LOCAL, {"VORA_GATEWAY_URL": "ws://127.0.0.1:1", "VORA_GATEWAY_PASSWORD": "env-pw-9"}, None,
     "password", "VORA_GATEWAY_PASSWORD", "env-pw-9"),
])
def test_credential_follows_the_spec_order_and_names_its_source(config, env, flag, mode, source, secret) -> None:
    credential = resolve_target(config, env, flag).credential
    assert (credential.mode, credential.source, credential.secret) == (mode, source, secret)
    assert (secret or "no-secret") not in repr(credential)


# -- log lines ---------------------------------------------------------------------------------------

def test_a_gateway_log_line_parses_into_time_level_subsystem_message() -> None:
    raw = gateway_log_line("2026-04-12T10:00:00.000+02:00", "ready (1 plugin: a; 1.0s)", level="WARN",
                           extra=["x", {"k": 1}])
    line = parse_log_line(raw)
    assert line.to_dict() == {"loggedAt": "2026-04-12T08:00:00.000Z", "level": "warn", "subsystem": "gateway",
                              "message": 'ready (1 plugin: a; 1.0s) x {"k": 1}'}
    assert format_log_line(line) == '2026-04-12T10:00:00.000+02:00 WARN [gateway] ready (1 plugin: a; 1.0s) x {"k": 1}'


@pytest.mark.parametrize(("raw", "message", "subsystem"), [
    ('{"0": "plain message", "1": "arg", "_meta": {"logLevelName": "DEBUG"}}', "plain message arg", None),
    ('{"0": "{not json", "_meta": {}}', "{not json", None),
    ('{"0": "{\\"other\\": 1}", "1": "m"}', '{"other": 1} m', None),
    ("not json at all", "not json at all", None),
    ('{"broken": ', '{"broken": ', None),
])
def test_odd_lines_are_kept_as_messages(raw: str, message: str, subsystem: str | None) -> None:
    line = parse_log_line(raw)
    assert (line.message, line.subsystem) == (message, subsystem)


def test_a_2_mib_line_is_parsed_in_bounded_time() -> None:
    line = parse_log_line("x" * (2 * 1024 * 1024))
    assert len(line.message) <= 64 * 1024
    evidence = start_evidence([parse_log_line(gateway_log_line(iso(0), "ready (" + "a, " * 700_000))], None)
    assert evidence.loaded is None


def _start_lines(base: int) -> list[str]:
    return [
        gateway_log_line(iso(base - 600_000), "ready (1 plugins: old-one; 2.0s)"),
        gateway_log_line(iso(base - 600_500), "stale failed to load from /x/index.js: Error: old",
                         level="ERROR", subsystem="plugins"),
        gateway_log_line(iso(base + 500), "my-engine failed to load from /p/my-engine/dist/index.js: Error: "
                         "Cannot find module 'x'", level="ERROR", subsystem="plugins"),
        gateway_log_line(iso(base + 600), "[plugins] other failed during register from /p/other/index.js: boom",
                         level="ERROR", subsystem="plugins"),
        gateway_log_line(iso(base + 700), "[plugins] context engine id reserved by core: legacy (plugin=bad, "
                         "source=/p/bad/index.js)", level="ERROR"),
        gateway_log_line(iso(base + 800), "[plugins] context engine already registered: eng (first) "
                         "(plugin=dup, source=/p/dup/index.js)", level="ERROR"),
        gateway_log_line(iso(base + 2000), "ready (3 plugins: b-plugin, a-plugin, memory-x; 1.4s)"),
        gateway_log_line(iso(base + 90_000), "ready (0 plugins, 0.9s)"),
    ]


def test_start_evidence_takes_the_first_ready_line_after_the_process_start() -> None:
    base = 1_776_000_000_000
    evidence = start_evidence([parse_log_line(r) for r in _start_lines(base)], base - 1000)
    assert evidence.loaded == ("a-plugin", "b-plugin", "memory-x")
    assert [(f.id, f.phase) for f in evidence.failed] == [
        ("my-engine", "load"), ("other", "register"), ("bad", "register"), ("dup", "register")]
    assert evidence.failed[0].source == "/p/my-engine/dist/index.js"
    assert evidence.failed[0].error == "Error: Cannot find module 'x'"


def test_start_evidence_without_a_bound_takes_the_newest_start_and_none_when_absent() -> None:
    base = 1_776_000_000_000
    evidence = start_evidence([parse_log_line(r) for r in _start_lines(base)], None)
    assert evidence.loaded == ()
    assert start_evidence([parse_log_line(r) for r in _start_lines(base)], base + 100_000).loaded is None
    assert start_evidence([], 0).found is False


# -- the log file on disk ------------------------------------------------------------------------------

def test_find_log_file_prefers_an_existing_logging_file_then_the_newest_daily_file(tmp_path: Path) -> None:
    preferred = tmp_path / "vora"
    preferred.mkdir(mode=0o700)
    older, newer = preferred / "vora-2026-04-11.log", preferred / "vora-2026-04-12.log"
    older.write_text("a\n")
    newer.write_text("b\n")
    os.utime(older, (2_000_000_000, 2_000_000_000))
    os.utime(newer, (1_000_000_000, 1_000_000_000))
    (preferred / "notes.log").write_text("x")
    assert find_log_file(None, tmp_path, tmp_path, preferred).path == older  # by mtime, not by name
    custom = tmp_path / "custom.log"
    assert find_log_file(str(custom), tmp_path, tmp_path, preferred).path == older  # configured but missing
    custom.write_text("c\n")
    assert find_log_file("custom.log", tmp_path, tmp_path, preferred).path == custom


def test_an_unsafe_tmp_folder_sends_the_gateway_to_the_per_user_folder(tmp_path: Path) -> None:
    unsafe = tmp_path / "vora"
    unsafe.mkdir()
    unsafe.chmod(0o777)
    fallback = tmp_path / "tmp" / f"vora-{os.getuid()}"
    fallback.mkdir(mode=0o700)
    assert log_dirs(unsafe).folder == fallback
    unsafe.chmod(0o700)
    assert log_dirs(unsafe).folder == unsafe


def test_tail_and_read_from_follow_growth_and_notice_truncation(tmp_path: Path) -> None:
    log = tmp_path / "vora-2026-04-12.log"
    log.write_text("".join(f"line {i}\n" for i in range(10)))
    lines, size = tail_lines(log, 3)
    assert lines == ["line 7", "line 8", "line 9"]
    with log.open("a") as handle:
        handle.write("line 10\nhalf")
    new, offset, reset = read_from(log, size)
    assert (new, reset) == (["line 10"], False)
    log.write_text("fresh\n")
    new, offset, reset = read_from(log, offset)
    assert (new, reset) == (["fresh"], True)


# -- the device token store --------------------------------------------------------------------------

def test_device_token_store_round_trip_keeps_other_roles_and_skips_no_op_writes(tmp_path: Path) -> None:
    path = device_auth_path(tmp_path)
    assert read_device_token(tmp_path, "dev1") is None
    assert store_device_token(tmp_path, "dev1", "tok-1", ["operator.read"], 1000, 10) is True
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert text.endswith("}\n") and text.startswith('{\n  "version": 1,')
    doc = json.loads(text)
    assert doc == {"version": 1, "deviceId": "dev1", "tokens": {"operator": {
        "token": "tok-1", "role": "operator", "scopes": ["operator.read"], "updatedAtMs": 1000}}}
    doc["tokens"]["node"] = {"token": "n", "role": "node", "scopes": [], "updatedAtMs": 1}
    path.write_text(json.dumps(doc, indent=2) + "\n")
    before = path.stat().st_mtime_ns
    assert store_device_token(tmp_path, "dev1", "tok-1", ["operator.read"], 2000, 10) is False
    assert path.stat().st_mtime_ns == before
    assert store_device_token(tmp_path, "dev1", "tok-2", ["operator.read"], 3000, 10) is True
    assert json.loads(path.read_text())["tokens"]["node"]["token"] == "n"
    assert read_device_token(tmp_path, "dev1") == "tok-2"
    assert read_device_token(tmp_path, "dev2") is None  # another device's store is not ours
    assert store_device_token(tmp_path, "dev2", "tok-3", ["operator.read"], 4000, 10) is True
    assert json.loads(path.read_text())["tokens"] == {"operator": {
        "token": "tok-3", "role": "operator", "scopes": ["operator.read"], "updatedAtMs": 4000}}
    assert forget_device_token(tmp_path, "dev2", 10) is True
    assert read_device_token(tmp_path, "dev2") is None
    assert forget_device_token(tmp_path, "dev2", 10) is False


def test_the_prefiltered_evidence_equals_parsing_every_line() -> None:
    from vora_cli.core.gateway.logfile import start_evidence_from_raw

    base = 1_776_000_000_000
    noise = [gateway_log_line(iso(base + i), f"noise {i} (ready soon)") for i in range(50)]
    raw = noise + _start_lines(base) + noise
    for bound in (None, base - 1000, base + 100_000):
        assert start_evidence_from_raw(raw, bound) == start_evidence([parse_log_line(r) for r in raw], bound)


def test_an_unreadable_token_store_is_not_used_and_is_replaced_by_the_next_token(tmp_path: Path) -> None:
    path = device_auth_path(tmp_path)
    path.parent.mkdir(parents=True)
    for junk in ("{not json", "[1, 2]", '{"deviceId": "dev1", "tokens": []}'):
        path.write_text(junk)
        assert read_device_token(tmp_path, "dev1") is None
        assert store_device_token(tmp_path, "dev1", "tok", ["operator.read"], 5, 10) is True
        assert read_device_token(tmp_path, "dev1") == "tok"


def test_a_late_answer_to_a_call_that_timed_out_is_not_kept(state_dir: Path) -> None:
    from install_support import make_install

    from vora_cli.core.gateway.connect import open_client, setup_gateway

    with running_gateway(silent_on={"health"}) as gw:
        install = make_install(state_dir, now_ms=int(time.time() * 1000))
        client = open_client(install, setup_gateway(install, gw.url), 0.3, notes=[])
        with client:
            first = client.call_many([("health", {}), ("doctor.memory.status", {})])
            assert first[0].code == "gateway-timeout" and first[1]["agentId"] == "main"
            assert client._pending == set() and client._answers == {}  # nothing left waiting, nothing kept
