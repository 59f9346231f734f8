"""Every reader × an integer literal too long for `int()` (Python refuses more than 4,300 digits
from text, since the conversion is quadratic; docs/reliability.md, "Odd numbers").

The gateway reads such a literal as JavaScript does: `JSON5.parse` and `JSON.parse` give Infinity
(recorded in tests/data/upstream/js-numbers-node.json). vora reads it as that Infinity and judges
it as any other non-finite number (`1e400`), so no command says `internal`, each exits as it does
for that value, nothing is written, and a `config set` replaces the value. An env var or a path
that must hold a small integer takes such a value as it takes any other unusable one.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES, Run
from devices_support import request

HUGE = "9" * 5000


def _example(home: Path) -> Path:
    state = home / ".vora"
    shutil.copytree(EXAMPLES / "vora", state)
    shutil.copytree(EXAMPLES / "plugins", home / "plugins")
    return state


def _files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.parent.name != "logs"}  # vora's own log


def _clean(run: Run) -> None:
    assert '"internal"' not in run.stdout and "internal" not in run.stderr, run.stdout + run.stderr
    assert "set_int_max_str_digits" not in run.stdout + run.stderr
    assert "Traceback" not in run.stderr


# -- each reader's file with the huge literal in it ----------------------------------------------

def _config(state: Path, value: str) -> None:
    path = state / "vora.json"
    path.write_text(path.read_text().replace("port: 18789", f"port: {value}", 1))


def config_port(state: Path) -> None:
    _config(state, HUGE)


def config_port_negative(state: Path) -> None:
    _config(state, "-" + HUGE)


def config_port_hex(state: Path) -> None:
    _config(state, "0x" + "f" * 5000)


def config_in_array(state: Path) -> None:
    path = state / "vora.json"
    path.write_text(path.read_text().replace('paths: ["../plugins/my-engine"]',
                                             f'paths: ["../plugins/my-engine"], extra: [{HUGE}, 1]', 1))


def paired_store(state: Path) -> None:
    path = state / "devices" / "paired.json"
    text = path.read_text()
    assert '"createdAtMs": 1764460800000' in text
    path.write_text(text.replace('"createdAtMs": 1764460800000', f'"createdAtMs": {HUGE}', 1))


def pending_store(state: Path) -> None:
    path = state / "devices" / "pending.json"
    path.write_text(json.dumps({"r1": request("phone", request_id="r1")}, indent=2).replace(
        '"silent": false', f'"silent": false, "extra": -{HUGE}', 1))


def session_store(state: Path) -> None:
    path = state / "agents" / "main" / "sessions" / "sessions.json"
    text = path.read_text()
    assert '"updatedAt": 1764460560000' in text and '"totalTokens": 14362' in text
    path.write_text(text.replace('"updatedAt": 1764460560000', f'"updatedAt": {HUGE}', 1)
                    .replace('"totalTokens": 14362', f'"totalTokens": {HUGE}', 1))


def transcript(state: Path) -> None:
    sessions = state / "agents" / "main" / "sessions"
    path = sessions / "3f9d2c1e-7b4a-4e8f-9a61-2d5c8e0b7f41.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    first = json.loads(lines[1])
    first["huge"] = 1
    lines[1] = json.dumps(first).replace('"huge": 1', f'"huge": {HUGE}') + "\n"
    path.write_text("".join(lines))


READERS: dict[str, tuple[Callable[[Path], None], list[tuple[tuple[str, ...], set[int]]]]] = {
    # reader: (the change, [(command, its exit codes)]): a config problem fails validate and doctor
    "vora.json": (config_port, [
        (("config", "validate"), {1}), (("doctor",), {1}), (("config", "get", "gateway.port"), {0}),
        (("security", "audit"), {0, 1}), (("gateway", "status"), {1}), (("logs",), {1})]),
    "vora.json negative": (config_port_negative, [(("config", "validate"), {1}), (("gateway", "status"), {1})]),
    "vora.json hex": (config_port_hex, [(("config", "validate"), {1}), (("config", "get", "gateway"), {0}),
                                        (("gateway", "status"), {1})]),
    "vora.json array": (config_in_array, [(("config", "get", "plugins.load"), {0}), (("doctor",), {0, 1})]),
    "paired.json": (paired_store, [(("devices", "list"), {0}), (("doctor",), {0, 1})]),
    "pending.json": (pending_store, [(("devices", "list"), {0}), (("doctor",), {0, 1})]),
    "sessions.json": (session_store, [(("sessions", "list"), {0}), (("sessions", "show", "agent:main:main"), {0}),
                                      (("doctor",), {0, 1}), (("security", "audit"), {0, 1})]),
    "transcript": (transcript, [(("sessions", "show", "agent:main:main"), {0}), (("security", "audit"), {0, 1})]),
}
CASES = [pytest.param(reader, command, codes, id=f"{reader}-{' '.join(command)}")
         for reader, (_change, commands) in READERS.items() for command, codes in commands]


@pytest.mark.usefixtures("pinned_clock")
@pytest.mark.parametrize(("reader", "command", "codes"), CASES)
@pytest.mark.parametrize("fmt", ["--json", "text"])
def test_a_huge_integer_is_read_as_the_gateway_reads_it(vora: Callable[..., Run], home: Path, reader: str,
                                                          command: tuple[str, ...], codes: set[int], fmt: str) -> None:
    state = _example(home)
    READERS[reader][0](state)
    before = _files(state)
    run = vora(*command, *(["--json"] if fmt == "--json" else []))
    _clean(run)
    assert run.exit_code in codes, (run.exit_code, run.stdout[-2000:], run.stderr)
    if fmt == "--json":
        run.json()  # one JSON document, whatever the outcome
    assert _files(state) == before


def test_config_validate_names_the_infinite_port_and_config_set_repairs_it(vora: Callable[..., Run], home: Path) -> None:
    state = _example(home)
    config_port(state)
    problems = vora("config", "validate", "--json").json()["problems"]
    assert [p["key"] for p in problems] == ["gateway.port"]
    # the same verdict as `1e400`, the spelling the gateway reads the same way
    _config(state, "1e400")
    same = vora("config", "validate", "--json").json()["problems"]
    assert [(p["key"], p["message"]) for p in same] == [(p["key"], p["message"]) for p in problems]
    (state / "vora.json").write_text((state / "vora.json").read_text().replace("port: 1e400", f"port: {HUGE}"))
    assert vora("config", "get", "gateway.port", "--json").json()["value"] == "Infinity"
    run = vora("config", "set", "gateway.port", "5")
    assert run.exit_code == 0, run.stderr
    assert "port: 5," in (state / "vora.json").read_text() and HUGE not in (state / "vora.json").read_text()
    assert vora("config", "validate", "--json").json()["problems"] == []


@pytest.mark.parametrize("value", [HUGE, f"[::1]:{HUGE}", f"localhost:{HUGE}", "0" * 5000 + "18790"])
def test_a_huge_gateway_port_variable_is_passed_over_as_the_gateway_does(
        vora: Callable[..., Run], home: Path, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    """The gateway's parseGatewayPortEnvValue: `Number.parseInt` of the digits is Infinity, no
    port, so the config's (or the default) is used; leading zeros still read as the port."""
    _example(home)
    monkeypatch.setenv("VORA_GATEWAY_PORT", value)
    for command in (("gateway", "status", "--json"), ("logs", "--json"), ("security", "audit", "--json")):
        run = vora(*command)
        _clean(run)
        run.json()
    status = vora("gateway", "status", "--json").json()
    port = 18790 if value.endswith("18790") else 18789
    assert f":{port}" in json.dumps(status), status


