"""A state dir a newer gateway line wrote (core/newer_line.py): vora says once, on stderr and in
doctor, what it cannot see there, and writes nothing there unless the operator adds --force."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run
from contract_support import STEPS, command_of, gateway, install, leaf_commands  # noqa: F401 (fixtures)
from devices_support import NOW, key, paired, read_store, request, write_store

from vora_cli.core.newer_line import detect_newer_line, is_newer_version

VoraRun = Callable[..., Run]
REQUEST = "8f2b7c4e-1d3a-4b5c-9e6f-0a1b2c3d4e5f"
LAPTOP = key("laptop").device_id
TOKEN = "0123456789abcdef0123456789abcdef"
NEWER = f"""{{
  meta: {{ lastTouchedVersion: "2026.9.3", lastTouchedAt: "2026-11-02T10:00:00.000Z" }},
  gateway: {{ auth: {{ mode: "token", token: "{TOKEN}" }} }},
  agents: {{ entries: {{ main: {{ workspace: "~/w" }}, ops: {{}} }} }},
}}
"""


def _newer_state(tmp_path: Path, *, sqlite: bool = True, config: str = NEWER) -> Path:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text(config)
    (state / "vora.json").chmod(0o600)
    if sqlite:  # a real SQLite database, as the newer gateway keeps its pairing and install records
        (state / "state").mkdir(mode=0o700)
        with sqlite3.connect(state / "state" / "openclaw.sqlite") as db:
            db.execute("create table device_pairing (id text primary key, record text)")
    write_store(state, pending=[request("phone", request_id=REQUEST)], devices=[paired("laptop")])
    return state


def _snapshot(state: Path) -> dict[str, str]:
    """Every file in the state dir with its digest and mode: what "nothing written" means."""
    out = {}
    for here, _dirs, names in os.walk(state):
        for name in names:
            path = Path(here) / name
            out[str(path.relative_to(state))] = f"{hashlib.sha256(path.read_bytes()).hexdigest()}:{path.stat().st_mode:o}"
    return out


SUMMARY = ("was written by a newer gateway line (gateway 2026.9.3, state/openclaw.sqlite); vora follows openclaw "
           "2026.4.12 and does not see 2 agents under agents.entries nor pairing requests, paired devices and plugin "
           "install records in state/openclaw.sqlite")


def test_a_read_says_once_what_vora_cannot_see_and_writes_nothing(vora: VoraRun, tmp_path: Path) -> None:
    state = _newer_state(tmp_path)
    before = _snapshot(state)
    for args in (["config", "get", "gateway.auth.mode"], ["devices", "list", "--json"], ["context", "list"]):
        run = vora("--state-dir", str(state), *args, env={"VORA_NOW_MS": str(NOW)})
        assert run.exit_code == 0, (args, run.stderr)
        assert run.stderr.count("note: ") == 1
        assert f"note: {state} {SUMMARY}; vora writes nothing there without --force\n" in run.stderr
    assert _snapshot(state) == before  # not even the request ids `devices list` notes elsewhere


def test_doctor_names_what_it_cannot_see(vora: VoraRun, tmp_path: Path) -> None:
    state = _newer_state(tmp_path)
    doc = vora("--state-dir", str(state), "doctor", "--only", "newer-gateway", "--json").json()
    (check,) = doc["checks"]
    assert (check["status"], check["message"]) == ("warn", f"{state} {SUMMARY}")
    assert check["details"] == [
        "not seen: 2 agents under agents.entries",
        "not seen: pairing requests, paired devices and plugin install records in state/openclaw.sqlite",
        "vora writes nothing into this state dir (config, pairing store, plugins, fixes) unless you add --force",
        "next: manage this install with the newer gateway's own CLI",
    ]


@pytest.mark.parametrize("args", [
    ["config", "set", "gateway.port", "18790"],
    ["config", "unset", "gateway.auth.mode"],
    ["devices", "reject", REQUEST],
    ["devices", "rename", LAPTOP, "work laptop"],
    ["devices", "remove", LAPTOP, "--yes"],
    ["devices", "remove", LAPTOP, "--yes", "--dry-run"],  # a dry run takes the store's lock: a file too
    ["config", "patch", "-"],
    ["doctor", "--fix", "--yes"],
    ["security", "audit", "--fix", "--yes"],
    ["devices", "identity", "--create"],
    ["devices", "identity", "--create", "--dry-run"],
    ["config", "set", "gateway.port", "1234", "--dry-run"],
    ["config", "patch", "-", "--dry-run"],
    ["plugins", "enable", "lobster", "--dry-run"],
    ["plugins", "update", "--all", "--dry-run"],
    ["doctor", "--fix", "config-secrets", "--dry-run"],
    ["doctor", "--fix", "--dry-run"],
])
def test_every_write_is_refused_without_force(vora: VoraRun, tmp_path: Path, args: list[str]) -> None:
    state = _newer_state(tmp_path)
    (state / "vora.json").chmod(0o644)  # something for the fixes to change
    (state / "devices" / "paired.json").chmod(0o644)
    before = _snapshot(state)
    run = vora("--state-dir", str(state), *args, env={"VORA_NOW_MS": str(NOW)}, input='{ gateway: { port: 1 } }')
    assert run.exit_code == 1, run.stdout + run.stderr
    error = run.stderr.splitlines()[0]
    assert error.startswith("error: not writing to a state dir a newer gateway line wrote (gateway 2026.9.3, "
                            "state/openclaw.sqlite): ")
    assert error.endswith("could contradict state vora does not see there; nothing was written")
    assert "add --force to write anyway" in run.stderr
    assert _snapshot(state) == before


@pytest.mark.parametrize("sqlite", [True, False])
def test_creating_the_device_identity_is_refused_by_either_mark(vora: VoraRun, tmp_path: Path, sqlite: bool) -> None:
    state = _newer_state(tmp_path, sqlite=sqlite)
    before = _snapshot(state)
    run = vora("--state-dir", str(state), "devices", "identity", "--create")
    assert run.exit_code == 1 and "not writing to a state dir a newer gateway line wrote" in run.stderr, run.stderr
    assert _snapshot(state) == before and not (state / "identity").exists()
    forced = vora("--state-dir", str(state), "--force", "devices", "identity", "--create")
    assert forced.exit_code == 0 and (state / "identity" / "device.json").is_file(), forced.stderr


def test_force_writes_anyway_given_anywhere_or_as_the_commands_own(vora: VoraRun, tmp_path: Path) -> None:
    state = _newer_state(tmp_path)
    run = vora("--state-dir", str(state), "devices", "rename", LAPTOP, "work laptop", "--force",
               env={"VORA_NOW_MS": str(NOW)})
    assert run.exit_code == 0, run.stderr
    assert "vora writes nothing there without --force" not in run.stderr and "note: " in run.stderr
    assert "work laptop" in str(read_store(state)[1][LAPTOP])
    run = vora("--state-dir", str(state), "config", "set", "gateway.port", "18790", "--force")  # config set's own
    assert run.exit_code == 0 and "port: 18790" in (state / "vora.json").read_text()
    run = vora("--force", "--state-dir", str(state), "config", "unset", "gateway.port")
    assert run.exit_code == 0 and "18790" not in (state / "vora.json").read_text()


def test_the_config_alone_marks_it_and_older_or_unknown_versions_do_not(vora: VoraRun, tmp_path: Path) -> None:
    assert [is_newer_version(v) for v in ("2026.5.0", "v2026.5.0-beta.1", "2026.10", "2027.1.1", " 2026.9.3 ",
                                          "2026.4.30", "2026.4", "2025.12.1", "latest", "", None, 2026.9)] == [
        True, True, True, True, True, False, False, False, False, False, False, False]
    state = _newer_state(tmp_path, sqlite=False)
    newer = detect_newer_line(state, {"meta": {"lastTouchedVersion": "2026.5.1"}})
    assert newer is not None and (newer.version, newer.sqlite, newer.agent_entries) == ("2026.5.1", None, 0)
    assert detect_newer_line(state, {"meta": {"lastTouchedVersion": "2026.4.12"}}) is None
    older = NEWER.replace("2026.9.3", "2026.4.12")
    (state / "vora.json").write_text(older)
    run = vora("--state-dir", str(state), "config", "set", "gateway.port", "18790")
    assert run.exit_code == 0 and "note:" not in run.stderr


def test_a_restore_into_it_and_a_plugin_install_are_refused_too(vora: VoraRun, tmp_path: Path) -> None:
    state = _newer_state(tmp_path)
    archive = tmp_path / "backup.tar.gz"
    made = vora("--state-dir", str(state), "backup", "create", "--output", str(archive), "--no-workspace", "--json")
    assert made.exit_code == 0, made.stderr  # reading the install writes nothing into it
    plugin = tmp_path / "my-plugin"
    plugin.mkdir()
    (plugin / "openclaw.plugin.json").write_text('{ "id": "my-plugin", "configSchema": { "type": "object" } }\n')
    (plugin / "index.js").write_text("module.exports = () => {};\n")
    (plugin / "package.json").write_text('{ "name": "my-plugin", "version": "1.0.0", "openclaw": { "extensions": ["./index.js"] } }\n')
    (state / "vora.json").write_text(NEWER.replace("18789", "1"))
    before = _snapshot(state)
    for args in (["backup", "restore", str(archive)], ["plugins", "install", str(plugin)],
                 ["plugins", "install", "-l", str(plugin)], ["backup", "restore", str(archive), "--dry-run"],
                 ["plugins", "install", str(plugin), "--dry-run"]):
        run = vora("--state-dir", str(state), *args)
        assert run.exit_code == 1 and "not writing to a state dir a newer gateway line wrote" in run.stderr, \
            (args, run.stderr)
        assert _snapshot(state) == before
        assert not (state / "extensions").exists()  # a dry run stages nothing there either


# The commands that never look at an install (its paths are not even resolved): the operator's
# settings file, a shell's completion script, the gateway's schema, a new plugin folder, archives.
# `settings list` names the state dir it resolves, so it is not among them.
NOT_ABOUT_AN_INSTALL = {"settings path", "settings set", "settings get", "settings unset", "completion",
                        "config schema", "plugins init", "backup verify", "backup list"}


@pytest.mark.parametrize("sqlite", [False, True])
def test_every_command_says_it_once_and_writes_nothing_there(vora: VoraRun, install: Path,  # noqa: F811
                                                             sqlite: bool) -> None:
    """Every command of the tree (the contract walk's steps: one per leaf), whichever path reads the
    config, or none (an error before any read): the note once on stderr, never on --json's stdout,
    and not one byte or mode of the state dir changed (a write is refused)."""
    state = install / "vora"
    config = (state / "vora.json").read_text()
    (state / "vora.json").write_text(config.replace("\n{\n", '\n{\n  meta: { lastTouchedVersion: "2026.9.3" },\n', 1))
    if sqlite:
        (state / "state").mkdir(mode=0o700)
        with sqlite3.connect(state / "state" / "openclaw.sqlite") as db:
            db.execute("create table device_pairing (id text primary key, record text)")
    write_store(state, pending=[request("phone", request_id=REQUEST)])
    note = f"note: {state} was written by a newer gateway line (gateway 2026.9.3"
    walked, wrong = set(), []
    for step in STEPS:
        command = command_of(step)
        walked.add(command)
        before = _snapshot(state)
        run = vora("--state-dir", "vora", "--json", *(REQUEST if a == "{req}" else a for a in step),
                   env={"VORA_NOW_MS": str(NOW)})
        if not run.stderr.count("note: ") == run.stderr.count(note) == (command not in NOT_ABOUT_AN_INSTALL):
            wrong.append(("note", step, run.stderr))
        if "note: " in run.stdout or "vora writes nothing there" in run.stdout:
            wrong.append(("stdout", step, run.stdout))
        if step[0] != "completion":
            json.loads(run.stdout)  # one document, success or error, and nothing else
        if _snapshot(state) != before:
            wrong.append(("written", step, run.stderr))
    assert wrong == [], "\n".join(f"{what}: {' '.join(step)}: {said[:300]!r}" for what, step, said in wrong)
    assert walked == leaf_commands()
