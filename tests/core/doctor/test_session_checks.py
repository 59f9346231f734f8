"""The `sessions-*` doctor checks and the stale-lock fix, on the core (spec sessions.md, "Doctor"); the fix
through `vora doctor`: tests/cli/doctor/test_messages.py."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from doctor_helpers import NOW_MS, check, make_state
from sessions_support import dead_pid, entry, lock_time, sessions_dir, with_transcripts, write_store


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return make_state(tmp_path)


def test_store_absent_fine_and_broken(state: Path) -> None:
    result = check(state, "sessions-store")
    assert (result.status, result.message) == ("pass", "no sessions yet")
    with_transcripts(state, {"agent:main:main": entry("a")})
    assert check(state, "sessions-store").message == "1 store, 1 session"
    write_store(state, {}, agent="ops").write_text('{\n  "x": [\n}')
    result = check(state, "sessions-store")
    assert result.status == "error"
    assert f"{sessions_dir(state, 'ops') / 'sessions.json'}:3:1" in result.message
    write_store(state, {}, agent="ops").write_text("[]")
    assert "top level is not an object" in check(state, "sessions-store").message


def test_missing_transcripts_name_up_to_five_keys(state: Path) -> None:
    entries = {f"agent:main:direct:u{i}": entry(f"gone{i}") for i in range(7)}
    entries["agent:main:main"] = entry("here")
    with_transcripts(state, {"agent:main:main": entry("here")})
    write_store(state, entries)
    result = check(state, "sessions-transcripts")
    assert result.status == "warn" and result.message.startswith("7 sessions without a transcript file: ")
    assert "(+2 more)" in result.message and len(result.details) == 5
    assert result.fix is not None and result.fix.command == "vora sessions show agent:main:direct:u0"
    assert not result.fix.automatic


@pytest.mark.parametrize("bad", ["a\\u0000b.jsonl", "\\ud800.jsonl", "/abs/\\u0000"])
def test_a_snapshot_name_no_file_can_have_references_nothing(state: Path, bad: str) -> None:
    store = with_transcripts(state, {"agent:main:main": entry("kept", compactionCheckpoints=[
        {"checkpointId": "c", "preCompaction": {"sessionId": "kept", "sessionFile": "BAD"}}])})
    store.write_text(store.read_text().replace('"BAD"', f'"{bad}"'))  # as JSON escapes: the OS cannot take them
    (sessions_dir(state) / "kept.checkpoint.1234abcd-aa.jsonl").write_text("")
    result = check(state, "sessions-orphans")
    assert result.status == "info" and "kept.checkpoint.1234abcd-aa.jsonl" in result.message


def test_orphans_and_unreferenced_snapshots(state: Path) -> None:
    with_transcripts(state, {"agent:main:main": entry("kept", compactionCheckpoints=[
        {"checkpointId": "c", "preCompaction": {"sessionId": "kept", "sessionFile": "kept.checkpoint.1234abcd-aa.jsonl"}}])})
    folder = sessions_dir(state)
    assert check(state, "sessions-orphans").status == "pass"
    (folder / "kept.checkpoint.1234abcd-aa.jsonl").write_text("")  # referenced by a checkpoint
    (folder / "old.jsonl.deleted.2025-01-01T00-00-00Z").write_text("")  # an archive
    (folder / "sessions.json.bak.2").write_text("{}")
    assert check(state, "sessions-orphans").status == "pass"
    (folder / "kept.checkpoint.99999999-bb.jsonl").write_text("")
    result = check(state, "sessions-orphans")
    assert result.status == "info" and "kept.checkpoint.99999999-bb.jsonl" in result.message
    (folder / "stray.jsonl").write_text("")
    result = check(state, "sessions-orphans")
    assert result.status == "warn" and str(folder / "stray.jsonl") in result.message
    assert result.fix is not None and result.fix.command is not None
    assert result.fix.command.startswith(f"mv {folder / 'stray.jsonl'} {folder / 'stray.jsonl'}.deleted.")
    assert not result.fix.automatic


def test_bad_jsonl_lines_with_file_and_line(state: Path) -> None:
    with_transcripts(state, {"agent:main:main": entry("a"), "agent:main:x": entry("b")})
    assert check(state, "sessions-jsonl").status == "pass"
    path = sessions_dir(state) / "a.jsonl"
    path.write_text(path.read_text() + "".join("oops\n" for _ in range(8)) + '{"torn": ')
    result = check(state, "sessions-jsonl")
    assert result.status == "warn"
    assert result.details == tuple(f"{path}:{n}" for n in range(3, 8))  # stops at its first 5 bad lines
    headless = sessions_dir(state) / "b.jsonl"
    headless.write_text('{"type":"message","id":"00000001","parentId":null,"message":{"role":"user","content":"x"}}\n')
    assert f"{headless}:1: the first line is not a session header" in check(state, "sessions-jsonl").message


def test_context_at_ninety_percent(state: Path) -> None:
    with_transcripts(state, {
        "agent:main:main": entry("a", totalTokens=28_800, contextTokens=32_000),
        "agent:main:ok": entry("b", totalTokens=28_799, contextTokens=32_000),
        "agent:main:stale": entry("c", totalTokens=32_000, contextTokens=32_000, totalTokensFresh=False),
    })
    result = check(state, "sessions-context")
    assert result.status == "warn" and result.message.endswith(": agent:main:main (90%)")


def write_lock(path: Path, doc: object, age_ms: int = 0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc) if not isinstance(doc, str) else doc)
    mtime = (NOW_MS - age_ms) / 1000
    os.utime(path, (mtime, mtime))
    return path


def test_lock_staleness_rules(state: Path) -> None:
    with_transcripts(state, {"agent:main:main": entry("a")})
    folder = sessions_dir(state)
    assert check(state, "sessions-locks").status == "pass"
    live = write_lock(folder / "a.jsonl.lock", {"pid": os.getpid(), "createdAt": lock_time(NOW_MS - 60_000)})
    result = check(state, "sessions-locks")
    assert result.status == "info" and "the gateway is writing" in result.message and result.fix is None
    cases = {
        "dead pid": {"pid": dead_pid(), "createdAt": lock_time(NOW_MS)},
        "no pid": {"createdAt": lock_time(NOW_MS)},
        "old": {"pid": os.getpid(), "createdAt": lock_time(NOW_MS - 31 * 60_000)},
        "no createdAt": {"pid": os.getpid()},
        "reused pid": {"pid": os.getpid(), "createdAt": lock_time(NOW_MS), "starttime": -1},
    }
    for reason, doc in cases.items():
        path = write_lock(folder / "sessions.json.lock", doc)
        result = check(state, "sessions-locks")
        assert result.status == "warn", reason
        assert result.fix is not None and [op.path for op in result.fix.remove] == [str(path)], reason
    # neither a valid pid nor createdAt: judged by mtime
    write_lock(folder / "sessions.json.lock", "garbage", age_ms=29 * 60_000)
    assert check(state, "sessions-locks").status == "info"
    write_lock(folder / "sessions.json.lock", "garbage", age_ms=31 * 60_000)
    assert check(state, "sessions-locks").status == "warn"
    assert live.exists()


def test_fix_leaves_a_lock_that_turned_live(tmp_path: Path) -> None:
    from install_support import make_install

    from vora_cli.core.doctor.fixes import apply_fix
    from vora_cli.core.doctor.model import FIX_REMOVE, Fix, RemoveOp

    path = tmp_path / "s.jsonl.lock"
    path.write_text(json.dumps({"pid": os.getpid(), "createdAt": lock_time(int(time.time() * 1000))}))
    info = path.stat()
    fix = Fix("sessions-locks", FIX_REMOVE, "x", remove=(RemoveOp(str(path), info.st_mtime_ns, info.st_size, "old"),))
    outcome = apply_fix(fix, make_install(tmp_path, now_ms=int(time.time() * 1000)), "")
    assert outcome.status == "skipped" and path.exists()
