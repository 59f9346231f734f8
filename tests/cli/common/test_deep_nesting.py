"""Every reader × deep input, in one parametrised test (issue 22, class 2; docs/reliability.md).

A file, frame or argument nested past `MAX_NESTING` (128 levels, counting the document's own
top level) used to make a `RecursionError` escape as `internal` from nearly every reader. Now:
at the limit each command works as on a plain file; one level past it, and 100,000 levels past
it (past Python's own recursion limit, where `json` itself gives up), each fails with its usual
error for a bad input, naming the file (or the frame, or the option) and the place, with a next
step, never `internal`, never a traceback; or, where the reader already treats a bad input as
absent, it goes on without it.
"""

from __future__ import annotations

import io
import json
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import Run
from devices_support import request
from gateway_server import gateway_log_line, running_gateway
from plugins_support import make_plugin
from sessions_support import Transcript, entry, text, tool_call, write_store

from vora_cli.core.nesting import MAX_NESTING

DEPTHS = {"at the limit": MAX_NESTING, "one past": MAX_NESTING + 1, "100,000 deep": 100_000}


def arrays(levels: int) -> str:
    return "[" * levels + "]" * levels


def objects(levels: int, key: str = "a") -> str:
    return f'{{"{key}":' * (levels - 1) + "{}" + "}" * (levels - 1) if levels else "1"


@dataclass
class Ctx:
    tmp: Path
    state: Path
    home: Path
    vora: Callable[..., Run]
    monkeypatch: pytest.MonkeyPatch

    def run(self, *args: str) -> Run:
        return self.vora("--state-dir", str(self.state), *args)


@dataclass(frozen=True)
class Outcome:
    """What a reader's command did; past the limit it must fail with `code` ("report": a finding
    of doctor, inspect or verify), naming `names`. `code` None: the reader goes on without it."""

    run: Run
    names: str = ""
    code: str | None = None


# -- the readers: each builds its input `levels` deep in total and runs the command that reads it ---

def pairing_store(ctx: Ctx, levels: int) -> Outcome:
    pending = ctx.state / "devices" / "pending.json"
    pending.parent.mkdir()
    extra = levels - 2  # the store's own object and the request's
    body = json.dumps({"r1": request("phone", request_id="r1")})[:-2] + f', "extra": {arrays(extra)}' + "}}"
    pending.write_text(body)
    run = ctx.run("devices", "list", "--json")
    if levels <= MAX_NESTING:
        assert run.exit_code == 0 and [r["requestId"] for r in run.json()["pending"]] == ["r1"], run.stdout
    return Outcome(run, str(pending), "parse_error")


def paired_store_in_doctor(ctx: Ctx, levels: int) -> Outcome:
    paired = ctx.state / "devices" / "paired.json"
    paired.parent.mkdir()
    paired.write_text(f'{{"d1": {objects(levels - 1)}}}')
    run = ctx.run("doctor", "--only", "pairing-store", "--json")
    check = next(c for c in run.json()["checks"] if c["id"] == "pairing-store")
    assert (check["status"] == "error") == (levels > MAX_NESTING), check
    return Outcome(run, str(paired), "report")


def identity_file(ctx: Ctx, levels: int) -> Outcome:
    path = ctx.state / "identity" / "device.json"
    path.parent.mkdir(mode=0o700)
    path.write_text(f'{{"version": 1, "x": {arrays(levels - 1)}}}')
    path.chmod(0o600)
    run = ctx.run("devices", "identity", "--json")
    if levels <= MAX_NESTING:  # it parses, and is refused for what it lacks (no key), not for its depth
        assert run.json()["error"]["message"].startswith(f"{path}: expected {{version, deviceId")
    return Outcome(run, str(path), "parse_error")


def device_auth_store(ctx: Ctx, levels: int) -> Outcome:
    path = ctx.state / "identity" / "device-auth.json"
    path.parent.mkdir(mode=0o700)
    path.write_text(f'{{"version": 1, "tokens": {objects(levels - 1)}}}')
    with running_gateway() as gw:
        ctx.monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        run = ctx.run("gateway", "status", "--json")
    # holds nothing vora could use either way: treated as empty and replaced (docs/gateway.md)
    assert run.exit_code == 0 and json.loads(path.read_text())["tokens"]["operator"]["token"]
    return Outcome(run)


def plugin_package_json(ctx: Ctx, levels: int) -> Outcome:
    root = make_plugin(ctx.state / "extensions" / "deep-one", "deep-one")
    (root / "package.json").write_text(f'{{"name": "deep-one", "vora": {{"extensions": ["./dist/index.js"]}}, '
                                       f'"x": {objects(levels - 1)}}}')
    run = ctx.run("plugins", "inspect", "deep-one", "--json")
    assert (run.json()["status"] == "error") == (levels > MAX_NESTING), run.stdout[-600:]
    return Outcome(run, "package.json", "report")


