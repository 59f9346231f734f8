"""Verbatim text from files is escaped on a terminal and kept byte for byte in a pipe.

`config get` showed a value's ESC as `\\x1b` on a terminal, but a config diff (`config set
--dry-run`, `plugins … --dry-run`) and `context preview` wrote a comment's or a workspace file's
OSC (retitle), CSI 2J (clear screen) and C1 CSI to the terminal raw; `less -R` passes colour and
OSC 8 links through, and with no pager they went straight out. `context json --session` wrote
C1 controls and bidi overrides of a stored run report raw where every `--json` escapes them
(review of issues 22 and 23).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, Run
from pty_support import run_with_pty
from sessions_support import entry, run_report, write_store

CONTROLS = ["\x1b]0;pwned\x07", "\x1b[2J\x1b[H", "\x9b31m", "\x1b]8;;http://evil.example\x07link\x1b]8;;\x07"]
RAW = ("\x1b", "\x9b", "\x07")


def _terminal(state: Path, *args: str, pager: str = "cat") -> str:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO), "PAGER": pager}
    code, _piped, shown = run_with_pty([sys.executable, "-m", "vora_cli", "--state-dir", str(state), *args], env)
    assert code == 0, shown
    return shown


def _config(state_dir: Path, control: str) -> str:
    text = f'{{\n  // note {control}\n  gateway: {{port: 18789}},\n  name: "a{control}b",\n}}\n'
    (state_dir / "vora.json").write_text(text)
    return text


@pytest.mark.slow
@pytest.mark.parametrize("control", CONTROLS)
def test_a_config_diff_is_escaped_on_a_terminal_and_verbatim_in_a_pipe(vora: Callable[..., Run], state_dir: Path,
                                                                       control: str) -> None:
    _config(state_dir, control)
    shown = _terminal(state_dir, "config", "set", "gateway.port", "18790", "--dry-run")
    assert "-  gateway: {port: 18789}," in shown and not [c for c in RAW if c in shown]
    assert control.encode("unicode_escape").decode() in shown
    piped = vora("config", "set", "gateway.port", "18790", "--dry-run").stdout
    assert f"   // note {control}\n" in piped  # a patch of the file still applies


@pytest.mark.slow
@pytest.mark.parametrize("pager", ["cat", "", "less -FRX"])
def test_context_preview_is_escaped_on_a_terminal_with_any_pager(vora: Callable[..., Run], state_dir: Path,
                                                                 pager: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    workspace = state_dir / "workspace"
    workspace.mkdir()
    (workspace / "AGENTS.md").write_text("# Agents\n" + "".join(f"line {c}\n" for c in CONTROLS))
    shown = _terminal(state_dir, "context", "preview", "AGENTS.md", pager=pager)
    # less draws with escapes of its own: none of the file's reaches the terminal
    assert "line \\x1b]0;pwned\\x07" in shown and not [c for c in CONTROLS if c in shown] and "\x9b" not in shown
    assert "\x1b]0;pwned" in vora("context", "preview", "AGENTS.md").stdout  # piped: exactly what is injected


@pytest.mark.parametrize("name", ["tool\x9b2J", "tool\u202egnp.exe", "tool\u2028x", "tool\x85y"])
def test_context_json_of_a_session_escapes_what_every_json_escapes(vora: Callable[..., Run], state_dir: Path,
                                                                   name: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    report = run_report()
    report["tools"]["entries"][0]["name"] = name
    write_store(state_dir, {"agent:main:main": entry("s1", systemPromptReport=report)})
    out = vora("context", "json", "--session", "agent:main:main").stdout
    assert name not in out and f"\\u{ord(name[4]):04x}" in out
    assert json.loads(out)["report"]["tools"]["entries"][0]["name"] == name  # the same string to a JSON reader


@pytest.mark.slow
@pytest.mark.parametrize("path", ["gateway", "agents.list", None], ids=["object", "array", "root"])
def test_config_get_keeps_its_own_layout_on_a_terminal_and_escapes_only_inside_values(state_dir: Path,
                                                                                      path: str | None) -> None:
    """Issue 35, point 7: `vora config get gateway` on a terminal printed one line with literal
    `\\n`: the line breaks of the JSON vora laid out were escaped as if a value held them."""
    (state_dir / "vora.json").write_text('{ gateway: { port: 18789, name: "a\\u009b31m\\u202eb\\nc" }, '
                                         'agents: { list: [{ id: "main", name: "x\\ny" }] } }\n')
    shown = _terminal(state_dir, "config", "get", *([path] if path else []))
    lines = shown.replace("\r\n", "\n").rstrip("\n").split("\n")
    assert lines[0] in ("{", "[") and lines[-1] in ("}", "]") and len(lines) > 3
    assert "\\n" not in "".join(line for line in lines if '"name"' not in line)  # the layout is not escaped
    if path != "agents.list":
        assert '"name": "a\\u009b31m\\u202eb\\nc"' in shown  # inside the value: its JSON escapes
    assert "\x9b" not in shown and "\u202e" not in shown


@pytest.mark.slow
def test_a_string_value_alone_stays_one_line_on_a_terminal(vora: Callable[..., Run], state_dir: Path) -> None:
    (state_dir / "vora.json").write_text('{ gateway: { name: "two\\nlines" } }\n')
    assert _terminal(state_dir, "config", "get", "gateway.name").replace("\r\n", "\n") == "two\\nlines\n"
    assert vora("config", "get", "gateway.name").stdout == "two\nlines\n"  # a script gets the value as stored


def test_doctor_lists_its_checks_with_blank_lines_not_escaped_ones(vora: Callable[..., Run], state_dir: Path) -> None:
    shown = vora("doctor", "--list-checks").stdout
    assert "\\n" not in shown
    assert "\n\nGateway\n" in shown
