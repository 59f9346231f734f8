"""Issue 12 point 20, other members (acceptance audit): every command vora prints for the operator
to paste — hints and doctor fixes, not only `vora …` ones (`cp`, `mkdir -p`, `mv`) — is one shell
word per argument, for paths with a space, a quote, a newline or a byte that is not UTF-8. The
check is the real one: bash runs the printed words and gets the real paths back."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from vora_cli.core.shell import shell_quote

NAMES = {
    "space": "my state",
    "quote": "it's",
    "newline": "new\nline",
    "not-utf8": os.fsdecode(b"st\xff dir"),
    "escape": "esc\x1b[31m",
    "dollar": "$HOME`x`",
}


def argv_of(command: str) -> list[str]:
    """The words bash makes of a printed command (its first word replaced by printf)."""
    _program, _sep, rest = command.partition(" ")
    done = subprocess.run(["bash", "-c", "printf '%s\\0' " + rest], capture_output=True, check=True)
    return [os.fsdecode(word) for word in done.stdout.split(b"\0")[:-1]]


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_shell_quote_gives_bash_the_same_word_back(name: str) -> None:
    assert argv_of("x " + shell_quote(name)) == [name]
    assert "\n" not in shell_quote(name)


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_the_restore_hint_copies_the_real_backup(tmp_path: Path, vora, name: str) -> None:
    state = tmp_path / name
    state.mkdir()
    (state / "vora.json").write_text("{ a: @ }\n")
    (state / "vora.json.bak").write_text("{ a: 1 }\n")
    hint = vora("--state-dir", str(state), "config", "get", "--json").json()["error"]["hint"]
    command = hint.split("restore the last good copy: ", 1)[1]
    assert command.startswith("cp ") and "\n" not in command
    assert argv_of(command) == [str(state / "vora.json.bak"), str(state / "vora.json")]


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_doctor_fix_commands_name_the_real_paths(tmp_path: Path, vora, name: str) -> None:
    state = tmp_path / name / "state"
    state.mkdir(mode=0o700, parents=True)
    workspace = tmp_path / name / "ws"
    (state / "vora.json").write_text(json.dumps({"agents": {"defaults": {"workspace": str(workspace)}}}))
    devices = state / "devices"
    devices.mkdir()
    (devices / "pending.json").write_text("{ not json")
    broken = str(devices / "pending.json")
    report = vora("--state-dir", str(state), "doctor", "--json").json()
    fixes = {c["id"]: c["fix"]["command"] for c in report["checks"] if c["fix"] and c["fix"]["command"]}
    assert argv_of(fixes["workspace"]) == ["-p", str(workspace)]
    assert argv_of(fixes["pairing-store"]) == [broken, broken + ".broken"]


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_doctor_names_the_real_agents_md_to_edit(tmp_path: Path, vora, name: str) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    workspace = tmp_path / name
    workspace.mkdir()
    (state / "vora.json").write_text(json.dumps({"agents": {"defaults": {"workspace": str(workspace)}}}))
    report = vora("--state-dir", str(state), "doctor", "--json", "--only", "workspace").json()
    command = report["checks"][0]["fix"]["command"]
    assert command.startswith("$EDITOR ")
    assert argv_of(command) == [str(workspace / "AGENTS.md")]
