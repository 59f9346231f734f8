"""The context spec, rule by rule, with hand-computed numbers (spec/context.md).

Marker lengths used below, counted by hand from the spec's marker text:
``"\\n[...truncated, read NAME for full content...]\\n…(truncated NAME: kept H+T chars of N)…\\n"``
is 2 + 41 + len(NAME) + 14 + len(NAME) + len("H+T") + len(N) ... e.g. TOOLS.md 14000+4000/54210
→ 106; AGENTS.md 70+20/271 → 101; AGENTS.md 210+60/1000 → 103; AGENTS.md 700+200/1500 → 104.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vora_cli.core.agents import Agents
from vora_cli.core.context.budget import clamp_to_budget, injected_text, trim_bootstrap_text
from vora_cli.core.context.caps import Caps, resolve_caps
from vora_cli.core.context.files import bootstrap_file_names
from vora_cli.core.context.report import build_context_report
from vora_cli.core.context.skills import load_skills, parse_front_matter
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.text import js_trim_end, utf16_len, utf16_slice

EMOJI = "\U0001f600"  # 😀: 2 UTF-16 units
ALL = ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md"]


def caps(max_chars: int = 20_000, total: int = 150_000) -> Caps:
    return Caps(max_chars, "default", total, "default")


def ws(tmp_path: Path, **files: str | bytes) -> Path:
    root = tmp_path / "ws"
    root.mkdir(exist_ok=True)
    for name, body in files.items():
        name = name.replace("_", ".")
        if isinstance(body, bytes):
            (root / name).write_bytes(body)
        else:
            (root / name).write_bytes(body.encode("utf-8", "surrogatepass"))
    return root


def report(root: Path, c: Caps | None = None, session: str = "main"):  # type: ignore[no-untyped-def]
    return build_context_report(root, c or caps(), session=session, skills=None)


def file_of(rep, name: str):  # type: ignore[no-untyped-def]
    return next(f for f in rep.files if f.name == name)


# --- UTF-16 and trimEnd -------------------------------------------------------------------


def test_lengths_are_utf16_units() -> None:
    assert utf16_len("abc") == 3
    assert utf16_len(EMOJI) == 2
    assert utf16_len("漢字") == 2
    assert utf16_slice("a" + EMOJI + "b", 0, 2) == "a\ud83d"
    assert utf16_slice("a" + EMOJI + "b", 2, 4) == "\ude00b"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("abc\u00a0", "abc"),
        ("abc\u3000", "abc"),
        ("abc\ufeff", "abc"),  # Python's rstrip keeps U+FEFF
        ("abc\x1c", "abc\x1c"),  # Python's rstrip removes U+001C-U+001F; JS does not
        ("abc\x1f", "abc\x1f"),
        ("abc\x85", "abc\x85"),
        ("a\r\nb\r\n\r\n", "a\r\nb"),
        ("x\u2028\u2029\u202f\u205f\u1680\u200a\t\v\f", "x"),
    ],
)
def test_trim_end_is_javascripts(text: str, expected: str) -> None:
    assert js_trim_end(text) == expected


def test_trailing_whitespace_characters_at_end_of_file(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md="abc\u00a0", SOUL_md="abc\u3000", TOOLS_md="abc\ufeff", USER_md="abc\x1c")
    rep = report(root)
    assert [file_of(rep, n).raw_chars for n in ("AGENTS.md", "SOUL.md", "TOOLS.md", "USER.md")] == [
        3,
        3,
        3,
        4,
    ]


def test_crlf_file_counts_carriage_returns(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md="line one\r\nline two\r\n\r\n")
    f = file_of(report(root), "AGENTS.md")
    assert (f.raw_chars, f.injected_chars, f.status) == (18, 18, "OK")


# --- per-file trim --------------------------------------------------------------------------


def test_tools_md_example_from_the_spec(tmp_path: Path) -> None:
    root = ws(tmp_path, TOOLS_md="x" * 54_210)
    f = file_of(report(root), "TOOLS.md")
    assert (f.status, f.raw_chars, f.injected_chars) == ("TRUNCATED", 54_210, 18_108)
    assert (f.raw_tokens, f.injected_tokens) == (13_553, 4_527)
    assert f.causes == ("max/file",)
    text = injected_text(root, caps(), name="TOOLS.md")
    assert text == (
        "x" * 14_000
        + "\n\n[...truncated, read TOOLS.md for full content...]\n"
        + "…(truncated TOOLS.md: kept 14000+4000 chars of 54210)…\n\n"
        + "x" * 4_000
    )


def test_cjk_text_counts_one_unit_per_character(tmp_path: Path) -> None:
    root = ws(tmp_path, TOOLS_md="漢" * 30_000)
    f = file_of(report(root), "TOOLS.md")
    # 14,000 + 4,000 + 2 + 106 (marker "kept 14000+4000 chars of 30000" has the same digits count)
    assert (f.raw_chars, f.injected_chars) == (30_000, 18_108)


def test_file_exactly_at_cap_is_ok_and_one_over_is_truncated(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md="a" * 2000, SOUL_md="b" * 2001)
    rep = report(root, caps(max_chars=2000))
    a, s = file_of(rep, "AGENTS.md"), file_of(rep, "SOUL.md")
    assert (a.status, a.injected_chars, a.causes) == ("OK", 2000, ())
    # head 1400 + "\n" + marker + "\n" + tail 400
    marker = "\n[...truncated, read SOUL.md for full content...]\n…(truncated SOUL.md: kept 1400+400 chars of 2001)…\n"
    assert len(marker) == 101
    assert (s.status, s.injected_chars, s.causes) == ("TRUNCATED", 1903, ("max/file",))


def test_small_cap_trim_can_inject_more_than_raw_and_then_status_is_ok(tmp_path: Path) -> None:
    # Spec § Status: TRUNCATED only when injected < raw. At L = 100 a 101-unit file becomes
    # head 70 + 1 + marker 97 + 1 + tail 20 = 189 units: longer than raw, so OK by the rule.
    root = ws(tmp_path, SOUL_md="b" * 101)
    s = file_of(report(root, caps(max_chars=100)), "SOUL.md")
    assert (s.status, s.raw_chars, s.injected_chars, s.causes) == ("OK", 101, 189, ())


def test_emoji_straddling_the_head_cut_is_split_like_javascript() -> None:
    text = "a" * 69 + EMOJI + "b" * 200  # 271 units; head 70 ends on the high surrogate
    r = trim_bootstrap_text(text, "AGENTS.md", 100)
    assert r.truncated and r.original_chars == 271
    assert r.content.startswith("a" * 69 + "\ud83d\n\n[...truncated")
    assert utf16_len(r.content) == 70 + 1 + 101 + 1 + 20


def test_emoji_straddling_the_tail_cut_is_split_like_javascript() -> None:
    text = "a" * 200 + EMOJI + "b" * 19  # 221 units; last 20 start on the low surrogate
    r = trim_bootstrap_text(text, "AGENTS.md", 100)
    assert r.content.endswith("\n\ude00" + "b" * 19)
    marker = "\n[...truncated, read AGENTS.md for full content...]\n…(truncated AGENTS.md: kept 70+20 chars of 221)…\n"
    assert utf16_len(r.content) == 70 + 1 + len(marker) + 1 + 20 == 193


def test_tiny_limit_keeps_whole_text_after_marker_like_js_slice_minus_zero() -> None:
    # L = 4: head 2, tail floor(0.8) = 0, and JavaScript's t.slice(-0) is the whole string.
    r = trim_bootstrap_text("abcdefghij", "AGENTS.md", 4)
    assert r.content.startswith("ab\n\n[...truncated") and r.content.endswith("…\n\nabcdefghij")
    assert "kept 2+0 chars of 10" in r.content


# --- budget clamp -----------------------------------------------------------------------------


def test_clamp_appends_ellipsis_and_never_splits_a_pair() -> None:
    assert clamp_to_budget("abcdef", 6) == ("abcdef", 6)
    assert clamp_to_budget("abcdef", 5) == ("abcd…", 4)
    assert clamp_to_budget("ab" + EMOJI + "cd", 4) == ("ab…", 2)  # cut at 3 falls inside 😀
    assert clamp_to_budget("ab" + EMOJI + "cd", 5) == ("ab" + EMOJI + "…", 4)
    assert clamp_to_budget("abcdef", 3) == ("abc", 3)  # <= 3: plain cut, no ellipsis
    assert clamp_to_budget("ab" + EMOJI, 3) == ("ab", 2)
    assert clamp_to_budget("abc", 0) == ("", 0)


def test_budget_cut_inside_emoji_in_tail_and_missing_marker_takes_the_rest(tmp_path: Path) -> None:
    # total 1000: AGENTS.md 1500 units → head 700, tail 200, marker 104: 700+1+104+1+200 = 1006.
    # Clamp keeps 999 units; unit 999 of the content is tail unit 193 = t[1493], the low half
    # of the emoji at t[1492:1494] → cut at 998, append "…" → 999 injected, 1 left.
    root = ws(tmp_path, AGENTS_md="a" * 1492 + EMOJI + "b" * 6)
    rep = report(root, caps(total=1000))
    a, soul, tools = file_of(rep, "AGENTS.md"), file_of(rep, "SOUL.md"), file_of(rep, "TOOLS.md")
    assert (a.status, a.raw_chars, a.injected_chars) == ("TRUNCATED", 1500, 999)
    assert a.causes == ()  # raw 1500 <= 20000, injected total 999 < 1000
    assert (soul.status, soul.injected_chars) == ("MISSING", 1)  # "[" — the one unit left
    assert (tools.status, tools.injected_chars) == ("MISSING", 0)  # budget exhausted: stop
    assert injected_text(root, caps(total=1000), name="SOUL.md") == "["
    assert injected_text(root, caps(total=1000), name="AGENTS.md").endswith("b" * 0 + "a…")


def test_total_cap_clamps_with_ellipsis(tmp_path: Path) -> None:
    # total 300: head 210 + 1 + marker 103 + 1 + tail 60 = 375 > 300 → 299 units + "…".
    root = ws(tmp_path, AGENTS_md="a" * 1000, SOUL_md="soul")
    rep = report(root, caps(total=300))
    a, s = file_of(rep, "AGENTS.md"), file_of(rep, "SOUL.md")
    assert (a.injected_chars, a.causes) == (300, ("max/total",))
    assert (s.status, s.injected_chars, s.causes) == ("TRUNCATED", 0, ("max/total",))
    # 299 = 210 head + "\n" + the marker's first 88 units, which end in "…of 1000": "... c"
    text = injected_text(root, caps(total=300), name="AGENTS.md")
    assert (
        text
        == "a" * 210
        + "\n\n[...truncated, read AGENTS.md for full content...]\n…(truncated AGENTS.md: kept 210+60 c…"
    )
    assert rep.totals.injected_chars == 300


def test_later_file_skipped_when_under_64_left(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md="a" * 150, SOUL_md="b" * 10, TOOLS_md="c")
    rep = report(root, caps(total=200))  # 200 - 150 = 50 < 64
    assert file_of(rep, "AGENTS.md").injected_chars == 150
    soul, tools = file_of(rep, "SOUL.md"), file_of(rep, "TOOLS.md")
    assert (soul.status, soul.raw_chars, soul.injected_chars) == ("TRUNCATED", 10, 0)
    assert (tools.status, tools.injected_chars) == ("TRUNCATED", 0)
    assert file_of(rep, "HEARTBEAT.md").injected_chars == 0  # missing after the stop: nothing
    assert any("remaining bootstrap budget is 50 chars" in w.text for w in rep.warnings)


def test_missing_file_under_64_still_gets_its_marker_cut_to_budget(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md="a" * 150, TOOLS_md="c")
    rep = report(root, caps(total=200))
    soul = file_of(rep, "SOUL.md")
    assert (soul.status, soul.injected_chars) == ("MISSING", 50)
    expected = f"[MISSING] Expected at: {root / 'SOUL.md'}"[:50]
    assert injected_text(root, caps(total=200), name="SOUL.md") == expected
    assert file_of(rep, "TOOLS.md").injected_chars == 0


def test_missing_files_eat_the_budget(tmp_path: Path) -> None:
    root = ws(tmp_path, BOOTSTRAP_md="z" * 900)
    markers = [len("[MISSING] Expected at: ") + len(str(root / n)) for n in ALL[:6]]
    total = 1000
    rep = report(root, caps(total=total))
    for name, m in zip(ALL[:6], markers, strict=True):
        f = file_of(rep, name)
        assert (f.status, f.raw_chars, f.injected_chars) == ("MISSING", 0, m)
    left = total - sum(markers)
    boot = file_of(rep, "BOOTSTRAP.md")
    assert left >= 64
    # 900 units at L = left (< 900) gets the marker and is clamped to exactly what is left
    assert boot.injected_chars == left and boot.status == "TRUNCATED"
    # missing files do not count in the totals
    assert rep.totals.injected_chars == boot.injected_chars
    assert rep.totals.raw_chars == 900


def test_empty_and_whitespace_only_files_use_no_budget(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md="", SOUL_md=" \n\t\u3000\n", TOOLS_md="x" * 150)
    rep = report(root, caps(total=150))
    assert [(f.status, f.raw_chars, f.injected_chars) for f in rep.files[:3]] == [
        ("OK", 0, 0),
        ("OK", 0, 0),
        ("OK", 150, 150),
    ]
    assert injected_text(root, caps(), name="AGENTS.md") == ""


# --- which files, missing rules -----------------------------------------------------------------


def test_memory_file_prefers_upper_case_and_is_never_missing(tmp_path: Path) -> None:
    root = ws(tmp_path)
    assert bootstrap_file_names(root) == ALL
    (root / "memory.md").write_text("m")
    assert bootstrap_file_names(root) == [*ALL, "memory.md"]
    (root / "MEMORY.md").write_text("M")
    if (root / "memory.md").samefile(root / "MEMORY.md"):
        pytest.skip("case-insensitive file system")
    assert bootstrap_file_names(root) == [*ALL, "MEMORY.md"]
    assert injected_text(root, caps(), name="MEMORY.md") == "M"


@pytest.mark.parametrize("session", ["subagent", "cron"])
def test_subagent_and_cron_sessions_keep_five_files(tmp_path: Path, session: str) -> None:
    root = ws(tmp_path, MEMORY_md="mem", HEARTBEAT_md="hb")
    assert bootstrap_file_names(root, session) == [
        "AGENTS.md",
        "SOUL.md",
        "TOOLS.md",
        "IDENTITY.md",
        "USER.md",
    ]
    assert [f.name for f in report(root, session=session).files] == bootstrap_file_names(root, session)


def test_unknown_session_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(VoraError) as e:
        bootstrap_file_names(tmp_path, "batch")
    assert e.value.code == "usage"


def test_symlink_inside_workspace_is_read_and_outside_is_missing(tmp_path: Path) -> None:
    root = ws(tmp_path)
    (root / "docs").mkdir()
    (root / "docs" / "agents.md").write_text("inside")
    (root / "AGENTS.md").symlink_to(root / "docs" / "agents.md")
    outside = tmp_path / "outside.md"
    outside.write_text("outside")
    (root / "SOUL.md").symlink_to(outside)
    (root / "TOOLS.md").symlink_to(root / "nowhere.md")
    rep = report(root)
    assert (file_of(rep, "AGENTS.md").status, file_of(rep, "AGENTS.md").raw_chars) == ("OK", 6)
    assert (file_of(rep, "SOUL.md").status, file_of(rep, "SOUL.md").missing_reason) == (
        "MISSING",
        "symlink_outside_workspace",
    )
    assert file_of(rep, "TOOLS.md").missing_reason == "absent"


def test_workspace_reached_through_a_symlink(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md="x")
    link = tmp_path / "link"
    link.symlink_to(root)
    (root / "docs").mkdir()
    (root / "docs" / "s.md").write_text("soul")
    (root / "SOUL.md").symlink_to(root / "docs" / "s.md")
    rep = report(link)
    assert file_of(rep, "SOUL.md").status == "OK"
    assert rep.workspace == link


def test_hard_linked_file_is_missing(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md="shared")
    os.link(root / "AGENTS.md", tmp_path / "other.md")
    f = file_of(report(root), "AGENTS.md")
    assert (f.status, f.missing_reason, f.raw_chars) == ("MISSING", "hardlinked", 0)


def test_file_over_two_mib_is_missing_and_exactly_two_mib_is_read(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md=b"a" * 2_097_152, SOUL_md=b"a" * 2_097_153)
    rep = report(root)
    a, s = file_of(rep, "AGENTS.md"), file_of(rep, "SOUL.md")
    assert (a.status, a.raw_chars, a.injected_chars) == ("TRUNCATED", 2_097_152, 14_000 + 4_000 + 2 + 110)
    assert (s.status, s.missing_reason) == ("MISSING", "too_large")


def test_unreadable_directory_named_like_a_file_is_missing(tmp_path: Path) -> None:
    root = ws(tmp_path)
    (root / "AGENTS.md").mkdir()
    assert file_of(report(root), "AGENTS.md").missing_reason == "unreadable"


def test_invalid_utf8_becomes_replacement_characters(tmp_path: Path) -> None:
    # \xff → 1 U+FFFD; \xf0\x9f\x98 (a cut 4-byte sequence) → 1 U+FFFD (WHATWG maximal subpart);
    # \xed\xa0\x80 (an encoded surrogate) → 3 U+FFFD.
    root = ws(tmp_path, AGENTS_md=b"ab\xff\xf0\x9f\x98cd\xed\xa0\x80")
    assert injected_text(root, caps(), name="AGENTS.md") == "ab\ufffd\ufffdcd\ufffd\ufffd\ufffd"
    assert file_of(report(root), "AGENTS.md").raw_chars == 9


def _whatwg_utf8_decode(data: bytes) -> str:
    """The WHATWG Encoding Standard's UTF-8 decoder, written out (§ 9.1.1)."""
    out: list[str] = []
    cp = needed = seen = 0
    lower, upper = 0x80, 0xBF
    i = 0
    while i < len(data):
        b = data[i]
        if needed == 0:
            i += 1
            if b <= 0x7F:
                out.append(chr(b))
            elif 0xC2 <= b <= 0xDF:
                needed, cp = 1, b & 0x1F
            elif 0xE0 <= b <= 0xEF:
                if b == 0xE0:
                    lower = 0xA0
                if b == 0xED:
                    upper = 0x9F
                needed, cp = 2, b & 0xF
            elif 0xF0 <= b <= 0xF4:
                if b == 0xF0:
                    lower = 0x90
                if b == 0xF4:
                    upper = 0x8F
                needed, cp = 3, b & 0x7
            else:
                out.append("\ufffd")
            continue
        if not lower <= b <= upper:
            cp = needed = seen = 0
            lower, upper = 0x80, 0xBF
            out.append("\ufffd")
            continue  # reprocess b
        i += 1
        lower, upper = 0x80, 0xBF
        cp = (cp << 6) | (b & 0x3F)
        seen += 1
        if seen == needed:
            out.append(chr(cp))
            cp = needed = seen = 0
    if needed:
        out.append("\ufffd")
    return "".join(out)


