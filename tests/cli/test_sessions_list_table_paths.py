"""`sessions list` renders its table two ways (issue 24): on a terminal each age is a `Cell`
(its short form for a narrow screen) and each line goes through `line`; piped, the ages are
their text and the escaped rows go out in one write. Where the terminal is wide enough for
every cell whole, both print the same bytes, for odd entries too: missing fields, huge and
non-integer numbers, control characters and line breaks in keys and models, lone surrogates,
non-ASCII text, secrets in fields the table does not show."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sessions_support import NOW, entry, write_store

from vora_cli.cli import output

ENV = {"VORA_NOW_MS": str(NOW)}


@pytest.fixture
def odd_store(state_dir: Path) -> Path:
    entries: dict[str, Any] = {
        "agent:main:main": entry("s1", model="claude", totalTokens=12_400, contextTokens=200_000, compactionCount=2),
        "agent:main:telegram:direct:u1": {"updatedAt": NOW - 3 * 86_400_000},  # no id, no model
        "agent:main:x\tkey\nwith breaks": entry("s2", model="m\x1b[31mred\u2028", totalTokens=2**70,
                                               contextTokens=1e300),
        "agent:main:é→ünïcode": entry("s3", model="mödel é", totalTokens=9_999.5, contextTokens=32_000,
                                      compactionCount=1.5, totalTokensFresh=False),
        "agent:main:huge": entry("s4", updated=NOW - 10**12, totalTokens=-5, contextTokens=0, compactionCount=10**20),
        "agent:main:secret": entry("s5", label="API_KEY=sk-abcdefghijklmnop", model="sk-live", totalTokens=1),
        "agent:main:surrogate": entry("s6", model="cut\udc80"),
        "Agent:Main::Odd:": entry("s7", updated=0, model=""),
        "global": entry("s8", chatType="group"),
    }
    path = write_store(state_dir, {})
    path.write_text(json.dumps(entries, indent=2, ensure_ascii=True), encoding="utf-8")  # \\udXXX as escapes
    return state_dir


def _run(vora: Any, *args: str) -> str:
    result = vora("sessions", "list", *args, env=ENV)
    assert result.exit_code == 0, result.stderr
    return str(result.stdout)


def test_the_piped_table_equals_the_terminal_table_of_the_same_store(odd_store: Path, vora: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    piped = _run(vora)
    monkeypatch.setattr(output, "stream_is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "1000")  # wide: every cell whole, as when piped
    shown = _run(vora)
    assert shown == piped
    assert "API_KEY" not in piped and "sk-abcdef" not in piped  # the label is not a column
    assert "\\x1b" in piped and "\\n" in piped and "\ufffd" in piped  # escaped, one line per row


def test_on_a_narrow_terminal_the_ages_take_their_short_form(odd_store: Path, vora: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output, "stream_is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "60")
    shown = _run(vora)
    assert " ago" not in shown and "\nagent:main:main " in shown and " 1m\n" in shown


def test_no_headers_rows_are_written_as_before(odd_store: Path, vora: Any) -> None:
    rows = _run(vora, "--no-headers").splitlines()
    table = _run(vora).splitlines()[1:-1]  # less the header and the closing line
    assert len(rows) == len(table) == 9
    assert [r.split("\t")[0] for r in rows] == [t.split("  ")[0] for t in table]
