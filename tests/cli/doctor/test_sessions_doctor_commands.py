"""The commands the `sessions-*` doctor checks print find the session they name (spec sessions.md,
"Doctor": "orphans and missing transcripts print the command an operator could run"): a key that
does not name its store's agent (`global`, a request-style key in another agent's store) gets
`--agent`. Each printed command is run, and must show that session."""

from __future__ import annotations

import json
import os
import shlex
import time
from pathlib import Path
from typing import Any

import pytest
from doctor_helpers import make_state
from sessions_support import NOW, dead_pid, entry, lock_time, sessions_dir, with_transcripts, write_store

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


def test_fix_removes_stale_locks_only(vora, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    state = make_state(tmp_path)
    with_transcripts(state, {"agent:main:main": entry("a"), "agent:main:b": entry("b")})
    folder = sessions_dir(state)
    now = int(time.time() * 1000)
    live = folder / "a.jsonl.lock"
    live.write_text(json.dumps({"pid": os.getpid(), "createdAt": lock_time(now)}))
    stale = folder / "b.jsonl.lock"
    stale.write_text(json.dumps({"pid": dead_pid(), "createdAt": lock_time(now - 45 * 60_000)}))
    dry = vora("--state-dir", str(state), "doctor", "--fix", "sessions-locks", "--dry-run", "--json")
    assert stale.exists() and f"rm {stale}" in dry.stdout
    result = vora("--state-dir", str(state), "doctor", "--fix", "sessions-locks", "--yes", "--json")
    assert result.exit_code == 0, result.stdout
    assert not stale.exists() and live.exists()
    again = vora("--state-dir", str(state), "doctor", "--only", "sessions-locks", "--json").json()
    assert again["checks"][0]["status"] == "info"
