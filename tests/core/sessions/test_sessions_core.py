"""Core of `vora sessions` (spec sessions.md): agents, stores, keys, kinds, transcripts, the
context manifest and previews — without a CLI runner."""

from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from install_support import make_install
from sessions_support import Transcript, entry, text, tool_call, write_store

from vora_cli.core.agents import Agents, StoreTarget, normalize_agent_id
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import resolve_paths
from vora_cli.core.sessions import jsfmt
from vora_cli.core.sessions.listing import list_sessions
from vora_cli.core.sessions.manifest import IMAGE_CHARS, build_manifest, segment_of
from vora_cli.core.sessions.redact import make_preview, redact_text
from vora_cli.core.sessions.store import (
    Store,
    StoreError,
    age_text,
    context_percent,
    context_text,
    find_key,
    fresh_total,
    is_archive_name,
    is_checkpoint_name,
    main_key,
    parse_key,
    read_store,
    session_kind,
    transcript_path,
    updated_at,
)
from vora_cli.core.sessions.transcript import leaf_path, scan_transcript


def paths(state: Path):  # type: ignore[no-untyped-def]
    return resolve_paths(state_dir=str(state))


def h12(*pieces: str) -> str:
    return hashlib.sha256("".join(pieces).encode("utf-8")).hexdigest()[:12]


# --- agents and store paths ----------------------------------------------------------------


@pytest.mark.parametrize(("raw", "expected"), [
    ("Main", "main"), ("  ops ", "ops"), ("Ops Team!", "ops-team"), ("--x--", "x"), ("", "main"),
    ("é", "main"), ("a" * 80, "a" * 64), ("Sales/EU  West", "sales-eu-west"), (None, "main"),
])
def test_agent_ids_are_normalised(raw: Any, expected: str) -> None:
    assert normalize_agent_id(raw) == expected


def test_configured_and_default_agents() -> None:
    assert Agents({}).ids == ["main"] and Agents({}).default_id == "main"
    cfg = {"agents": {"list": [{"id": "Ops"}, {"id": "ops"}, {"id": "Sales", "default": True}]}}
    assert Agents(cfg).ids == ["ops", "sales"]
    assert Agents(cfg).default_id == "sales"
    assert Agents({"agents": {"list": [{"id": "a"}, {"id": "b"}]}}).default_id == "a"
    assert main_key({"session": {"mainKey": " Home "}}) == "home" and main_key({}) == "main"


