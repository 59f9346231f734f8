"""Issue 23, "Terminals": every table at 80 columns keeps what identifies a row and what the
operator decides on whole (docs/terminal.md, "Tables"), and `devices approve` takes the short
request id the table shows.

`wrap_words` answers a line that fits without textwrap: the same lines textwrap gives, for any
text, indent and width (textwrap is the oracle).
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from pathlib import Path

import pytest
from devices_support import MIN, NOW, paired, read_store, request, write_store
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pty_support import run_with_pty

from tests.conftest import EXAMPLES, REPO
from vora_cli.cli.tables import ELLIPSIS, GAP, Cell, render_table
from vora_cli.cli.wrapping import wrap_words
from vora_cli.core.devices.rules import unique_prefixes

pytestmark = pytest.mark.usefixtures("pinned_clock")

UUIDS = ["9e8927e7-92a8-47ab-b464-03cc526ac7a8", "a53a8cf8-214d-4ed3-8e28-cf443fb8a872"]


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stdout counts as an 80-column terminal (NO_COLOR stays set: no escape codes to strip)."""
    monkeypatch.setattr("vora_cli.cli.output.stream_is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "80")


def _cells(line: str) -> list[str]:
    return re.split(r"\s{2,}", line.strip())


# -- the layout rules -------------------------------------------------------------------------------

def test_a_table_that_fits_is_printed_whole_short_forms_unused() -> None:
    rows = [[Cell("a53a8cf8-214d-4ed3-8e28-cf443fb8a872", "a53a8cf8"), "phone", "3m"]]
    lines = render_table(["request", "device", "left"], rows, width=80)
    assert _cells(lines[1]) == ["a53a8cf8-214d-4ed3-8e28-cf443fb8a872", "phone", "3m"]


def test_short_forms_come_before_any_cut_and_whole_columns_are_never_cut() -> None:
    headers = ["id", "name", "decision", "note", "ip", "path"]
    rows = [[Cell("x" * 40, "x" * 8), "laptop", "scope upgrade", "n" * 30, "192.168.100.200", "/p" * 30]]
    lines = render_table(headers, rows, width=60, keep=2, whole={2})
    cells = _cells(lines[1])
    assert cells[:3] == ["x" * 8, "laptop", "scope upgrade"]
    assert all(len(line) <= 60 for line in lines)
    # a short value (an address) is whole or absent; a long free text shrinks, ending in …
    assert "192.168.100.200" in lines[1] or "IP" not in lines[0]
    assert any(c.endswith(ELLIPSIS) and len(c) >= 10 for c in cells[3:])


def test_an_informative_column_that_does_not_fit_is_skipped_not_the_next_ones() -> None:
    headers = ["id", "kind", "ip", "age"]
    rows = [["r1", "new device", "203.0.113.77", "5s"]]
    lines = render_table(headers, rows, width=24, keep=1, whole={1})
    assert lines[0].split() == ["ID", "KIND", "AGE"] and _cells(lines[1]) == ["r1", "new device", "5s"]


def test_when_even_the_decisive_columns_do_not_fit_the_rightmost_goes_first() -> None:
    lines = render_table(["id", "a", "b"], [["r1", "a" * 10, "b" * 10]], width=16, keep=1, whole={1, 2})
    assert lines[0].split() == ["ID", "A"] and ELLIPSIS not in "".join(lines)


_cell = st.text(alphabet=" ab\u00e9\u4e2d", max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(_cell, min_size=n, max_size=n), max_size=12)))
def test_a_piped_table_lays_out_as_one_format_per_row(rows: list[list[str]]) -> None:
    columns = len(rows[0]) if rows else 2
    headers = [f"H{c}" for c in range(columns)]
    widths = [max(len(r[c]) for r in [headers, *rows]) for c in range(columns)]
    line = GAP.join(f"{{{c}:<{w}}}" for c, w in enumerate(widths))
    assert render_table(headers, rows, width=None) == [line.format(*row).rstrip() for row in [headers, *rows]]


def test_an_empty_piped_table_is_its_headers_or_nothing() -> None:
    assert render_table(["key"], [], width=None) == ["KEY"]
    assert render_table(["key"], [], width=None, show_headers=False) == []


# -- the pending requests and paired devices --------------------------------------------------------

def _upgrade_store(state_dir: Path) -> None:
    laptop = paired("laptop", label="ops-laptop", scopes=["operator.read", "operator.write"])
    upgrade = request("laptop", scopes=["operator.admin"], platform="macos 15.2", ts=NOW - 20_000,
                      request_id=UUIDS[0])
    new = request("phone", ts=NOW - 2 * MIN, request_id=UUIDS[1])
    laptop["tokens"]["operator"]["rotatedAtMs"] = NOW - 5 * MIN
    write_store(state_dir, [upgrade, new], [laptop])


def test_pending_requests_at_80_columns_keep_what_the_operator_decides_on(vora, state_dir: Path, terminal) -> None:
    _upgrade_store(state_dir)
    out = vora("devices", "list").stdout.splitlines()
    assert all(len(line) <= 80 for line in out)
    header = out.index("Pending requests (2)") + 1
    assert out[header].split()[:6] == ["REQUEST", "DEVICE", "KIND", "ROLES", "SCOPES", "AGE"]
    assert "LEFT" in out[header].split()
    upgrade = _cells(out[header + 1])
    assert upgrade[:5] == ["9e8927e7", "ops-laptop", "scope upgrade", "operator", "+operator.admin"]
    assert upgrade[-1] == "4m 40s"  # time left, whole
    assert _cells(out[header + 2])[:5] == ["a53a8cf8", "phone", "new device", "operator", "operator.read"]
    assert ELLIPSIS not in "\n".join(out[header:header + 3])


