"""`session_not_found` hints at a `vora sessions list` that works (spec sessions.md: "Nothing found →
`session_not_found`, exit 1, with a hint to run `vora sessions list`"): `--agent X` only for a
configured agent (any other id is `agent_not_found` there), else `--all-agents`, which also lists
the agents found only on disk. The hinted command is run, and must succeed."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from sessions_support import NOW, entry, write_store

ENV = {"VORA_NOW_MS": str(NOW)}


@pytest.fixture
def state(state_dir: Path) -> Path:
    (state_dir / "vora.json").write_text("{ agents: { list: [{ id: 'main', default: true }] } }\n")
    write_store(state_dir, {"agent:main:main": entry("s-main")})
    write_store(state_dir, {"agent:disk:main": entry("s-disk")}, agent="disk")  # on disk, not configured
    return state_dir


def _hinted_command(vora: Any, *args: str) -> list[str]:
    result = vora(*args, env=ENV)
    assert result.exit_code == 1 and "no session" in result.stderr, result.stderr
    hint = next(line for line in result.stderr.splitlines() if line.startswith("hint: "))
    return shlex.split(hint.split("`")[1])[1:]  # the words after `vora`


@pytest.mark.parametrize(("key", "expected"), [
    ("agent:main:nope", ["sessions", "list", "--agent", "main"]),
    ("agent:ghost:main", ["sessions", "list", "--all-agents"]),  # no such agent at all
    ("agent:disk:nope", ["sessions", "list", "--all-agents"]),  # a store on disk, agent not configured
])
def test_the_hinted_list_command_works(vora: Any, state: Path, key: str, expected: list[str]) -> None:
    words = _hinted_command(vora, "sessions", "show", key)
    assert words == expected
    assert vora(*words, env=ENV).exit_code == 0


def test_context_session_hint_too(vora: Any, state: Path) -> None:
    words = _hinted_command(vora, "context", "list", "--session", "agent:ghost:main")
    assert words == ["sessions", "list", "--all-agents"]
    assert vora(*words, env=ENV).exit_code == 0