def test_a_non_finite_gateway_port_falls_back_to_the_default(vora: Callable[..., Run], home: Path) -> None:
    state = _example(home)
    _config(state, "1e400")
    run = vora("gateway", "status", "--json")
    _clean(run)
    assert ":18789" in run.stdout


def test_other_integer_inputs(vora: Callable[..., Run], home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _example(home)
    for args, code in ((("config", "get", f"agents.list[{HUGE}]"), 2), (("config", "set", f"agents.list[{HUGE}]", "5"), 2),
                       (("config", "get", f"agents.list.{HUGE}"), 1), (("sessions", "list", "--active", HUGE), 2),
                       (("gateway", "call", "health", "--params", f'{{"a": {HUGE}}}'), 2)):
        run = vora(*args, "--json")
        _clean(run)
        assert run.exit_code == code, (args[:2], run.stdout, run.stderr)
        if args[0] != "sessions":  # click's own message quotes an option's value whole
            assert len(run.stdout) < 1000 or code == 1  # vora's usage errors quote it cut short
    monkeypatch.setenv("VORA_NOW_MS", HUGE)
    run = vora("devices", "list", "--json")
    _clean(run)
    assert run.exit_code == 2 and "VORA_NOW_MS" in run.stdout and len(run.stdout) < 500


def test_a_huge_integer_in_the_settings_file_is_a_parse_error_at_its_line(
        vora: Callable[..., Run], home: Path, settings_file: Path) -> None:
    _example(home)
    settings_file.write_text(f'# mine\ncolor = "never"\nlock_timeout = {HUGE}\n')
    before = settings_file.read_bytes()
    for args in (("settings", "list"), ("config", "validate"), ("settings", "set", "lock_timeout", "5")):
        run = vora(*args, "--json")
        _clean(run)
        error = run.json()["error"]
        assert run.exit_code == 1 and error["code"] == "parse_error" and "(line 3)" in error["message"], run.stdout
    assert settings_file.read_bytes() == before


def test_a_non_finite_session_time_and_total_are_null_in_json(vora: Callable[..., Run], home: Path) -> None:
    """`updatedAt: 1e400` is Infinity to the gateway: no age (not "-Infinity", not "just now"), and
    a total the gateway's JSON.stringify writes as null."""
    state = _example(home)
    path = state / "agents" / "main" / "sessions" / "sessions.json"
    path.write_text(path.read_text().replace('"updatedAt": 1764460560000', '"updatedAt": 1e400', 1)
                    .replace('"totalTokens": 14362', '"totalTokens": 1e400', 1))
    shown = vora("sessions", "show", "agent:main:main", "--json")
    assert "Infinity" not in shown.stdout
    entry = shown.json()["entry"]
    assert entry["ageMs"] is None and entry["totalTokens"] is None and entry["updatedAt"] is None
    listed = vora("sessions", "list", "--json").json()["sessions"]
    row = next(r for r in listed if r["key"] == "agent:main:main")
    assert row["ageMs"] is None and row["totalTokens"] is None
    text = vora("sessions", "show", "agent:main:main").stdout
    assert "just now" not in text and "updated: unknown" in text
