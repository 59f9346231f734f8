"""The README's two quick-start commands are exactly what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def quick_start_commands() -> list[str]:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section, re.DOTALL)


def test_readme_has_exactly_two_quick_start_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)
    assert "examples/" in commands[0] and "doctor" in commands[0] and "context list" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_the_readme_commands_verbatim() -> None:
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    for command in quick_start_commands():
        assert command in ci, f".ci/run does not run the README command: {command}"
