"""`sessions list` renders its table two ways (issue 24): on a terminal each age is a `Cell`
(its short form for a narrow screen) and each line goes through `line`; piped, the ages are
their text and the escaped rows go out in one write. Where the terminal is wide enough for
every cell whole, both print the same bytes, for odd entries too: missing fields, huge and
non-integer numbers, control characters and line breaks in keys and models, lone surrogates,
non-ASCII text, secrets in fields the table does not show.

`sessions list` reads a store's rows as it reads the file (issue 24): a row that cannot be made
(a transcript path no file system holds) must not hide that the file is damaged further on. The
damaged store is skipped with its warning, as before, and the other agents are still listed.
"""

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


def test_each_cell_is_what_the_store_rules_make(state_dir: Path, vora: Any) -> None:
    """The table prints what the store helpers make of a field, on every odd type it can hold."""
    from vora_cli.cli.commands.sessions._shared import size_text
    from vora_cli.core.sessions.jsfmt import js_number, loads
    from vora_cli.core.sessions.store import (
        age_text,
        compaction_count,
        context_percent,
        context_text,
        effective_model_name,
        fresh_total,
        updated_at,
    )

    odd: list[Any] = [None, True, False, 0, -1, 7, 12_400, 2**60, 1.5, -0.0, 20000.5, "", "x", "é", "\ud800",
                      [1], {}, NOW - 90_000, -5 * 10**12]
    entries = {}
    for i in range(len(odd) * 3):
        value, other = odd[i % len(odd)], odd[(i * 7 + 3) % len(odd)]
        entries[f"agent:main:k{i:03d}"] = {
            "sessionId": f"s{i}", "updatedAt": value if i % 3 else other, "totalTokens": other,
            "totalTokensFresh": value if i % 2 else other, "contextTokens": 200_000 if i % 4 else other,
            "compactionCount": value, "modelOverride": other if i % 5 == 0 else None, "model": value,
        }
    path = write_store(state_dir, {})
    path.write_text(json.dumps(entries, indent=2, ensure_ascii=True), encoding="utf-8")
    lines = {line.split("\t")[0]: line.split("\t") for line in _run(vora, "--no-headers").splitlines()}
    assert len(lines) == len(entries)
    stored = loads(path.read_bytes())  # as vora reads it (`20000.0` an integer, `-0.0` is 0)
    for key, entry_ in stored.items():
        own = entry_["contextTokens"]
        window = own if isinstance(own, int | float) and not isinstance(own, bool) and own > 0 else None
        used = fresh_total(entry_)
        at = updated_at(entry_)
        age = NOW - at if at > 0 else None
        size = None  # no transcript exists
        expected = [age_text(age), (effective_model_name(entry_) or "-").replace("\ud800", "\ufffd"),
                    context_text(used, window, context_percent(used, window)),
                    js_number(compaction_count(entry_)), size_text(size)]
        assert lines[key][3:] == expected, (key, entry_)


GOOD = '{"ok": {"sessionId": "o", "updatedAt": 1}}'
BAD_PATH = '"k": {"sessionId": "s", "updatedAt": 1, "sessionFile": "\\ud800"}'


def _state(tmp_path: Path, main_store: str) -> list[str]:
    (tmp_path / "vora.json").write_text("{agents: {list: [{id: 'main', default: true}, {id: 'ops'}]}}")
    for agent, text in (("main", main_store), ("ops", GOOD)):
        folder = tmp_path / "agents" / agent / "sessions"
        folder.mkdir(parents=True)
        (folder / "sessions.json").write_text(text)
    return ["--state-dir", str(tmp_path)]


@pytest.mark.parametrize(("store", "why"), [
    ("{" + BAD_PATH + ', "j": {"x": 1', "Expecting ',' delimiter"),  # torn: the gateway's write cut short
    ("{" + BAD_PATH + "} trailing", "Extra data"),
])
def test_a_damaged_store_is_skipped_even_after_a_row_that_cannot_be_made(vora, tmp_path: Path, store: str,
                                                                         why: str) -> None:
    at = _state(tmp_path, store)
    for args in (("sessions", "list", "--all-agents"), ("sessions", "list", "--all-agents", "--json")):
        result = vora(*at, *args)
        assert result.exit_code == 0, result.stderr
        assert why in result.stderr and "(skipped)" in result.stderr
        assert "ok" in result.stdout and "ops" in result.stdout


@pytest.mark.parametrize("bad", ["\\ud800", "a\\u0000b.jsonl", "\\udfff.jsonl"])
def test_a_transcript_path_no_file_can_have_is_a_missing_transcript(vora, tmp_path: Path, bad: str) -> None:
    at = _state(tmp_path, "{" + BAD_PATH.replace("\\ud800", bad) + "}")
    result = vora(*at, "sessions", "list", "--all-agents")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1].split()[:2] == ["k", "main"] and "missing" in result.stdout.splitlines()[1]
    assert "ops" in result.stdout  # the other agent's store is listed too
    [row] = [r for r in json.loads(vora(*at, "sessions", "list", "--json").stdout)["sessions"] if r["key"] == "k"]
    # as any unusable `sessionFile`: the gateway's fallback, `<sessionId>.jsonl`, not there
    assert row["transcriptPath"].endswith("/agents/main/sessions/s.jsonl") and row["transcriptBytes"] is None


@pytest.mark.parametrize(("total", "window"), [(1e300, 1e-300), (1.7e308, 0.5), (10**308, 1e-10), (2**1000, 2**-1000)])
def test_a_ratio_past_what_a_float_holds_is_shown_as_the_gateway_caps_it(state_dir: Path, vora: Any,
                                                                         total: Any, window: Any) -> None:
    """Used over window overflows to Infinity: the gateway's `Math.min(999, …)` shows 999 %; vora did too
    little and stopped with an internal error in `sessions list`, `sessions show` and `doctor`."""
    write_store(state_dir, {"agent:main:big": entry("s1", totalTokens=total, contextTokens=window)})
    assert "(999%)" in _run(vora, "--state-dir", str(state_dir))
    [row] = json.loads(_run(vora, "--state-dir", str(state_dir), "--json"))["sessions"]
    assert row["contextPercent"] == 999
    shown = vora("--state-dir", str(state_dir), "sessions", "show", "agent:main:big", env=ENV)
    assert shown.exit_code == 0, shown.stderr
    doctor = vora("--state-dir", str(state_dir), "doctor", "--only", "sessions-context", env=ENV)
    assert "agent:main:big (999%)" in doctor.stdout and "unexpected" not in doctor.stderr
