"""`sessions list`'s per-row shortcuts (issue 24, second round) answer what the general helpers
answer, on odd entries too: a row's JSON, the table's row, the order of the rows, and a piped
table's lines."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from install_support import make_install
from sessions_support import write_store

from vora_cli.cli.tables import GAP, render_table
from vora_cli.core.clock import iso_or_none
from vora_cli.core.sessions.listing import (
    ROW_FIELDS,
    SessionRow,
    TableRow,
    list_sessions,
    list_sessions_table,
    row_label,
    table_values,
)
from vora_cli.core.sessions.store import (
    compaction_count,
    context_percent,
    effective_model,
    entry_string,
    finite_or_none,
    fresh_total,
    report_source,
    updated_at,
)

NOW = 1_765_000_000_000

ODD: list[Any] = [None, True, False, 0, -1, 7, 12_400, 2**60, -(2**70), 1.5, -0.0, 20000.0, math.nan, math.inf,
                  -math.inf, "", "x", "claude", "é", "\ud800", "a\ud800b", [1], {}, {"a": 1},
                  NOW - 60_000, -62_135_596_800_001, 253_402_300_800_000]
REPORTS: list[Any] = [{}, {"source": "run"}, {"source": "estimate"}, {"source": 1}, "run", [], None]
_ABSENT = object()


def _general_to_dict(row: SessionRow) -> dict[str, Any]:
    """The row's JSON from the general helpers alone (what `to_dict` wrote before its shortcuts)."""
    entry = row.entry
    model, provider = effective_model(entry)
    fresh = entry.get("totalTokensFresh")
    updated = finite_or_none(entry.get("updatedAt"))
    used = fresh_total(entry)
    return {
        "agentId": row.agent_id, "key": row.key, "kind": row.kind,
        "sessionId": entry_string(entry, "sessionId"),
        "updatedAt": iso_or_none(updated), "updatedAtMs": updated, "ageMs": row.age_ms,
        "chatType": entry_string(entry, "chatType"), "model": model, "modelProvider": provider,
        "label": row_label(entry), "totalTokens": entry.get("totalTokens"),
        "totalTokensFresh": fresh if isinstance(fresh, bool) else None,
        "contextUsed": used, "contextTokens": row.context_tokens,
        "contextPercent": context_percent(used, row.context_tokens),
        "compactionCount": compaction_count(entry),
        "transcriptPath": row.transcript_file, "transcriptBytes": row.transcript_bytes,
        "hasRunReport": report_source(entry) == "run",
    }


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON text, types too (`1` is not `1.0`, `True` is not `1`; NaN equals NaN)."""
    return json.dumps(a, default=repr) == json.dumps(b, default=repr) and \
        [type(v) for v in a.values()] == [type(v) for v in b.values()]


_values = st.sampled_from([*ODD, _ABSENT])


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@settings(max_examples=700, deadline=None)
@given(st.fixed_dictionaries({name: _values for name in ROW_FIELDS}), st.sampled_from([*REPORTS, _ABSENT]),
       st.sampled_from([None, 200_000, 1.5]), st.sampled_from([None, 0, 812]))
def test_a_rows_json_is_what_the_general_helpers_make(fields: dict[str, Any], report: Any, window: Any,
                                                      size: Any) -> None:
    entry = {k: v for k, v in fields.items() if v is not _ABSENT}
    if report is not _ABSENT:
        entry["systemPromptReport"] = report
    row = SessionRow("main", "agent:main:x", "direct", entry, "/t.jsonl", size, window, NOW)
    assert _same(row.to_dict(), _general_to_dict(row)), entry


@settings(max_examples=500, deadline=None)
@given(st.fixed_dictionaries({name: _values for name in ROW_FIELDS}), st.sampled_from([None, 200_000, 1.5]),
       st.sampled_from([None, 0, 812]))
def test_a_table_row_is_the_rows_values_of_its_columns(fields: dict[str, Any], window: Any, size: Any) -> None:
    # the text list's own shortcuts (`table_values`) answer what the JSON row holds
    entry = {k: v for k, v in fields.items() if v is not _ABSENT}
    parts = ("main", "agent:main:x", "direct", entry, "/t.jsonl", size, window, NOW)
    full = SessionRow(*parts).values()
    table = table_values(*parts)
    expected = {name: getattr(full, name) for name in TableRow._fields}
    assert _same(table._asdict(), expected), entry


def test_rows_are_newest_first_then_by_key_then_in_store_order(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text('{ agents: { list: [{ id: "a", default: true }, { id: "b" }] } }\n')
    odd_times: list[Any] = [NOW, NOW, 1.5, True, "2025-01-01", None, -5, NOW - 1, 2**60, 0]
    for agent in ("a", "b"):
        write_store(state, {f"k{i % 4}{'x' * (i % 3)}": {"sessionId": f"{agent}{i}", "updatedAt": at}
                            for i, at in enumerate(odd_times)}, agent=agent)
        # the same key in both stores (a shared key): store order decides between them
        write_store(state, {**json.loads((state / "agents" / agent / "sessions" / "sessions.json").read_text()),
                            "agent:shared:main": {"sessionId": f"{agent}-shared", "updatedAt": NOW}}, agent=agent)
    result = list_sessions(make_install(state, now_ms=NOW), all_agents=True)
    expected = sorted(sorted(_store_order(state), key=lambda r: r.key), key=lambda r: updated_at(r.entry),
                      reverse=True)
    assert [(r.key, r.sessionId) for r in result.rows] == [(r.key, r.entry["sessionId"]) for r in expected]
    # the text list: the same rows in the same order, its columns only
    table = list_sessions_table(make_install(state, now_ms=NOW), all_agents=True)
    assert list(table.rows) == [TableRow(*(getattr(r, name) for name in TableRow._fields)) for r in result.rows]


def _store_order(state: Path) -> list[SessionRow]:
    """The rows in the order the stores hold them (agent a's store, then b's)."""
    rows = []
    for agent in ("a", "b"):
        entries = json.loads((state / "agents" / agent / "sessions" / "sessions.json").read_text())
        rows += [SessionRow(agent, key, "direct", entry, None, None, None, NOW) for key, entry in entries.items()]
    return rows


def _general_lines(headers: list[str], rows: list[list[str]], widths: list[int]) -> list[str]:
    line = GAP.join(f"{{{c}:<{w}}}" for c, w in enumerate(widths))
    return [line.format(*row).rstrip() for row in [headers, *rows]]


_cell = st.text(alphabet=" ab\u00e9\u4e2d", max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(_cell, min_size=n, max_size=n), max_size=12)))
def test_a_piped_table_lays_out_as_one_format_per_row(rows: list[list[str]]) -> None:
    columns = len(rows[0]) if rows else 2
    headers = [f"h{c}" for c in range(columns)]
    lines = render_table(headers, rows, width=None)
    widths = [max(len(r[c]) for r in [[h.upper() for h in headers], *rows]) for c in range(columns)]
    assert lines == _general_lines([h.upper() for h in headers], rows, widths)


def test_an_empty_piped_table_is_its_headers_or_nothing() -> None:
    assert render_table(["key"], [], width=None) == ["KEY"]
    assert render_table(["key"], [], width=None, show_headers=False) == []