@given(st.binary(max_size=40))
def test_python_replace_decoding_matches_the_whatwg_decoder(data: bytes) -> None:
    assert data.decode("utf-8", "replace") == _whatwg_utf8_decode(data)


# --- caps ---------------------------------------------------------------------------------------


def test_caps_defaults_config_floor_and_flags() -> None:
    assert resolve_caps({}, None, None) == Caps(20_000, "default", 150_000, "default")
    cfg = {"agents": {"defaults": {"bootstrapMaxChars": 12_345.9, "bootstrapTotalMaxChars": 50_000}}}
    assert resolve_caps(cfg, None, None) == Caps(12_345, "config", 50_000, "config")
    assert resolve_caps(cfg, 100, None) == Caps(100, "flag", 50_000, "config")
    # total does not grow with maxChars
    assert (
        resolve_caps({"agents": {"defaults": {"bootstrapMaxChars": 500_000}}}, None, None).total_max_chars
        == 150_000
    )
    for bad in (0, -5, float("inf"), float("nan"), True, "3000", None):
        c = resolve_caps({"agents": {"defaults": {"bootstrapMaxChars": bad}}}, None, None)
        assert (c.max_chars, c.max_chars_source) == (20_000, "default")
    # 0.5 is a finite number > 0; floored it is 0 (then each file gets max(1, 0) = 1)
    assert resolve_caps({"agents": {"defaults": {"bootstrapMaxChars": 0.5}}}, None, None).max_chars == 0
    with pytest.raises(VoraError) as e:
        resolve_caps({}, 0, None)
    assert e.value.code == "usage"


