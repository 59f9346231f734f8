"""Issue 23, "Terminals": doctor read once as a new operator would. Every failure line says what is
wrong, every next step what to do in words and then what to type, each command on its own line;
on an 80-column terminal lines fold at word boundaries with a hanging indent."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from doctor_helpers import make_state, make_workspace
from pty_support import run_with_pty

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
