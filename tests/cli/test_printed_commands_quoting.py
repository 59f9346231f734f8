"""Issue 12 point 20: every command vora prints for the operator to run survives copy and
paste: a path or id with a space (or a quote, or `$`) comes out as one shell word."""

from __future__ import annotations

import json
import os
import shlex
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
    preview = next(line for line in result.stderr.splitlines() if line.startswith("chmod 700 "))
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