# --- which workspace -----------------------------------------------------------------------------


def _ws(
    cfg: dict, tmp_path: Path, agent: str | None = None, profile: str | None = None, flag: str | None = None
):  # type: ignore[no-untyped-def,type-arg]
    paths = VoraPaths(home=tmp_path / "home", state_dir=tmp_path / "state", state_dir_source="flag",
                      config_path=tmp_path / "cfgdir" / "vora.json", config_source="flag", profile=profile)
    return Agents(cfg).choose_workspace(paths, agent=agent, flag=flag)


def test_workspace_resolution_order(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert _ws({}, tmp_path).path == home / ".vora" / "workspace"
    assert _ws({}, tmp_path, profile="p").path == home / ".vora" / "workspace-p"
    assert _ws({}, tmp_path, profile="default").path == home / ".vora" / "workspace"
    assert _ws({}, tmp_path, flag="~/w").path == home / "w"
    assert _ws({}, tmp_path, flag="~/w").source == "flag"
    cfg = {
        "agents": {
            "defaults": {"workspace": "~/shared"},
            "list": [{"id": "main"}, {"id": "ops", "default": True, "workspace": "ops-ws"}, {"id": "bot"}],
        }
    }
    ops = _ws(cfg, tmp_path)
    assert (ops.agent_id, ops.path, ops.source) == ("ops", tmp_path / "cfgdir" / "ops-ws", "agent")
    assert _ws(cfg, tmp_path, agent="bot").path == home / "shared" / "bot"
    assert _ws(cfg, tmp_path, agent="main").path == home / "shared" / "main"
    del cfg["agents"]["defaults"]  # type: ignore[attr-defined]
    assert _ws(cfg, tmp_path, agent="bot").path == tmp_path / "state" / "workspace-bot"
    cfg2 = {"agents": {"defaults": {"workspace": "/abs/ws"}, "list": [{"id": "a"}, {"id": "b"}]}}
    assert _ws(cfg2, tmp_path).path == Path("/abs/ws")  # first entry is the default agent
    with pytest.raises(VoraError) as e:
        _ws(cfg2, tmp_path, agent="zzz")
    assert e.value.code == "agent_not_found"


# --- report details -----------------------------------------------------------------------------


def test_dropped_lines_and_headings_of_a_truncated_file(tmp_path: Path) -> None:
    # 100 lines of 9 chars joined by "\n": 999 units; line k starts at unit 10 * (k - 1).
    lines = [f"line {i:04d}" if i % 20 else f"## H{i:05d}" for i in range(1, 101)]
    lines[49] = "# Deploy "  # line 50
    root = ws(tmp_path, AGENTS_md="\n".join(lines))
    rep = report(root, caps(max_chars=100))
    f = file_of(rep, "AGENTS.md")
    # head 70 units: lines 1..7 (line 7 is units 60..69 with its newline); tail 20 units:
    # 979..998, and line 98 starts at 970 → lines 98 (partly) to 100 kept; 70..978 dropped.
    assert [(r.start, r.end) for r in f.kept_lines] == [(1, 7), (98, 100)]
    [dropped] = f.dropped_lines
    assert (dropped.start, dropped.end) == (8, 98)
    assert dropped.headings == ("## H00020", "## H00040", "# Deploy", "## H00060", "## H00080")


def test_headings_inside_code_fences_are_not_headings(tmp_path: Path) -> None:
    body = "a" * 200 + "\n```sh\n# not a heading\n```\n## Real\n" + "b" * 200
    f = file_of(report(ws(tmp_path, AGENTS_md=body), caps(max_chars=100)), "AGENTS.md")
    assert f.dropped_lines[0].headings == ("## Real",)


def test_near_limit_uses_ceil_of_85_percent(tmp_path: Path) -> None:
    # ceil(101 * 0.85) = ceil(85.85) = 86
    root = ws(tmp_path, AGENTS_md="a" * 86, SOUL_md="b" * 85)
    rep = report(root, caps(max_chars=101))
    assert (file_of(rep, "AGENTS.md").near_limit, file_of(rep, "SOUL.md").near_limit) == (True, False)
    assert file_of(rep, "TOOLS.md").near_limit is False  # missing files are never near


def test_report_json_shape(tmp_path: Path) -> None:
    root = ws(tmp_path, TOOLS_md="x" * 54_210, AGENTS_md="a" * 1742)
    d = report(root).to_dict()
    assert d["caps"] == {
        "maxChars": 20_000,
        "maxCharsSource": "default",
        "totalMaxChars": 150_000,
        "totalMaxCharsSource": "default",
    }
    tools = d["files"][2]
    assert {k: tools[k] for k in ("name", "status", "rawChars", "injectedChars", "causes")} == {
        "name": "TOOLS.md",
        "status": "TRUNCATED",
        "rawChars": 54_210,
        "injectedChars": 18_108,
        "causes": ["max/file"],
    }
    assert d["totals"]["rawChars"] == 54_210 + 1742
    assert d["totals"]["injectedChars"] == 18_108 + 1742
    assert d["totals"]["truncatedFiles"] == 1
    heartbeat = d["files"][5]
    assert heartbeat["status"] == "MISSING" and heartbeat["missingReason"] == "absent"
    assert heartbeat["injectedChars"] == len(f"[MISSING] Expected at: {root / 'HEARTBEAT.md'}")


def test_preview_all_frames_each_injected_file(tmp_path: Path) -> None:
    root = ws(tmp_path, AGENTS_md="hello\n", SOUL_md="")
    text = injected_text(root, caps(), session="subagent")
    assert text.startswith("## AGENTS.md\n\nhello\n\n## TOOLS.md\n\n[MISSING] Expected at: ")
    with pytest.raises(VoraError) as e:
        injected_text(root, caps(), session="subagent", name="HEARTBEAT.md")
    assert e.value.code == "not_found"


# --- skills -------------------------------------------------------------------------------------


def skill(root: Path, folder: str, front: str, body: str = "Body\n") -> Path:
    d = root / folder
    d.mkdir(parents=True, exist_ok=True)
    (d / "SKILL.md").write_text(f"---\n{front}\n---\n{body}")
    return d / "SKILL.md"


def test_skill_block_size_is_exact(tmp_path: Path) -> None:
    home = tmp_path / "home"
    skill(home / ".agents" / "skills", "a", "description: d & e")
    rep = load_skills({}, home=home, workspace=tmp_path / "ws", config_dir=tmp_path)
    # "  <skill>" 9 + "    <name>a</name>" 18 + "    <description>d &amp; e</description>" 40
    # + "    <location>~/.agents/skills/a/SKILL.md</location>" 52 + "  </skill>" 10 + 4 newlines
    assert rep.names == ["a"] and rep.skills[0].chars == 133 and rep.total_chars == 133


def test_skill_precedence_later_root_wins_keeping_first_position(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "ws"
    extra = tmp_path / "extra"
    skill(extra, "zeta", "name: zeta\ndescription: from extra")
    skill(extra, "alpha", "description: alpha extra")
    skill(home / ".vora" / "skills", "beta", "description: managed")
    skill(work / "skills", "zz", "name: zeta\ndescription: 'from workspace'")
    cfg = {"skills": {"load": {"extraDirs": [str(extra)]}}}
    rep = load_skills(cfg, home=home, workspace=work, config_dir=tmp_path)
    assert rep.names == ["alpha", "zeta", "beta"]
    zeta = rep.skills[1]
    assert zeta.description == "from workspace" and zeta.source == "workspace"
    assert [(d.name, d.reason) for d in rep.dropped] == [("zeta", "overridden")]


def test_skill_without_description_disabled_hidden_and_oversize_are_dropped(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "ws"
    root = work / "skills"
    skill(root, "nodesc", "name: nodesc")
    skill(root, "off", "description: d")
    skill(root, "hidden", "description: d\ndisable-model-invocation: true")
    big = skill(root, "big", "description: d")
    big.write_bytes(b"---\ndescription: d\n---\n" + b"x" * (256_001 - 23))
    assert big.stat().st_size == 256_001
    exact = skill(root, "exact", "description: d")
    exact.write_bytes(b"---\ndescription: d\n---\n" + b"x" * (256_000 - 23))
    skill(root, ".dot", "description: d")
    skill(root, "node_modules", "description: d")
    cfg = {"skills": {"entries": {"off": {"enabled": False}}}}
    rep = load_skills(cfg, home=home, workspace=work, config_dir=tmp_path)
    assert rep.names == ["exact"]
    assert sorted((d.name, d.reason) for d in rep.dropped) == [
        ("big", "too_large"),
        ("hidden", "hidden"),
        ("nodesc", "no_description"),
        ("off", "disabled"),
    ]


def test_front_matter_parser() -> None:
    assert parse_front_matter('---\nname: "x y"\ndescription: it\'s # here\n---\nbody') == {
        "name": "x y",
        "description": "it's",
    }
    assert parse_front_matter("---\r\ndescription: >\r\n  one\r\n  two\r\n---\r\n") == {
        "description": "one two"
    }
    assert parse_front_matter("no front matter") == {}
    assert parse_front_matter("---\nname: x\n") == {}


@given(st.text(alphabet=st.sampled_from(["a", "\n", "漢", EMOJI]), max_size=60), st.data())
def test_unit_to_index_mapping_matches_a_plain_walk(text: str, data: st.DataObject) -> None:
    from vora_cli.core.context.lines import _index_of_unit

    n = utf16_len(text)
    if n == 0:
        return
    unit = data.draw(st.integers(0, n - 1))
    ends = [utf16_len(text[: i + 1]) for i in range(len(text))]  # units covered after char i
    expected = next(i for i, end in enumerate(ends) if end > unit)
    assert _index_of_unit(text, n, unit) == expected
