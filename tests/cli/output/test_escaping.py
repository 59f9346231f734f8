"""Verbatim text from files is escaped on a terminal and kept byte for byte in a pipe.

`config get` showed a value's ESC as `\\x1b` on a terminal, but a config diff (`config set
--dry-run`, `plugins … --dry-run`) and `context preview` wrote a comment's or a workspace file's
OSC (retitle), CSI 2J (clear screen) and C1 CSI to the terminal raw; `less -R` passes colour and
OSC 8 links through, and with no pager they went straight out. `context json --session` wrote
C1 controls and bidi overrides of a stored run report raw where every `--json` escapes them
(review of issues 22 and 23).

Issue 12 point 20: U+2028/U+2029 (and the other line breakers) are escaped in tables and
one-line messages, so a row or a message never splits in two.

A styled line (doctor's check lines, security findings) shows names as they are on disk.

With colour on, rich's console turned `:white_check_mark:` or `:warning:` in a folder's name into
the emoji even with markup off: a plugin folder could show a pass mark of its own on the
operator's terminal, and the same line piped read differently (review of issues 22 and 23).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, Run
from plugins_support import make_plugin, write_config
from pty_support import run_with_pty
from sessions_support import entry, run_report, write_store

from vora_cli.core.text import escape_controls

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


BREAKERS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\r"]


@pytest.mark.parametrize("char", BREAKERS)
def test_safe_text_escapes_every_line_breaker(char: str) -> None:
    shown = escape_controls(f"a{char}b")
    assert len(shown.splitlines()) == 1
    assert shown.startswith("a\\") and shown.endswith("b")


@pytest.mark.parametrize("char", ["\u2028", "\u2029"])
def test_plugins_list_table_keeps_one_row_per_plugin(char: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    folder = make_plugin(state_dir / "extensions" / f"dir{char}name", "sep-engine")
    manifest = json.loads((folder / "vora.plugin.json").read_text().split("\n", 1)[1])
    manifest["name"] = f"Evil{char}Name"
    (folder / "vora.plugin.json").write_text(json.dumps(manifest))
    result = vora("plugins", "list")
    assert result.exit_code == 0, result.stderr
    assert char not in result.stdout
    rows = [line for line in result.stdout.splitlines() if "sep-engine" in line]
    assert len(rows) == 1
    escaped = char.encode("unicode_escape").decode()
    assert f"Evil{escaped}Name" in rows[0] and f"dir{escaped}name" in rows[0]


@pytest.mark.parametrize("char", ["\u2028", "\u2029"])
def test_an_error_message_stays_one_line(char: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    result = vora("plugins", "inspect", f"ghost{char}id")
    assert result.exit_code == 1
    assert char not in result.stderr
    assert result.stderr.splitlines()[0].startswith("error: plugin not installed: ghost\\u")


NAMES = ["x :white_check_mark: all good", "y :warning:", "z :cross_mark::thumbs_up:"]


@pytest.mark.parametrize("name", NAMES)
def test_a_name_with_emoji_codes_is_shown_as_written_in_colour(vora: Callable[..., Run], state_dir: Path,
                                                               monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.delenv("NO_COLOR")
    (state_dir / "vora.json").write_text("{}\n")
    (state_dir / "extensions" / name).mkdir(parents=True)  # no manifest: doctor names the folder
    for env in ({"FORCE_COLOR": "1"}, {}):
        out = vora("doctor", env=env).stdout
        assert name in out
        assert not any(ord(c) > 0x2600 for c in out.replace("\u2713", "").replace("\u2717", "")), out
    assert "\x1b[" in vora("doctor", env={"FORCE_COLOR": "1"}).stdout  # the colour path was the one taken