def plugin_manifest(ctx: Ctx, levels: int) -> Outcome:
    root = make_plugin(ctx.state / "extensions" / "deep-one", "deep-one")
    (root / "vora.plugin.json").write_text(f'{{id: "deep-one", configSchema: {{type: "object"}}, x: {arrays(levels - 1)}}}')
    run = ctx.run("plugins", "inspect", "deep-one", "--json")
    assert (run.json()["status"] == "error") == (levels > MAX_NESTING), run.stdout[-600:]
    return Outcome(run, "vora.plugin.json", "report")


def config_file(ctx: Ctx, levels: int) -> Outcome:
    config = ctx.state / "vora.json"
    config.write_text(f"// mine\n{{gateway: {{port: 18789}}, x: {arrays(levels - 1)}}}\n")
    before = config.read_bytes()
    run = ctx.run("config", "set", "gateway.port", "18790", "--json")
    if levels > MAX_NESTING:
        assert config.read_bytes() == before  # nothing written
    else:
        assert run.exit_code == 0 and "port: 18790" in config.read_text(), run.stdout[-600:]
    return Outcome(run, f"{config}:2:", "parse_error")


def gateway_log_file(ctx: Ctx, levels: int) -> Outcome:
    log = ctx.tmp / "gateway.log"
    deep = json.dumps({"0": '{"subsystem":"gateway"}', "1": "ready (0 plugins; 1.0s)"})[:-1] + f', "2": {arrays(levels - 1)}}}'
    log.write_text(gateway_log_line("2026-04-12T10:00:00.000+00:00", "ready (1 plugins: x; 1.0s)") + "\n" + deep + "\n")
    (ctx.state / "vora.json").write_text(json.dumps({"logging": {"file": str(log)}}))
    doctor = ctx.run("doctor", "--json")
    assert "internal" not in doctor.stdout and "Traceback" not in doctor.stderr
    assert any(c["id"] == "last-gateway-start" for c in doctor.json()["checks"])
    return Outcome(ctx.run("logs", "--file", "--json"))


def gateway_frame(ctx: Ctx, levels: int) -> Outcome:
    with running_gateway() as gw:
        gw.raw["health"] = lambda frame: [json.dumps({"type": "res", "id": frame["id"], "ok": True})[:-1]
                                          + f', "payload": {objects(levels - 1)}}}']
        run = ctx.run("gateway", "call", "health", "--url", gw.url, "--json")
    return Outcome(run, "sent a frame nested deeper", "gateway-protocol")


def gateway_logs_tail_line(ctx: Ctx, levels: int) -> Outcome:
    with running_gateway(log_lines=[arrays(levels)]) as gw:
        run = ctx.run("logs", "--url", gw.url, "--json")
    message = run.json()["lines"][0]["message"]
    assert run.exit_code == 0 and arrays(levels).startswith(message) and message, message[-80:]  # the raw line
    return Outcome(run)


def params_option(ctx: Ctx, levels: int) -> Outcome:
    run = ctx.run("gateway", "call", "health", "--params", f'{{"a": {arrays(levels - 1)}}}', "--url",
                  "ws://127.0.0.1:9", "--json")
    return Outcome(run, "--params", "usage")


def transcript_tool_call(ctx: Ctx, levels: int) -> Outcome:
    t = Transcript("s1")
    t.user("hi")
    # the entry, its message, content, the block and `arguments` are 5 levels of the line
    leaf = t.assistant(text("reading"), tool_call("c1", "read", {"a": "PLACE"}))
    t.lines[-1] = t.lines[-1].replace('{"a": "PLACE"}', objects(levels - 4))
    t.write(ctx.state / "agents" / "main" / "sessions" / "s1.jsonl")
    write_store(ctx.state, {"agent:main:main": entry("s1")})
    run = ctx.run("sessions", "show", "agent:main:main", "--json")
    assert run.exit_code == 0, run.stderr
    doc = run.json()
    if levels < 1000:  # read by the gateway, and shown, cut where it goes too deep
        previews = [s["preview"] for s in doc["context"]["segments"] if s["kind"] == "assistant"]
        assert len(previews) == 1 and previews[0].startswith('reading → read({"a":{"a":'), previews
    else:  # past what Python's json reads at all: a bad line, by number
        assert doc["transcript"]["badLines"] == [3] and leaf not in json.dumps(doc["context"])
    return Outcome(run)


