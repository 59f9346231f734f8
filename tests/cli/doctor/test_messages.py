"""Issue 23, "Terminals": doctor read once as a new operator would. Every failure line says what is
wrong, every next step what to do in words and then what to type, each command on its own line;
on an 80-column terminal lines fold at word boundaries with a hanging indent.

The commands the `sessions-*` doctor checks print find the session they name (spec sessions.md,
"Doctor": "orphans and missing transcripts print the command an operator could run"): a key that
does not name its store's agent (`global`, a request-style key in another agent's store) gets
`--agent`. Each printed command is run, and must show that session.

Issue 12, point 7 (acceptance audit): doctor's excerpt of an unparseable config line never shows
a value that sat below a secret-named key earlier on that line — whether the error itself is below
it (hidden) or a secret subtree closed before it on the same line (not hidden). The hiding rule itself,
and its linear work, is in `tests/core/secrets/test_excerpt_values.py`.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from doctor_helpers import make_state, make_workspace
from pty_support import run_with_pty
from sessions_support import NOW, dead_pid, entry, lock_time, sessions_dir, with_transcripts, write_store

from tests.conftest import REPO

BROKEN = """// an install with one of each kind of problem
{
  gateway: { bind: "lan", auth: { mode: "token" } },
  agents: { defaults: { workspace: "./workspace", bootstrapMaxChars: 100 } },
  plugins: {
    slots: { contextEngine: "my-engin", memory: "mem-x" },
    entries: { ghost: { enabled: true } },
    load: { paths: ["./nope"] },
  },
  gatewya: 1,
}
"""
COMMAND_WORDS = ("vora ", "$EDITOR ", "mv ", "chmod ", "mkdir ", "npm ", "openssl ", "export ", "or: ")


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    state = make_state(tmp_path, BROKEN, mode=0o775)
    make_workspace(state, {"AGENTS.md": "x" * 300, "skills/nodesc/SKILL.md": "---\nname: nodesc\n---\nbody\n"})
    (state / "extensions" / "my-engine").mkdir(parents=True)
    (state / "extensions" / "my-engine" / "vora.plugin.json").write_text(
        '{"id": "my-engine", "kind": "context-engine", "configSchema": {}}')
    return state


def _steps(text: str) -> list[tuple[str, list[str]]]:
    """Next steps as (what to do, [commands]), continuation lines joined back."""
    lines = text.split("\nNext steps:\n", 1)[1].splitlines()
    steps: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("    ") and not line.startswith("      "):
            steps[-1][1].append(line.strip())
        elif line.startswith("      "):  # a folded continuation
            if steps[-1][1]:
                steps[-1][1][-1] = steps[-1][1][-1].removesuffix(" \\") + " " + line.strip()
            else:
                steps[-1] = (steps[-1][0] + " " + line.strip(), [])
        else:
            steps.append((line.strip(), []))
    return steps


def test_every_next_step_says_what_then_what_to_type(vora, broken: Path) -> None:
    text = vora("--state-dir", str(broken), "doctor").stdout
    steps = dict(_steps(text))
    assert steps, text
    for what, commands in steps.items():
        assert re.match(r"[a-z-]+: \S", what) and not what.endswith("#"), what
        assert commands and all(c.startswith(COMMAND_WORDS) for c in commands), (what, commands)
        assert not any("   (or:" in c or "   #" in c for c in commands)  # a command line holds a command
    skills = next(c for w, c in steps.items() if w.startswith("skills:"))
    assert skills == [f"$EDITOR {broken / 'workspace' / 'skills' / 'nodesc' / 'SKILL.md'}"]  # the file to edit
    auth = next(c for w, c in steps.items() if w.startswith("gateway-auth:"))
    assert auth == [f"openssl rand -base64 32 | vora --state-dir {broken} config set gateway.auth.token --stdin --type string",
                    'or: export VORA_GATEWAY_TOKEN="$(openssl rand -base64 32)"']
    memory = next(c for w, c in steps.items() if w.startswith("slot-memory:"))
    assert memory == [f"vora --state-dir {broken} plugins install SOURCE",
                      f"or: vora --state-dir {broken} config set plugins.slots.memory memory-core"]


def test_no_line_trails_off_or_speaks_in_internal_words(vora, broken: Path) -> None:
    text = vora("--state-dir", str(broken), "doctor").stdout
    assert "a running gateway may still fail to load it" not in text
    assert "first broken link" not in text and "<root>" not in text
    slot = next(line for line in text.splitlines() if "slot-context-engine:" in line)
    assert slot.endswith("my-engin is not installed (did you mean my-engine?)")
    doc = vora("--state-dir", str(broken), "doctor", "--json").json()
    for check in doc["checks"]:
        fix = check["fix"]
        if fix and fix["command"]:
            assert fix["command"].startswith(COMMAND_WORDS) and "(or:" not in fix["command"], fix


def test_on_an_80_column_terminal_lines_fold_at_words_with_a_hanging_indent(vora, broken: Path) -> None:
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1", "PYTHONPATH": str(REPO)}
    code, _piped, shown = run_with_pty([sys.executable, "-m", "vora_cli", "--state-dir", str(broken), "doctor"], env)
    assert code == 1
    lines = shown.replace("\r\n", "\n").splitlines()
    words_longer_than_a_line = [w for w in shown.split() if len(w) > 70]
    assert all(len(line) <= 80 or any(w in line for w in words_longer_than_a_line) for line in lines)
    piped = vora("--state-dir", str(broken), "doctor").stdout
    # the same words in the same order: nothing was cut inside a word, only folded between words
    unfolded = " ".join(line.removesuffix(" \\") for line in lines)
    assert unfolded.split() == piped.split()
    schema = next(i for i, line in enumerate(lines) if "config-schema:" in line)
    assert lines[schema].startswith("  \u2717 config-schema: ") and lines[schema + 1].startswith("      ")
    assert len(lines[schema]) > 60  # folded near the width, not early


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


MARK = "ZQXVmarker"

SHAPES = {
    # The error is below the secret-named key; a value parsed before it is on the line.
    "array of strings": '{ apiKeys: [ "' + MARK + '1", ' + MARK + "2 ] }\n",
    "map below a token key": '{ botTokens: { main: "' + MARK + '" oops: 1 } }\n',
    "closed array before the error": '{ apiKeys: [ "' + MARK + '" ], port: 12 34 }\n',
    "number below cookie": "{ cookie: { a: 12345678" + MARK[:0] + ", b: 1 2 } }\n",
    # The secret subtree closes on the error's line, the error is outside it: not hidden.
    "subtree closing on the line": '{ botTokens: {\n  main: "' + MARK + '" }, port: 12 34 }\n',
    "array of objects closing": '{ creds: [ {\n privateKey: "x" }, { privateKey:\n "' + MARK
    + '" } ], port: 1 2 }\n',
    "secret after the error": '{ port: 12 34, apiKeys: [ "' + MARK + '" ] }\n',
}


@pytest.mark.parametrize("text", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("json_mode", [False, True])
def test_doctor_excerpt_hides_values_of_secrets(state_dir: Path, vora, text: str, json_mode: bool) -> None:
    (state_dir / "vora.json").write_text(text)
    run = vora("doctor", "--json", "--only", "config-syntax") if json_mode else vora("doctor")
    assert run.exit_code == 1
    shown = run.stdout + run.stderr
    assert MARK not in shown
    assert "12345678" not in shown
    assert "config-syntax" in shown


def test_the_excerpt_still_shows_the_shape(state_dir: Path, vora) -> None:
    (state_dir / "vora.json").write_text('{ botTokens: {\n  main: "' + MARK + '" }, port: 18789 18790 }\n')
    check = vora("doctor", "--json", "--only", "config-syntax").json()["checks"][0]
    assert check["details"][0] == "2 | main: <redacted> }, port: 18789 18790 }"