def test_paired_devices_show_the_rotation_not_the_first_token(vora, state_dir: Path, terminal) -> None:
    _upgrade_store(state_dir)
    out = vora("devices", "list", "--paired").stdout.splitlines()
    assert all(len(line) <= 80 for line in out)
    assert out[1].split()[:4] == ["ID", "DEVICE", "SCOPES", "TOKENS"]
    assert _cells(out[2])[2:4] == ["operator.write", "operator: active, rotated 5m ago"]
    wide = vora("devices", "list", "--paired", env={"COLUMNS": "300"})
    assert "operator: active, rotated 5m ago, used 24h ago" in wide.stdout
    assert "created 30d ago" not in wide.stdout


def test_the_pending_table_on_a_real_80_column_terminal(state_dir: Path) -> None:
    _upgrade_store(state_dir)
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(REPO)}
    code, _piped, shown = run_with_pty([sys.executable, "-m", "vora_cli", "devices", "list", "--pending"], env)
    lines = [line for line in shown.replace("\r\n", "\n").splitlines() if line.strip()]
    assert code == 0 and all(len(line) <= 80 for line in lines)
    assert _cells(lines[2])[:5] == ["9e8927e7", "ops-laptop", "scope upgrade", "operator",
                                    "+operator.admin"]
    assert "Approve with: vora devices approve 9e8927e7  (or --device ID, or --latest)" in lines


def test_piped_the_table_keeps_every_id_whole_for_awk(vora, state_dir: Path) -> None:
    _upgrade_store(state_dir)
    rows = vora("devices", "list", "--pending", "--no-headers").stdout.splitlines()
    assert [row.split()[0] for row in rows] == UUIDS
    assert rows[0].split("\t")[-1] == "platform: macos 15.1 -> macos 15.2"  # --no-headers: tab-separated


# -- the short id works ------------------------------------------------------------------------------

def test_approve_takes_the_unique_prefix_the_table_shows(vora, state_dir: Path) -> None:
    _upgrade_store(state_dir)
    result = vora("devices", "approve", "a53a8cf8", "--json", "--yes")
    assert result.exit_code == 0, result.stderr
    assert result.json()["requestId"] == UUIDS[1]
    pending, paired_devices = read_store(state_dir)
    assert UUIDS[1] not in pending and len(paired_devices) == 2


def test_a_prefix_of_two_requests_is_refused_and_nothing_is_written(vora, state_dir: Path) -> None:
    twins = ["5b2e8f10-93c4-4d7a-a1e6-0f9b3c7d2e58", "5b2e8f10-1111-4222-8333-444455556666"]
    write_store(state_dir, [request("phone", request_id=twins[0]), request("tablet", request_id=twins[1])], [])
    before = (state_dir / "devices" / "pending.json").read_bytes()
    result = vora("devices", "reject", "5b2e8f10")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: '5b2e8f10' is the start of 2 request ids in devices/pending.json: {twins[1]}, {twins[0]}",
        "hint: give more characters of the request id ('vora devices list --pending' shows them)",
    ]
    assert (state_dir / "devices" / "pending.json").read_bytes() == before
    assert sorted(unique_prefixes(twins).values()) == ["5b2e8f10-1", "5b2e8f10-9"]  # what a table shows


def test_a_prefix_of_an_expired_request_says_it_expired(vora, state_dir: Path) -> None:
    write_store(state_dir, [request("phone", ts=NOW - 9 * MIN, request_id=UUIDS[1])], [])
    result = vora("devices", "approve", "a53a8cf8", "--yes")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: request {UUIDS[1]} of device ")
    assert "expired 4m ago" in result.stderr


def test_a_prefix_shorter_than_8_characters_is_no_request_id(vora, state_dir: Path) -> None:
    write_store(state_dir, [request("phone", request_id=UUIDS[1])], [])
    result = vora("devices", "approve", "a53a")
    assert result.exit_code == 1 and "request a53a was never seen" in result.stderr


# -- the other tables -------------------------------------------------------------------------------

def test_sessions_list_at_80_columns_keeps_the_context_used(vora, terminal) -> None:
    out = vora("--state-dir", str(EXAMPLES / "vora"), "sessions", "list").stdout.splitlines()
    assert all(len(line) <= 80 for line in out)
    assert out[0].split() == ["KEY", "AGENT", "KIND", "AGE", "CONTEXT"]
    assert _cells(out[1])[0] == "agent:main:main" and _cells(out[1])[4] == "14k/32k (45%)"
    assert re.fullmatch(r"\d+d", _cells(out[1])[3])  # `367d ago` said in fewer letters
    assert ELLIPSIS not in "\n".join(out)


TEXT = st.lists(st.sampled_from(["a", "bc", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "é", "\u00a0", "\u3000", "\x1c",
                                 "\x85", "\u2028", "--fix", "/p/q"]), max_size=20).map("".join)


def _textwrap(text: str, width: int, indent: str, hanging: str | None) -> list[str]:
    if not text.strip():
        return [indent.rstrip()] if indent else [""]
    lines = textwrap.wrap(text, max(width, len(indent) + 1), initial_indent=indent,
                          subsequent_indent=indent if hanging is None else hanging,
                          break_long_words=False, break_on_hyphens=False)
    return lines or [indent]


@settings(max_examples=300, deadline=None)
@example("a \xa0", 40, "", None).via("a trailing Unicode space after a blank (review)")
@example("a \u3000", 40, " ", "    ").via("the same with an indent")
@given(TEXT, st.integers(0, 40), st.sampled_from(["", " ", "  - "]), st.sampled_from([None, "    "]))
def test_the_same_lines_as_textwrap(text: str, width: int, indent: str, hanging: str | None) -> None:
    assert wrap_words(text, width, indent=indent, hanging=hanging) == _textwrap(text, width, indent, hanging)