def session_store(ctx: Ctx, levels: int) -> Outcome:
    path = ctx.state / "agents" / "main" / "sessions" / "sessions.json"
    path.parent.mkdir(parents=True)
    path.write_text(f'{{"agent:main:main": {{"sessionId": "s1", "updatedAt": 1, "x": {arrays(levels - 2)}}}}}')
    run = ctx.run("sessions", "list", "--json")
    if levels <= MAX_NESTING:
        assert run.exit_code == 0 and [r["key"] for r in run.json()["sessions"]] == ["agent:main:main"], run.stdout
    return Outcome(run, str(path), "store_unreadable")


def settings_file(ctx: Ctx, levels: int) -> Outcome:
    path = ctx.home / ".config" / "vora" / "settings.toml"
    path.parent.mkdir(parents=True)
    path.write_text(f'color = "never"\nprofile = {arrays(levels - 1)}\n')
    run = ctx.run("config", "file", "--json")
    error = run.json()["error"]
    if levels <= MAX_NESTING:  # it parses, and is refused for its type, naming the key and the repair
        assert error["code"] == "invalid" and "vora settings unset profile" in error["hint"]
    else:
        assert "vora settings unset profile" in error["hint"]
    return Outcome(run, f"{path}:2:", "parse_error")


def settings_unset_repair(ctx: Ctx, levels: int) -> Outcome:
    path = ctx.home / ".config" / "vora" / "settings.toml"
    path.parent.mkdir(parents=True)
    path.write_text(f'color = "never"\n[doctor]\nskip = {"{a=" * (levels - 2)}1{"}" * (levels - 2)}\n')
    run = ctx.run("settings", "unset", "doctor.skip", "--json")
    assert run.exit_code == 0, run.stdout
    assert "skip" not in path.read_text() and 'color = "never"' in path.read_text()
    assert ctx.run("config", "file").exit_code == 0  # repaired: every command works again
    return Outcome(run)


def backup_manifest(ctx: Ctx, levels: int) -> Outcome:
    archive = ctx.tmp / "deep.tar.gz"
    data = f'{{"schemaVersion": 1, "x": {arrays(levels - 1)}}}'.encode()
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("2026-04-12T10-00-00.000Z-openclaw-backup/manifest.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    run = ctx.run("backup", "verify", str(archive), "--json")
    assert run.exit_code == 1  # an archive without its files fails verify either way
    return Outcome(run, "manifest", "report")


READERS: dict[str, Callable[[Ctx, int], Outcome]] = {
    "pairing store": pairing_store,
    "paired store (doctor)": paired_store_in_doctor,
    "identity file": identity_file,
    "device-auth store": device_auth_store,
    "plugin package.json": plugin_package_json,
    "plugin manifest": plugin_manifest,
    "config file": config_file,
    "gateway log file (doctor, logs --file)": gateway_log_file,
    "gateway frame": gateway_frame,
    "logs.tail line": gateway_logs_tail_line,
    "--params": params_option,
    "transcript tool call": transcript_tool_call,
    "session store": session_store,
    "settings.toml": settings_file,
    "settings unset (the repair)": settings_unset_repair,
    "backup manifest": backup_manifest,
}


@pytest.mark.parametrize("depth", list(DEPTHS), ids=list(DEPTHS))
@pytest.mark.parametrize("reader", list(READERS), ids=list(READERS))
def test_every_reader_bounds_nesting(reader: str, depth: str, tmp_path: Path, home: Path, vora: Callable[..., Run],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text("{}\n")
    levels = DEPTHS[depth]
    outcome = READERS[reader](Ctx(tmp_path, state, home, vora, monkeypatch), levels)
    run = outcome.run
    shown = run.stdout + run.stderr
    assert "Traceback" not in run.stderr and "RecursionError" not in shown
    assert '"internal"' not in run.stdout and "unexpected error" not in run.stderr
    if outcome.code is None:  # a reader that goes on without what it cannot use
        assert run.exit_code == 0, shown[-600:]
        return
    if levels <= MAX_NESTING:  # at the limit: read like any other file (each reader checks what follows)
        assert f"deeper than {MAX_NESTING} levels" not in shown, shown[-600:]
        return
    assert f"deeper than {MAX_NESTING} levels" in shown
    assert outcome.names in shown, shown[-600:]
    if outcome.code == "report":  # doctor, inspect, verify: a finding (each reader checks its verdict)
        return
    error = run.json()["error"]
    assert (error["code"], run.exit_code) == (outcome.code, 2 if outcome.code == "usage" else 1)
    assert error["hint"], error