def test_store_path_from_config_and_default(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = paths(tmp_path / "state")
    assert Agents({}).store_path("ops", p) == tmp_path / "state" / "agents" / "ops" / "sessions" / "sessions.json"
    cfg = {"session": {"store": "~/stores/{agentId}/sessions.json"}}
    assert Agents(cfg).store_path("ops", p) == home / "stores" / "ops" / "sessions.json"
    monkeypatch.chdir(tmp_path)
    assert Agents({"session": {"store": "rel/{agentId}.json"}}).store_path("x", p) == tmp_path / "rel" / "x.json"


def test_discovered_agents(tmp_path: Path) -> None:
    state = tmp_path / "state"
    write_store(state, {}, agent="main")
    write_store(state, {}, agent="Ops")  # normalises to ops, not configured
    write_store(state, {}, agent="MAIN")  # normalises to main without being spelled main: skipped
    real = write_store(tmp_path / "elsewhere", {}, agent="x")
    link_dir = state / "agents" / "linked" / "sessions"
    link_dir.mkdir(parents=True)
    (link_dir / "sessions.json").symlink_to(real)  # a symlink is not a store
    (state / "agents" / "empty").mkdir()
    cfg = {"agents": {"list": [{"id": "main"}, {"id": "sales"}]}}
    targets = Agents(cfg).store_targets(paths(state), all_agents=True)
    assert [(t.agent_id, t.configured) for t in targets] == [("main", True), ("sales", True), ("ops", False)]
    shared = Agents({"session": {"store": str(tmp_path / "one.json")}, **cfg}).store_targets(paths(state), all_agents=True)
    assert [t.agent_id for t in shared if t.path == tmp_path / "one.json"] == ["main"]  # one store, once
    with pytest.raises(VoraError) as err:
        Agents(cfg).store_targets(paths(state), agent="ghost")
    assert err.value.code == "agent_not_found"
    with pytest.raises(VoraError) as err:
        Agents(cfg).store_targets(paths(state), agent="main", all_agents=True)
    assert err.value.code == "usage"


# --- the store ---------------------------------------------------------------------------


def test_store_reading(tmp_path: Path) -> None:

    target = StoreTarget("main", tmp_path / "sessions.json", True)
    absent = read_store(target)
    assert isinstance(absent, Store) and not absent.exists and absent.entries == {}
    target.path.write_text('{\n  "a": {"sessionId": "x", "updatedAt": 1, "totalTokens": 20000.0},\n  "b": 3,\n  "c": []\n}')
    store = read_store(target)
    assert isinstance(store, Store) and list(store.entries) == ["a"]
    assert store.entries["a"]["totalTokens"] == 20000 and isinstance(store.entries["a"]["totalTokens"], int)
    target.path.write_text('{\n  "a": {"sessionId": "x",\n  "b" }\n}')
    broken = read_store(target)
    assert isinstance(broken, StoreError) and (broken.line, broken.col) == (3, 7)
    assert broken.location == f"{target.path}:3:7" and broken.to_error().code == "store_unreadable"
    # a trailing comma: an error too (Python 3.13's json places it at the comma, 3.11 after it)
    target.path.write_text('{\n  "a": {"sessionId": "x",\n  }\n}')
    assert isinstance(read_store(target), StoreError)
    for top in ("[]", '"text"', "NaN", '{"a": NaN}'):
        target.path.write_text(top)
        assert isinstance(read_store(target), StoreError), top


def test_rows_are_newest_first_then_by_key_then_in_store_order(tmp_path: Path) -> None:
    now = 1_765_000_000_000
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text('{ agents: { list: [{ id: "a", default: true }, { id: "b" }] } }\n')
    odd_times: list[Any] = [now, now, 1.5, True, "2025-01-01", None, -5, now - 1, 2**60, 0]
    stored = []
    for agent in ("a", "b"):
        entries = {f"k{i % 4}{'x' * (i % 3)}": {"sessionId": f"{agent}{i}", "updatedAt": at}
                   for i, at in enumerate(odd_times)}
        # the same key in both stores (a shared key): store order decides between them
        entries["agent:shared:main"] = {"sessionId": f"{agent}-shared", "updatedAt": now}
        write_store(state, entries, agent=agent)
        stored += [(key, e) for key, e in entries.items()]
    result = list_sessions(make_install(state, now_ms=now), all_agents=True)
    expected = sorted(sorted(stored, key=lambda r: r[0]), key=lambda r: updated_at(r[1]), reverse=True)
    assert [(r.key, r.sessionId) for r in result.rows] == [(key, e["sessionId"]) for key, e in expected]


def test_keys_match_case_insensitively() -> None:
    entries = {
        "agent:main:Telegram:Group:X": entry("s1", updated=5),
        "agent:main:TELEGRAM:group:x": entry("s2", updated=9),
        "agent:main:main": entry("s3"),
    }
    assert find_key(entries, "agent:main:main") == "agent:main:main"
    assert find_key(entries, "AGENT:MAIN:MAIN") == "agent:main:main"  # lower-cased key
    assert find_key(entries, "agent:main:telegram:group:x") == "agent:main:TELEGRAM:group:x"  # newest wins
    assert find_key(entries, "agent:main:Telegram:Group:X") == "agent:main:Telegram:Group:X"  # exact first
    assert find_key(entries, "nope") is None


@pytest.mark.parametrize(("key", "chat_type", "kind"), [
    ("global", None, "global"),
    ("unknown", None, "unknown"),
    ("Global", None, "direct"),
    ("agent:ops:subagent:abc", None, "subagent"),
    ("subagent:abc", None, "subagent"),
    ("agent:ops:cron:nightly:run:r1", None, "cron"),
    ("agent:x:acp:1", None, "acp"),
    ("acp:1", None, "acp"),
    ("agent:main:telegram:group:-100123", None, "group"),
    ("agent:main:slack:channel:c1", None, "group"),
    ("agent:main:discord:direct:u1", "group", "group"),
    ("agent:main:main", None, "main"),
    ("agent:main:MAIN", None, "main"),
    ("agent:main:discord:direct:u1", None, "direct"),
    ("agent::main::main", None, "main"),  # empty parts are dropped
    ("main", None, "direct"),
])
def test_session_kinds(key: str, chat_type: str | None, kind: str) -> None:
    assert session_kind(key, {"chatType": chat_type} if chat_type else {}, "main") == kind


def test_parse_key_and_custom_main_key() -> None:
    assert parse_key("agent:Ops:cron:job:run:1") == ("ops", "cron:job:run:1")
    assert parse_key("agent:ops") is None and parse_key("global") is None
    # empty parts are dropped wherever they are
    for key, parsed in (("agent::main:x", ("main", "x")), ("agent:main:", None), ("agent:a::b", ("a", "b")),
                        (":agent:a:b", ("a", "b")), ("agent:a:b:", ("a", "b")), ("AGENT:X:Y", ("x", "y")),
                        ("agent:İ:x", ("i\u0307", "x"))):
        assert parse_key(key) == parsed, key
    assert session_kind("agent:main:home", {}, "home") == "main"
    assert session_kind("agent:main:main", {}, "home") == "direct"


class _Int(int):
    pass


def test_the_number_tests_answer_as_javascript_reads_json() -> None:
    # (value, a JavaScript number, a finite one): a bool, a string or a list is no number there
    for value, number, finite in ((0, True, True), (-1, True, True), (2**80, True, True), (0.5, True, True),
                                  (-0.0, True, True), (math.inf, True, False), (-math.inf, True, False),
                                  (math.nan, True, False), (True, False, False), (False, False, False),
                                  (None, False, False), ("1", False, False), (_Int(3), True, True), ([1], False, False)):
        assert jsfmt.is_number(value) is number, value
        assert jsfmt.is_finite_number(value) is finite, value
    assert not jsfmt.is_finite_number(2**1100) and not jsfmt.is_finite_number(-(2**1100))  # JSON.parse: Infinity


def test_fresh_totals_and_percent() -> None:
    assert fresh_total({"totalTokens": 100}) == 100
    for stale in ({"totalTokens": 100, "totalTokensFresh": False}, {"totalTokens": -1}, {"totalTokens": "5"},
                  {"totalTokens": float("inf")}, {}, {"totalTokens": True}):
        assert fresh_total(stale) is None, stale
    assert context_percent(14_300, 32_000) == 45
    assert context_percent(16_000, 32_000) == 50 and context_percent(1, 200) == 1  # 0.5 rounds half-up
    assert context_percent(10_000, 100) == 999
    # Math.min(999, Math.round(r)) at the cap's edge and past a float's range (Infinity there)
    assert [context_percent(r, 100) for r in (998.49, 998.5, 999, 1e308)] == [998, 999, 999, 999]
    assert context_percent(1e300, 1e-300) == 999 and context_percent(10**308, 1e-10) == 999
    assert context_percent(None, 100) is None and context_percent(5, None) is None
    assert context_text(14_300, 32_000, 45) == "14k/32k (45%)"
    assert context_text(9_250, 9_450, 98) == "9.3k/9.4k (98%)"  # toFixed: exact 9.25 -> 9.3, 9.45 (binary 9.4499…) -> 9.4
    assert context_text(None, None, None) == "unknown/? (?%)"


@pytest.mark.parametrize(("ms", "text_"), [
    (None, "unknown"), (0, "just now"), (29_499, "just now"), (29_500, "1m ago"), (59 * 60_000, "59m ago"),
    (59 * 60_000 + 30_000, "1h ago"), (47 * 3_600_000, "47h ago"), (47 * 3_600_000 + 1_800_000, "2d ago"),
    (10 * 86_400_000, "10d ago"),
])
def test_age_rounds_each_unit_half_up(ms: int | None, text_: str) -> None:
    assert age_text(ms) == text_


# --- transcripts: paths and names ------------------------------------------------------------


def test_transcript_paths(tmp_path: Path) -> None:
    state = tmp_path / "state"
    sessions = state / "agents" / "main" / "sessions"
    other = state / "agents" / "ops" / "sessions"
    for d in (sessions, other):
        d.mkdir(parents=True)
    assert transcript_path({"sessionId": "abc"}, sessions, state) == sessions / "abc.jsonl"
    assert transcript_path({"sessionId": "abc", "sessionFile": "t/x.jsonl"}, sessions, state) == sessions / "t/x.jsonl"
    inside = str(sessions / "y.jsonl")
    assert transcript_path({"sessionId": "abc", "sessionFile": inside}, sessions, state) == Path(inside)
    theirs = str(other / "z.jsonl")
    assert transcript_path({"sessionId": "abc", "sessionFile": theirs}, sessions, state) == Path(theirs)
    for escape in ("../../../etc/passwd", "/etc/passwd", str(state / "agents" / "x.jsonl")):
        assert transcript_path({"sessionId": "abc", "sessionFile": escape}, sessions, state) == sessions / "abc.jsonl"
    assert transcript_path({"sessionId": "../evil"}, sessions, state) is None
    assert transcript_path({}, sessions, state) is None


def test_a_session_file_directly_in_the_sessions_dir_resolves_like_any_other(tmp_path: Path) -> None:
    # `<sessions dir>/<name>` in every spelling, and a link out of the folder, a directory or a
    # missing file there
    from vora_cli.core.sessions.locate import located_transcript

    state = tmp_path / "state"
    sessions = state / "agents" / "main" / "sessions"
    (sessions / "folder.jsonl").mkdir(parents=True)
    (sessions / "a.jsonl").write_text("12345")
    (sessions / ".hidden.jsonl").write_text("123")
    (tmp_path / "outside.jsonl").write_text("1")
    (sessions / "in.jsonl").symlink_to(sessions / "a.jsonl")
    (sessions / "out.jsonl").symlink_to(tmp_path / "outside.jsonl")
    (sessions / "abc.jsonl").write_text("12")  # the sessionId's file: the fallback
    sd, st = str(sessions), str(state)
    cases = {
        f"{sd}/a.jsonl": (f"{sd}/a.jsonl", 5),
        f"{sd}/missing.jsonl": (f"{sd}/missing.jsonl", None),
        f"{sd}/folder.jsonl": (f"{sd}/folder.jsonl", None),
        f"{sd}/in.jsonl": (f"{sd}/in.jsonl", 5),
        f"{sd}/out.jsonl": (f"{sd}/abc.jsonl", 2),
        f"{sd}/.hidden.jsonl": (f"{sd}/.hidden.jsonl", 3),
        f"{sd}//a.jsonl": (f"{sd}/a.jsonl", 5),
        f"{sd}/./a.jsonl": (f"{sd}/a.jsonl", 5),
        f"{sd}/../sessions/a.jsonl": (f"{sd}/../sessions/a.jsonl", 5),
        f"{sd}/": (sd, None),
        f"{sd}": (sd, None),
        f"{sd}x/a.jsonl": (f"{sd}/abc.jsonl", 2),
    }
    for value, expected in cases.items():
        assert located_transcript({"sessionId": "abc", "sessionFile": value}, sd, st) == expected, value


def test_archive_and_checkpoint_names() -> None:
    for name in ("a.jsonl.deleted.2025-11-30T10-00-00Z", "a.jsonl.reset.2025-11-30T10-00-00.123Z",
                 "a.jsonl.bak.2025-01-01T00-00-00Z", "sessions.json.bak.3"):
        assert is_archive_name(name), name
    for name in ("a.jsonl", "a-topic-5.jsonl", "a.jsonl.deleted.yesterday", "sessions.json"):
        assert not is_archive_name(name), name
    assert is_checkpoint_name("s.checkpoint.5b2e8f10-93c4-4d7a-a1e6-0f9b3c7d2e58.jsonl")
    assert not is_checkpoint_name("s.jsonl")


# --- the streaming reader --------------------------------------------------------------------


def test_torn_tail_blank_and_bad_lines(tmp_path: Path) -> None:
    t = Transcript("s1")
    t.user("one")
    t.raw("{not json")
    t.raw("")
    t.raw("[1, 2]")  # JSON, but not an object
    t.assistant(text("two"))
    path = tmp_path / "s1.jsonl"
    path.write_text(t.text() + '{"type":"message","id":"ff')  # the gateway is mid-write
    scan = scan_transcript(path)
    assert scan.torn_tail and scan.bad_lines == [3, 5]
    assert scan.entries == 2 and scan.lines == 5 and scan.leaf_id == t.leaf
    assert scan.bytes == path.stat().st_size
    # a last line without a newline that parses is an entry, not a torn tail
    path.write_text(t.text() + json.dumps({"type": "label", "id": "abcd0001", "parentId": t.leaf, "label": "x"}))
    scan = scan_transcript(path)
    assert not scan.torn_tail and scan.leaf_id == "abcd0001"


def test_lone_surrogates_and_invalid_utf8(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    t = Transcript("s")
    # JavaScript writes a cut emoji as an escape: 1 unit, hashed and shown as U+FFFD
    t.raw(json.dumps({"type": "message", "id": "00000001", "parentId": None,
                      "message": {"role": "toolResult", "toolName": "read", "content": [text("ok \ud83d")]}}))
    path.write_bytes(t.text().encode("utf-8", "surrogatepass").replace(b"\xed\xa0\xbd", b"\\ud83d")
                     + b'{"type":"message","id":"00000002","parentId":"00000001","message":{"role":"user","content":"bad \xff byte"}}\n')
    scan = scan_transcript(path)
    assert scan.bad_lines == [] and scan.entries == 2
    manifest = build_manifest(path, scan)
    first, second = manifest.segments
    assert first.chars == 4 and first.hash == h12("ok \ufffd") and first.preview == "ok \ufffd"
    assert second.chars == len("bad \ufffd byte") and second.hash == h12("bad \ufffd byte")
    json.dumps(manifest.to_dict()).encode("utf-8")  # never crashes an encoder


def test_version_1_transcripts_are_a_chain_in_file_order(tmp_path: Path) -> None:
    lines = [{"type": "session", "id": "old", "timestamp": "2024-01-01T00:00:00Z", "cwd": "/"},
             {"type": "message", "message": {"role": "user", "content": "a"}},
             {"type": "message", "message": {"role": "assistant", "content": [text("b")]}},
             {"type": "message", "message": {"role": "user", "content": "c"}}]
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    scan = scan_transcript(path)
    assert len(leaf_path(scan)) == 3 and scan.branch_points == []
    assert [s.kind for s in build_manifest(path, scan).segments] == ["user", "assistant", "user"]


def test_a_transcript_read_while_the_gateway_appends(tmp_path: Path) -> None:
    """A real concurrent writer: lines land (sometimes half-written) while the reader scans."""
    import subprocess
    import sys

    path = tmp_path / "live.jsonl"
    Transcript("live").write(path)
    writer = subprocess.Popen([sys.executable, "-c", f"""
import json, os, time
f = open({str(path)!r}, "ab", buffering=0)
parent = None
for i in range(4000):
    line = json.dumps({{"type": "message", "id": "%08x" % (i + 1), "parentId": parent,
                        "message": {{"role": "user", "content": "x" * (i % 300)}}}}).encode() + b"\\n"
    half = len(line) // 2
    f.write(line[:half]); f.write(line[half:])
    parent = "%08x" % (i + 1)
"""])
    scans = []
    try:
        while writer.poll() is None:
            scans.append(scan_transcript(path))
    finally:
        writer.wait(timeout=60)
    scans.append(scan_transcript(path))
    for scan in scans:
        assert scan.bad_lines == []  # a half-written last line is a torn tail, never a bad line
        assert len(leaf_path(scan)) == scan.entries  # one unbroken chain, whatever the cut
    assert scans[-1].entries == 4000 and not scans[-1].torn_tail


def test_a_huge_sparse_transcript_streams_in_bounded_memory(tmp_path: Path) -> None:
    """128 MiB (a hole of NUL bytes, nothing on disk) between real entries: read through in
    chunks, reported as one bad line, the entries after it found. The hole is 8 times the line
    limit and far above the memory bound: a reader that held the line would need all of it
    (1 GiB proves nothing more and took 9 s to read twice)."""
    import tracemalloc

    path = tmp_path / "huge.jsonl"
    t = Transcript("huge")
    first = t.user("before the hole")
    t.write(path)
    with open(path, "r+b") as f:
        f.truncate(128 << 20)
        f.seek(0, os.SEEK_END)
        tail = Transcript("huge")
        tail.count = 1
        tail.leaf = first
        tail.lines = []
        tail.user("after the hole")
        f.write(b"\n" + tail.text().encode())
    tracemalloc.start()
    try:
        scan = scan_transcript(path)
        manifest = build_manifest(path, scan)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert scan.bad_lines == [3] and scan.entries == 2
    assert [s.preview for s in manifest.segments] == ["before the hole", "after the hole"]
    assert peak < 48 * 1024 * 1024


# --- what the model sees now ---------------------------------------------------------------


def _manifest(tmp_path: Path, t: Transcript, previews: bool = True):  # type: ignore[no-untyped-def]
    path = t.write(tmp_path / f"{t.session_id}.jsonl")
    scan = scan_transcript(path, previews=previews)
    return scan, build_manifest(path, scan, previews=previews)


def test_compaction_keeps_from_first_kept_entry(tmp_path: Path) -> None:
    t = Transcript("c")
    t.user("old question")
    t.assistant(text("old answer"))
    kept = t.user("kept question")
    t.assistant(text("kept answer"))
    c = t.compaction("summary one", kept, 5000)
    t.user("new")
    _scan, m = _manifest(tmp_path, t)
    assert m.compaction_id == c and m.summary_chars == len("summary one")
    assert [s.kind for s in m.segments] == ["compaction-summary", "user", "assistant", "user"]
    assert [s.preview for s in m.segments] == ["summary one", "kept question", "kept answer", "new"]
    assert m.segments[0].entry_id == c and m.segments[0].hash == h12("summary one")


def test_last_compaction_on_the_path_wins_and_unknown_first_kept_keeps_nothing(tmp_path: Path) -> None:
    t = Transcript("c2")
    a = t.user("a")
    t.compaction("first", a, 100)
    t.user("b")
    second = t.compaction("second", "deadbeef", 200)  # first kept id not on the path
    t.user("c")
    _scan, m = _manifest(tmp_path, t)
    assert m.compaction_id == second
    assert [s.preview for s in m.segments] == ["second", "c"]


def test_a_compaction_on_an_abandoned_branch_is_not_used(tmp_path: Path) -> None:
    t = Transcript("b")
    root = t.user("root")
    answer = t.assistant(text("answer"))
    t.user("abandoned")
    off = t.compaction("abandoned summary", None, 100)
    t.add("branch_summary", parent=answer, fromId=off, summary="went elsewhere")
    t.add("branch_summary", summary="")  # empty: contributes nothing
    t.user("new branch")
    scan, m = _manifest(tmp_path, t)
    assert m.compaction_id is None
    assert [s.kind for s in m.segments] == ["user", "assistant", "branch-summary", "user"]
    assert scan.branch_points == [answer]
    assert scan.compactions[0].entry_id == off and scan.compactions[0].index not in leaf_path(scan)
    del root


def test_segment_chars_follow_the_gateway_estimate(tmp_path: Path) -> None:
    img = {"type": "image", "data": "aGVsbG8gd29ybGQ=", "mimeType": "image/png"}  # 11 bytes
    t = Transcript("chars")
    t.user([text("look 😀"), img])  # image counts 0 for a user
    args = {"b": 1.0, "1": "é", "a": [1, 2.5, None, True]}
    t.assistant({"type": "thinking", "thinking": "hmm"}, text("ok"), tool_call("c1", "exec", args))
    t.tool_result("c1", "exec", [text("out"), img], is_error=True)
    t.add("custom_message", customType="note", content="injected", display=True)
    t.add("message", message={"role": "bashExecution", "command": "ls", "output": "a b"})
    t.add("message", message={"role": "bashExecution", "command": "secret", "output": "x", "excludeFromContext": True})
    t.add("message", message={"role": "custom", "customType": "x", "content": [text("cc")]})
    t.add("model_change", provider="openai", modelId="gpt-5")
    t.add("thinking_level_change", thinkingLevel="high")
    t.add("label", targetId="00000001", label="x")
    t.add("custom", customType="runtime", data={"a": 1})
    t.add("session_info", name="renamed")
    _scan, m = _manifest(tmp_path, t)
    kinds = [s.kind for s in m.segments]
    assert kinds == ["user", "assistant", "tool-result", "custom", "bash", "custom"]
    user, assistant, tool, custom, bash, custom2 = m.segments
    assert user.chars == 7 and user.attachments == ({"type": "image", "mimeType": "image/png", "bytes": 11},)
    assert user.hash == h12("look 😀", "aGVsbG8gd29ybGQ=")
    assert user.preview == "look 😀 [image image/png 11 bytes]"
    js = '{"1":"é","b":1,"a":[1,2.5,null,true]}'  # JSON.stringify: index keys first, 1.0 is 1
    assert assistant.chars == 3 + 2 + len("exec") + len(js)
    assert assistant.tool_calls == ({"id": "c1", "name": "exec", "argsChars": len(js)},)
    assert assistant.hash == h12("hmm", "ok", "exec", js)
    assert assistant.preview == f"hmm ok → exec({js})"
    assert tool.chars == 3 + IMAGE_CHARS and tool.tool_name == "exec" and tool.is_error is True
    assert custom.chars == 8 and bash.chars == 5 and custom2.chars == 2
    assert m.model == "openai/gpt-5" and m.thinking_level == "high"
    assert m.total_tokens == sum(-(-s.chars // 4) for s in m.segments)
    assert m.by_kind()["custom"] == {"count": 2, "chars": 10, "tokens": 3}


def test_no_preview_keeps_no_text(tmp_path: Path) -> None:
    t = Transcript("np")
    t.user("private words")
    t.compaction("private summary", None, 10)
    t.user("more private words")
    scan, m = _manifest(tmp_path, t, previews=False)
    assert all(s.preview is None for s in m.segments)
    assert scan.compactions[0].preview is None
    assert "private" not in json.dumps(m.to_dict())


def test_segment_of_ignores_what_is_not_sent() -> None:
    assert segment_of({"type": "model_change", "id": "1"}, 0, True) is None
    assert segment_of({"type": "message", "id": "1", "message": "text"}, 0, True) is None
    assert segment_of({"type": "branch_summary", "id": "1", "summary": ""}, 0, True) is None


# --- redaction and previews ----------------------------------------------------------------


@pytest.mark.parametrize(("raw", "secret"), [
    ("OPENAI_API_KEY=sk-live-abcdefgh1234", "sk-live-abcdefgh1234"),
    ("db_password: hunter2", "hunter2"),
    ('{"apiKey": "abc123xyz"}', "abc123xyz"),
    ('{"refreshToken":"r-tok-1"}', "r-tok-1"),
    ("curl --token 'T0KEN-VALUE' x", "T0KEN-VALUE"),
    ("--api-key K3Y", "K3Y"),
    ("Authorization: Bearer abc.def", "abc.def"),
    ("use Bearer abcdefghijklmnopqrstu now", "abcdefghijklmnopqrstu"),
    ("key sk-abcdefgh12", "sk-abcdefgh12"),
    ("ghp_" + "a" * 24, "ghp_" + "a" * 24),
    ("github_pat_" + "B" * 22, "github_pat_" + "B" * 22),
    ("xoxb-123456789012-abc", "xoxb-123456789012-abc"),
    ("xapp-1-A0123456789", "xapp-1-A0123456789"),
    ("gsk_abcdefghij12", "gsk_abcdefghij12"),
    ("pplx-abcdefghij12", "pplx-abcdefghij12"),
    ("npm_abcdefghij12", "npm_abcdefghij12"),
    ("AIza" + "x" * 24, "AIza" + "x" * 24),
    ("https://api.telegram.org/bot123456789:ABCdefGHIjklMNOpqrSTUvwxYZ/getMe", "123456789:ABCdefGHIjklMNOpqrSTUvwxYZ"),
])
def test_redaction_patterns(raw: str, secret: str) -> None:
    out = redact_text(raw)
    assert secret not in out and "<redacted>" in out
    assert secret[:4] not in out.replace(raw.split(secret)[0], "", 1)  # not even a prefix


def test_telegram_tokens_are_found_at_any_colon_and_in_any_case_of_their_neighbours() -> None:
    token = "123456789:" + "A" * 30
    for raw in (f"bot{token}", f"x:y:z {token}", ":" * 70 + " " + token, "12345:" + "A" * 30 + " 7" + token):
        assert token not in redact_text(raw) and "<redacted>" in redact_text(raw), raw
    for raw in ("12345:" + "A" * 30, ":" * 70 + "12345:"):
        assert redact_text(raw) == raw  # five digits are no token
    # a case-insensitive pattern reads the Kelvin sign as k, as the gateway's do
    assert redact_text("my_\u212aEY=abcdef123") == "my_\u212aEY=<redacted>"


def test_pem_blocks_keep_their_first_and_last_line() -> None:
    block = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----"
    assert redact_text(f"x {block} y") == "x -----BEGIN RSA PRIVATE KEY-----\n<redacted>\n-----END RSA PRIVATE KEY----- y"
    assert redact_text("-----BEGIN PRIVATE KEY-----\nMIIE\nrest") == "-----BEGIN PRIVATE KEY-----\n<redacted>"


def test_previews_escape_cut_and_never_leak_a_straddling_secret() -> None:
    assert make_preview("a\nb\tc\rd\x00e\u2028\x85") == "a\\nb\\tc\\rd\\u0000e\\u2028\\u0085"
    long = "x" * 300
    assert make_preview(long) == "x" * 199 + "…" and len(make_preview(long)) == 200
    assert make_preview("x" * 200) == "x" * 200
    straddle = "y" * 190 + " token=" + "SECRETVALUE" * 5
    preview = make_preview(straddle)
    assert "SECRET" not in preview and len(preview) <= 200 and preview.endswith("…")
    escaped = make_preview("\n" * 150)  # never cut inside an escape
    assert escaped.endswith("\\n…") and len(escaped) <= 200
    assert make_preview("short", more=True) == "short…"
    for raw, shown in [("a\x7fb", "a\\u007fb"), ("a\x00b", "a\\u0000b"), ("a\tb", "a\\tb"), ("é\x85", "é\\u0085"),
                       ("é\u2028", "é\\u2028"), ("plain ~ text", "plain ~ text"), ("é plain", "é plain"),
                       ("é\ud83d", "é\ufffd"), ("\ud83d\ude00x", "\U0001f600x"), ("\ude00", "\ufffd")]:
        assert make_preview(raw) == shown, raw


def test_secrets_around_the_preview_end_stay_redacted() -> None:
    for pad in range(150, 260, 3):
        for secret, value in (("sk-abcdefghijklmnop", "sk-a"), ("TOKEN=abcdefgh12345", "abcd"),
                              ("ghp_" + "a1" * 12, "ghp_"), ("1" * 40 + "23456789:" + "A" * 30, "1:AAA"),
                              ("-----BEGIN " + "X" * 30 + " PRIVATE KEY-----\nbody\n-----END PRIVATE KEY-----", "body"),
                              ("A" * 300 + "_KEY=abcdefgh12345", "abcd")):
            preview = make_preview("p" * pad + " " + secret + " tail" * 50)
            assert value not in preview and len(preview) == 200 and preview.endswith("…"), (pad, secret)


def test_linear_time_on_a_huge_single_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded by work, not time: a preview of a 2 MiB line looks at its first SCAN_MAX
    characters only (counted: what its redaction shortcut and the redaction are given); redaction
    itself is linear on long lines that trigger every pattern (a hang guard: a leading unbounded
    class before the part that matters takes minutes here)."""
    from hang_guard import cpu_hang_guard

    from vora_cli.core.sessions import redact

    redacted: list[int] = []
    real_redact, real_unchanged = redact.redact_text, redact._unchanged_up_to
    monkeypatch.setattr(redact, "redact_text", lambda text: redacted.append(len(text)) or real_redact(text))
    monkeypatch.setattr(redact, "_unchanged_up_to",
                        lambda text, limit: redacted.append(len(text)) or real_unchanged(text, limit))
    assert make_preview("A" * 2 * 1024 * 1024) == "A" * 199 + "…"  # no needle: the shortcut alone
    assert make_preview("A" * 2 * 1024 * 1024 + "sk-") == "A" * 199 + "…"
    assert make_preview("sk-" + "A" * 2 * 1024 * 1024) == "<redacted>…"  # a needle up front: redacted
    assert redacted == [redact.SCAN_MAX] * 4
    monkeypatch.undo()
    every_trigger = " key token secret passw bearer sk- ghp_ github_pat_ xox xapp- gsk_ aiza pplx- npm_ 123456:"
    with cpu_hang_guard("redact_text on a long line"):
        assert redact_text("a_" * 4096 + "=" * 4096) == "a_" * 4096 + "=" * 4096
        for body in ("a_" * 131_072, "a " * 131_072, "Bearer " * 40_000):  # one class run, many words
            assert redact_text(body + every_trigger) == body + every_trigger


# --- numbers and JSON as JavaScript writes them ----------------------------------------------


@pytest.mark.parametrize(("value", "js"), [
    (20000.0, "20000"), (0.5, "0.5"), (1e21, "1e+21"), (1.5e20, "150000000000000000000"), (1e-7, "1e-7"),
    (0.000001, "0.000001"), (-2.5, "-2.5"), (123456789012345680000.0, "123456789012345680000"),
])
def test_js_numbers(value: float, js: str) -> None:
    assert jsfmt.js_number(value) == js


def test_format_number_and_stringify() -> None:
    assert jsfmt.format_number(1742) == "1,742" and jsfmt.format_number(-1234) == "-1,234"
    assert jsfmt.format_number(1234.5675) == "1,234.568" and jsfmt.format_number(0.1 + 0.2) == "0.3"
    assert jsfmt.js_stringify({"a": [], "b": {}, "c": "\ud800", "2": 1}, indent=2) == (
        '{\n  "2": 1,\n  "a": [],\n  "b": {},\n  "c": "\\ud800"\n}')
    assert jsfmt.js_stringify({"b": 1, "2": 0, "1": 0}) == '{"1":0,"2":0,"b":1}'  # integer-like keys first
    assert jsfmt.js_stringify({"s": "\ud83d", "n": 20000, "f": 2.5, "big": 2**53, "t": (1, 2)}) == (
        '{"s":"\\ud83d","n":20000,"f":2.5,"big":9007199254740992,"t":[1,2]}')
    assert jsfmt.loads("20000.0") == 20000


def test_entry_ids_keep_any_id() -> None:
    from vora_cli.core.sessions.transcript import EntryIds

    ids = EntryIds()
    for value in ("0000abcd", "ABCDEF12", "line-3", "ffffffff", "1234567", "00000001"):
        ids.append(value)
    assert [ids[i] for i in range(len(ids))] == ["0000abcd", "ABCDEF12", "line-3", "ffffffff", "1234567", "00000001"]
    assert ids[-1] == "00000001" and ids[-4] == "line-3"
    assert EntryIds.key("0000abcd") == 0xABCD and EntryIds.key("ABCDEF12") == "ABCDEF12"


def test_non_hex_ids_and_parents_build_the_same_tree(tmp_path: Path) -> None:
    lines = [{"type": "session", "version": 3, "id": "s"},
             {"type": "message", "id": "Root-A", "parentId": None, "message": {"role": "user", "content": "a"}},
             {"type": "message", "id": "x1", "parentId": "Root-A", "message": {"role": "user", "content": "b"}},
             {"type": "message", "id": "X1", "parentId": "Root-A", "message": {"role": "user", "content": "c"}}]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    scan = scan_transcript(path)
    assert scan.branch_points == ["Root-A"] and scan.leaf_id == "X1"
    assert [s.preview for s in build_manifest(path, scan).segments] == ["a", "c"]


def test_a_fifo_is_never_opened(tmp_path: Path) -> None:
    """Opening a FIFO would block forever: a FIFO store is unreadable, a FIFO transcript absent."""

    store = tmp_path / "sessions.json"
    os.mkfifo(store)
    result = read_store(StoreTarget("main", store, True))
    assert isinstance(result, StoreError) and "not a regular file" in result.message
    transcript = tmp_path / "s.jsonl"
    os.mkfifo(transcript)
    assert scan_transcript(transcript).exists is False
