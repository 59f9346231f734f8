"""Text a session store holds, as `vora sessions` shows it (spec sessions.md, "Reading rules"):
a lone surrogate the gateway wrote (`\\udXXX` in JSON) is shown as U+FFFD, in the table and in
JSON, for every text field taken from the store (label, model, provider, chat type, lineage)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sessions_support import NOW, Transcript

ENV = {"VORA_NOW_MS": str(NOW)}
LONE = "\udc80"  # the tail of an emoji cut by UTF-16 unit
HALF = "\ud83d"  # its head
FFFD = "\ufffd"


@pytest.fixture
def store(state_dir: Path) -> Path:
    sessions = state_dir / "agents" / "main" / "sessions"
    t = Transcript("s1")
    t.user("hello")
    t.write(sessions / "s1.jsonl")
    entry = {
        "sessionId": "s1", "updatedAt": NOW - 60_000, "label": f"deploy {LONE} fix {HALF}",
        "model": f"sonnet{HALF}", "modelProvider": f"anthro{LONE}", "chatType": f"direct{LONE}",
        "spawnedBy": f"agent:main:main{LONE}", "parentSessionKey": f"agent:main:x{HALF}", "status": f"done{LONE}",
    }
    # ensure_ascii: the file holds the `\udXXX` escapes, as JavaScript writes them
    (sessions / "sessions.json").write_text(json.dumps({"agent:main:main": entry}, indent=2), encoding="ascii")
    return state_dir


def run(vora: Any, *args: str) -> Any:
    result = vora(*args, env=ENV)
    assert result.exit_code == 0, result.stderr
    return result


def test_list_shows_lone_surrogates_as_replacement_characters(vora: Any, store: Path) -> None:
    row = run(vora, "sessions", "list", "--json").json()["sessions"][0]
    assert row["label"] == f"deploy {FFFD} fix {FFFD}"
    assert (row["model"], row["modelProvider"], row["chatType"]) == (f"sonnet{FFFD}", f"anthro{FFFD}", f"direct{FFFD}")
    human = run(vora, "sessions", "list").stdout
    assert f"sonnet{FFFD}" in human and "\\ud" not in human


def test_show_shows_lone_surrogates_as_replacement_characters(vora: Any, store: Path) -> None:
    entry = run(vora, "sessions", "show", "main", "--json").json()["entry"]
    assert entry["label"] == f"deploy {FFFD} fix {FFFD}"
    assert entry["spawnedBy"] == f"agent:main:main{FFFD}"
    assert entry["parentSessionKey"] == f"agent:main:x{FFFD}"
    assert entry["status"] == f"done{FFFD}"
    human = run(vora, "sessions", "show", "main").stdout
    assert f"label: deploy {FFFD} fix {FFFD}" in human
    assert f"model: anthro{FFFD}/sonnet{FFFD}" in human
    assert f"spawnedBy agent:main:main{FFFD}" in human
    assert "\\ud" not in human


def test_show_prints_the_transcript_header_or_says_there_is_none(vora: Any, state_dir: Path) -> None:
    """Section 3 of `sessions show` names the header (id, version, timestamp, cwd), in text as in JSON."""
    sessions = state_dir / "agents" / "main" / "sessions"
    with_header = Transcript("s1", cwd="/srv/work")
    with_header.user("hello")
    with_header.write(sessions / "s1.jsonl")
    headless = Transcript("s2")
    headless.user("hi")
    headless.lines.pop(0)  # the header line is gone: the file starts with an entry
    headless.write(sessions / "s2.jsonl")
    (sessions / "sessions.json").write_text(json.dumps({
        "agent:main:main": {"sessionId": "s1", "updatedAt": NOW},
        "agent:main:other": {"sessionId": "s2", "updatedAt": NOW},
    }))
    doc = run(vora, "sessions", "show", "main", "--json").json()["transcript"]["header"]
    human = run(vora, "sessions", "show", "main").stdout
    assert f"  header: id s1, version 3, {doc['timestamp']}, cwd /srv/work\n" in human
    assert "  header: none (the first line is not a session header)\n" in run(vora, "sessions", "show", "other").stdout
