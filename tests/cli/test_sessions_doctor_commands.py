"""The commands the `sessions-*` doctor checks print find the session they name (spec sessions.md,
"Doctor": "orphans and missing transcripts print the command an operator could run"): a key that
does not name its store's agent (`global`, a request-style key in another agent's store) gets
`--agent`. Each printed command is run, and must show that session."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
from sessions_support import NOW, entry, write_store

ENV = {"VORA_NOW_MS": str(NOW)}


@pytest.fixture
def state(state_dir: Path) -> Path:
    (state_dir / "vora.json").write_text("{ agents: { list: [{ id: 'main', default: true }, { id: 'ops' }] } }\n")
    write_store(state_dir, {"agent:main:main": entry("s-main-gone")})
    return state_dir


def _fix_command(vora: Any, check: str) -> list[str]:
    doc = vora("doctor", "--json", env=ENV).json()
    found = next(c for c in doc["checks"] if c["id"] == check)
    assert found["status"] == "warn", found
    return shlex.split(found["fix"]["command"])[1:]


@pytest.mark.parametrize("key", ["global", "slack:direct:u1", "agent:ops:main"])
def test_the_missing_transcript_command_finds_the_session(vora: Any, state: Path, key: str) -> None:
    write_store(state, {"agent:main:main": entry("s-main")})
    (state / "agents/main/sessions/s-main.jsonl").write_text("")
    write_store(state, {key: entry("s-gone")}, agent="ops")
    words = _fix_command(vora, "sessions-transcripts")
    assert words[:3] == ["sessions", "show", key]
    shown = vora(*words, "--json", env=ENV)
    assert shown.exit_code == 0, shown.stdout
    assert shown.json()["key"] == key and shown.json()["agentId"] == "ops"


@pytest.mark.parametrize("key", ["global", "agent:ops:main"])
def test_the_full_context_command_finds_the_session(vora: Any, state: Path, key: str) -> None:
    write_store(state, {key: entry("s-full", totalTokens=31_000, contextTokens=32_000)}, agent="ops")
    (state / "agents/ops/sessions/s-full.jsonl").write_text("")
    write_store(state, {"agent:main:main": entry("s-main")})
    (state / "agents/main/sessions/s-main.jsonl").write_text("")
    words = _fix_command(vora, "sessions-context")
    shown = vora(*words, "--json", env=ENV)
    assert shown.exit_code == 0, shown.stdout
    assert shown.json()["key"] == key and shown.json()["agentId"] == "ops"
