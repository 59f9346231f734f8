"""Issue 12 point 20: every command vora prints for the operator to run survives copy and
paste: a path or id with a space (or a quote, or `$`) comes out as one shell word.

Also (acceptance audit) every command vora prints to paste that is not a `vora` one — hints and
doctor fixes (`cp`, `mkdir -p`, `mv`) — is one shell word per argument, for paths with a space,
a quote, a newline or a byte that is not UTF-8: bash runs the printed words and gets the real
paths back. The quoting rule itself is in `tests/core/test_shell.py`."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin, write_config

from tests.conftest import Run
from vora_cli.core.shell import shell_quote


def _command_after(text: str, prefix: str) -> list[str]:
    line = next(line for line in text.splitlines() if prefix in line)
    return shlex.split(line[line.index(prefix) + len(prefix):].split("   ")[0])


@pytest.mark.parametrize("name", ["my engine", "it's here"])
def test_init_next_step_quotes_the_folder(name: str, tmp_path: Path, state_dir: Path, vora: Callable[..., Run]) -> None:
    folder = tmp_path / name
    result = vora("plugins", "init", str(folder), "--id", "eng")
    assert result.exit_code == 0, result.stderr
    assert _command_after(result.stderr, "Next: ") == ["vora", "plugins", "install", "-l", str(folder), "--use"]


@pytest.mark.parametrize("name", ["my engine", "a$b"])
def test_force_hint_quotes_the_source(name: str, tmp_path: Path, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    source = make_plugin(tmp_path / name, "eng")
    assert vora("plugins", "install", str(source)).exit_code == 0
    again = vora("plugins", "install", str(source))
    assert again.exit_code == 1
    hint = again.stderr.split("hint: ", 1)[1]
    command = hint[hint.index("(") + 1:hint.rindex(")")]
    assert shlex.split(command) == ["vora", "plugins", "install", str(source), "--force"]


@pytest.mark.parametrize("plugin_id", ["my engine", "eng$1"])
def test_slot_hint_quotes_the_id(plugin_id: str, tmp_path: Path, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", str(make_plugin(tmp_path / "src", plugin_id)))
    assert result.exit_code == 0, result.stderr
    assert _command_after(result.stderr, f"to select {plugin_id}: ") == ["vora", "plugins", "use", plugin_id]
    assert f"vora plugins use {shell_quote(plugin_id)}" in result.stderr  # `$` too: no expansion when pasted


def test_doctor_chmod_commands_quote_paths(tmp_path: Path, vora: Callable[..., Run]) -> None:
    state = tmp_path / "my state"
    state.mkdir()
    (state / "vora.json").write_text("{}\n")
    plugin = make_plugin(state / "extensions" / "eng", "eng")
    os.chmod(state, 0o777)
    os.chmod(plugin, 0o777)
    result = vora("--state-dir", str(state), "doctor", "--fix", "state-dir", "--dry-run")
    # the dry run's plan, printed last on stdout
    preview = next(line.strip() for line in result.stdout.splitlines() if line.strip().startswith("chmod 700 "))
    assert shlex.split(preview.split("   ")[0]) == ["chmod", "700", str(state)]
    report = vora("--state-dir", str(state), "doctor", "--json").json()
    fix = {c["id"]: c for c in report["checks"]}["plugin-permissions"]["fix"]
    assert shlex.split(fix["command"]) == ["chmod", "go-w", str(plugin)]
    # The next steps of the human report quote the global option too.
    human = vora("--state-dir", str(state), "doctor")
    lines = human.stdout.splitlines()
    step = lines[lines.index("  plugin-permissions: remove group/other write access") + 1]
    assert shlex.split(step) == ["chmod", "go-w", str(plugin)]


def test_dangling_link_warning_quotes_the_id(tmp_path: Path, state_dir: Path, vora: Callable[..., Run]) -> None:
    gone = tmp_path / "gone dir" / "my engine"
    record = {"source": "path", "spec": "x", "sourcePath": str(gone), "installPath": str(gone)}
    config = {"plugins": {"load": {"paths": [str(gone)]}, "installs": {"my engine": record}}}
    (state_dir / "vora.json").write_text(json.dumps(config))
    result = vora("plugins", "list")
    command = result.stderr.split("fix the path or: ", 1)[1].rsplit(")", 1)[0]
    assert shlex.split(command) == ["vora", "plugins", "uninstall", "my engine"]


# -- commands that are not vora's: bash runs them and gets the real paths back ------------------

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


# A `vora …` command inside a warning carries the run's global options, as hints and notes do:
# pasted, it acts on the same install (never the default `~/.vora`).

def _keyed_plugin(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "openclaw.plugin.json").write_text(json.dumps({"id": "keyed-w", "configSchema": {
        "type": "object", "required": ["apiKey"], "properties": {"apiKey": {"type": "string"}}}}))
    (root / "package.json").write_text(json.dumps({"name": "keyed-w", "version": "1.0.0", "type": "module",
                                                   "openclaw": {"extensions": ["./index.js"]}}))
    (root / "index.js").write_text('export default { id: "keyed-w", register() {} };\n')
    return root


@pytest.mark.parametrize("globals_", [["--state-dir", "{state}"], ["--config", "{state}/vora.json"],
                                      ["--state-dir", "{state}", "--config", "{state}/vora.json"]])
@pytest.mark.parametrize("link", [False, True])
def test_the_commands_in_a_warning_name_the_same_install(globals_: list[str], link: bool, tmp_path: Path,
                                                         vora: Callable[..., Run]) -> None:
    state = tmp_path / "other state"
    state.mkdir()
    (state / "vora.json").write_text("{}\n")
    source = _keyed_plugin(tmp_path / "src" / "keyed-w")
    given = [g.format(state=state) for g in globals_]
    run = vora(*given, "plugins", "install", *(["-l"] if link else []), str(source))
    assert run.exit_code == 0, run.stderr
    warnings = [line for line in run.stderr.splitlines() if line.startswith("warning: ")]
    assert warnings and any("vora " in line for line in warnings), run.stderr
    prefix = "vora " + " ".join(f"{flag} '{value}'" if " " in value else f"{flag} {value}"
                                for flag, value in zip(given[::2], given[1::2], strict=True)) + " "
    assert any(prefix + "config set plugins.entries.keyed-w.config.apiKey" in line for line in warnings), warnings
    for line in warnings:  # and no command is left without them
        assert not re.search(r"\bvora (config|plugins) ", line), line
