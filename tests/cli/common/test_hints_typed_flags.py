"""Issue 12 point 20: hints and errors name the flag the way the user typed it, and a suggested
command keeps the flags the user passed."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin, tar_of, write_config

from tests.conftest import Run
from vora_cli.cli.output import Run as OutputRun


@pytest.mark.parametrize(("argv", "expected"), [
    (["plugins", "install", "-l", "x"], "-l"),
    (["plugins", "install", "--link", "x"], "--link"),
    (["plugins", "install", "x", "-l", "--link"], "--link"),
    (["plugins", "install", "-yl", "x"], "-l"),
    (["plugins", "install", "x"], "--link"),
    (["plugins", "install", "--", "-l"], "--link"),  # after `--` it is an argument, not a flag
])
def test_typed_flag_reads_the_command_line(argv: list[str], expected: str) -> None:
    assert OutputRun(argv).typed_flag("--link", "-l") == expected


@pytest.mark.parametrize("flag", ["-l", "--link"])
def test_force_with_link_names_the_flag_typed(flag: str, tmp_path: Path, state_dir: Path,
                                              vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", flag, str(make_plugin(tmp_path / "p", "eng")), "--force", "--json")
    assert result.exit_code == 2
    assert result.json()["error"]["message"] == f"--force cannot be used with {flag}"


@pytest.mark.parametrize("flag", ["-l", "--link"])
def test_link_of_an_archive_names_the_flag_typed(flag: str, tmp_path: Path, state_dir: Path,
                                                 vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    archive = tar_of(make_plugin(tmp_path / "p", "eng"), tmp_path / "eng.tgz")
    error = vora("plugins", "install", flag, str(archive), "--json").json()["error"]
    assert error["message"].startswith(f"{flag} needs a local folder or file")
    assert error["hint"] == f"install archives and npm packages without {flag}"


@pytest.mark.parametrize("extra", [[], ["--use"]])
def test_force_hint_keeps_the_flags_passed(extra: list[str], tmp_path: Path, state_dir: Path,
                                           vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    source = make_plugin(tmp_path / "p", "eng")
    assert vora("plugins", "install", str(source), *extra).exit_code == 0
    hint = vora("plugins", "install", str(source), *extra, "--json").json()["error"]["hint"]
    command = hint[hint.index("(") + 1:hint.rindex(")")]
    assert shlex.split(command) == ["vora", "plugins", "install", str(source), *extra, "--force"]
