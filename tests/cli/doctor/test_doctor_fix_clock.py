"""`vora doctor --fix sessions-locks` judges a lock again on the same clock the check used, so a
pinned `VORA_NOW_MS` (docs/devices.md; core/clock.py, "every now comes from here") decides both."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from doctor_helpers import make_state
from sessions_support import Transcript, entry, write_store

LATER_MS = 45 * 60_000  # the pinned clock runs 45 min ahead of the wall: every lock written now is old


def _state(tmp_path: Path) -> tuple[Path, Path]:
    state = make_state(tmp_path)
    folder = state / "agents" / "main" / "sessions"
    t = Transcript("a")
    t.user("hi")
    t.write(folder / "a.jsonl")
    write_store(state, {"agent:main:main": entry("a")})
    return state, folder


def _iso(ms: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(ms / 1000))


@pytest.mark.parametrize(
    ("name", "content"),
    [
        # a running pid, created "45 min ago" on the pinned clock: stale by its createdAt
        ("a.jsonl.lock", lambda now: json.dumps({"pid": os.getpid(), "createdAt": _iso(now)})),
        # neither pid nor createdAt, modified "45 min ago" on the pinned clock: stale by its mtime
        ("sessions.json.lock", lambda now: "garbage"),
    ],
)
def test_the_fix_uses_the_checks_clock(vora, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
                                       name: str, content) -> None:
    state, folder = _state(tmp_path)
    now = int(time.time() * 1000)
    lock = folder / name
    lock.write_text(content(now))
    monkeypatch.setenv("VORA_NOW_MS", str(now + LATER_MS))
    checked = vora("--state-dir", str(state), "doctor", "--only", "sessions-locks", "--json").json()
    assert checked["checks"][0]["status"] == "warn"
    fixed = vora("--state-dir", str(state), "doctor", "--fix", "sessions-locks", "--yes", "--json")
    assert fixed.exit_code == 0, fixed.stdout
    assert [(f["id"], f["status"]) for f in fixed.json()["fixes"]] == [("sessions-locks", "applied")]
    assert not lock.exists()
