"""Scale data for the benches, built in the bench's temporary directory (removed after the run;
issue 24).

- `session_store`: one agent's `sessions.json` with N sessions (each with a run report, as the
  gateway keeps after a real run) and, optionally, their one-line transcripts;
- `big_transcript`: a transcript of a given size (100,000 entries per 200 MB, 3 compactions, a
  branch, a 5 MB tool result every 9,000 entries), added to a store as `agent:<agent>:big`;
- `commented_config`: a heavily commented JSON5 `vora.json` of about N bytes;
- `over_limit_config`: one just over the 2 MiB config file limit.

Every builder writes with plain file writes, streams what is big (nothing of 1 GB is held in
memory) and is deterministic, so two checkouts measured in one run see the same bytes.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "support"))

from sessions_support import NOW, run_report  # noqa: E402

CONFIG_LIMIT = 2 * 1024 * 1024  # the config file limit every command refuses past (docs/config.md)
HEADER = {"type": "session", "version": 3, "id": "x", "timestamp": "2025-11-30T00:00:00Z", "cwd": "/"}


def state_with_agents(state: Path, agents: list[str]) -> Path:
    """A state dir whose config lists `agents` (the first is the default) and shares the example
    workspace (a TOOLS.md over the cap, skills: what `context list` reads)."""
    state.mkdir(parents=True, exist_ok=True)
    listing = ", ".join(f"{{ id: '{a}'{', default: true' if i == 0 else ''} }}" for i, a in enumerate(agents))
    (state / "vora.json").write_text(
        f"{{ agents: {{ defaults: {{ workspace: './workspace' }}, list: [{listing}] }} }}\n")
    if not (state / "workspace").exists():
        shutil.copytree(REPO / "examples" / "vora" / "workspace", state / "workspace")
    return state


def store_entry(agent: str, i: int, session_id: str, transcript: Path, offset: int = 0) -> dict[str, Any]:
    """A store entry as the gateway writes it after a run (about 2.5 KB of 2-space JSON)."""
    return {
        "sessionId": session_id, "updatedAt": NOW - (offset + i) * 60_000, "sessionFile": str(transcript),
        "chatType": "group" if i % 7 == 3 else "direct", "model": "claude-sonnet-4-5",
        "modelProvider": "anthropic", "inputTokens": 12_000, "outputTokens": 400, "totalTokens": 12_400 + i,
        "totalTokensFresh": i % 11 != 5, "contextTokens": 200_000, "compactionCount": i % 4,
        **({"label": f"ticket {i}"} if i % 13 == 0 else {}),
        "systemPromptReport": run_report(sessionId=session_id, sessionKey=f"agent:{agent}:s{i}"),
    }


def store_key(agent: str, i: int) -> str:
    if i == 0:
        return f"agent:{agent}:main"
    if i % 7 == 3:
        return f"agent:{agent}:telegram:group:-100{i}"
    return f"agent:{agent}:telegram:direct:u{i}"


def session_store(state: Path, sessions: int, *, agent: str = "main", transcripts: bool = True,
                  offset: int = 0) -> Path:
    """`<state>/agents/<agent>/sessions/sessions.json` with `sessions` entries, written as the
    gateway writes it (2-space JSON), entry by entry; with `transcripts`, each entry's one-line
    transcript exists (`sessions list` stats them)."""
    folder = state / "agents" / agent / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    header = json.dumps(HEADER) + "\n"
    path = folder / "sessions.json"
    with open(path, "w", encoding="utf-8") as out:
        out.write("{")
        for i in range(sessions):
            sid = f"{agent}-s{i:06d}"
            transcript = folder / f"{sid}.jsonl"
            if transcripts:
                transcript.write_text(header)
            body = json.dumps(store_entry(agent, i, sid, transcript, offset), indent=2).replace("\n", "\n  ")
            out.write(("," if i else "") + "\n  " + json.dumps(store_key(agent, i)) + ": " + body)
        out.write("\n}" if sessions else "}")
    return path


def add_entry(store: Path, key: str, entry: dict[str, Any]) -> None:
    """Append one entry to a store written by `session_store` without loading it: the store
    ends with `\\n}`, which is replaced by the new entry."""
    body = json.dumps(entry, indent=2).replace("\n", "\n  ")
    with open(store, "r+b") as handle:
        handle.seek(0, os.SEEK_END)
        size = handle.tell()
        handle.seek(size - 2)
        empty = size <= 2
        tail = handle.read()
        assert tail.endswith(b"}"), tail
        handle.seek(size - (1 if empty else 2))
        handle.truncate()
        handle.write(((",\n  " if not empty else "\n  ") + json.dumps(key) + ": " + body + "\n}").encode())


def big_transcript(state: Path, size: int, *, agent: str = "main", compaction_every: int = 25_000,
                   huge_every: int = 9_000, huge_bytes: int = 5 * 1000 * 1000, branch_at: int = 90_000,
                   kept: int = 200) -> tuple[str, Path, int]:
    """A transcript of about `size` bytes in `agent`'s store, added as `agent:<agent>:big`:
    entries of ~1.4 KB, a 5 MB tool result every 9,000 entries, a compaction every 25,000 (3 at
    most, each keeping the 200 entries before it), a branch near entry 90,000 (the keywords scale
    it down for a test). Returns (key, path, entries)."""
    folder = state / "agents" / agent / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "big.jsonl"
    filler = "lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 24  # ~1.4 KB
    huge = "x" * (huge_bytes - 200)
    count = 0
    parent: str | None = None
    written = 0
    compactions = 0
    branch_from: str | None = None
    with open(path, "w", encoding="utf-8") as out:
        written += out.write(json.dumps({**HEADER, "id": "big"}) + "\n")
        while written < size:
            count += 1
            entry_id = f"{count:08x}"
            line: dict[str, Any]
            if count % compaction_every == 0 and compactions < 3:
                compactions += 1
                line = {"type": "compaction", "id": entry_id, "parentId": parent, "timestamp": "t",
                        "summary": "summary " * 500 + "API_KEY=sk-abcdefghijklmnop " * (compactions == 3),
                        "firstKeptEntryId": f"{count - kept:08x}", "tokensBefore": 180_000}
            elif count % huge_every == 0:
                line = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "t",
                        "message": {"role": "toolResult", "toolCallId": "c", "toolName": "read",
                                    "content": [{"type": "text", "text": huge}], "isError": False}}
            elif count % 2 == 0:
                line = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "t",
                        "message": {"role": "assistant", "content": [
                            {"type": "text", "text": filler},
                            {"type": "toolCall", "id": "c", "name": "exec", "arguments": {"command": "ls", "n": count}}],
                            "provider": "anthropic", "model": "claude", "stopReason": "toolUse"}}
            else:
                line = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "t",
                        "message": {"role": "user", "content": filler if count % 101 else
                                    "my token is ghp_" + "a1" * 12 + " " + filler}}
            if count == branch_at:
                branch_from = parent
            if count == branch_at + 50 and branch_from is not None:
                line["parentId"] = branch_from  # a branch: back to an earlier entry
            written += len((text := json.dumps(line, ensure_ascii=False) + "\n").encode())
            out.write(text)
            parent = entry_id
    key = f"agent:{agent}:big"
    add_entry(folder / "sessions.json", key, {"sessionId": "big", "updatedAt": NOW, "sessionFile": "big.jsonl",
                                              "totalTokens": 150_000, "contextTokens": 200_000})
    return key, path, count


def commented_config(target_bytes: int = 1_000_000) -> str:
    """A big, heavily commented `vora.json` (block and line comments, trailing commas, hex,
    single quotes) of about `target_bytes`, ending with `gateway.port`."""
    parts = ["// a big, heavily commented config\n{\n"]
    size = len(parts[0])
    i = 0
    while size < target_bytes:
        block = (
            f"  /* section {i}: notes the operator keeps next to each block */\n"
            f"  section{i}: {{\n"
            f"    name: 'block {i}', // the label\n"
            f"    enabled: true,\n"
            f"    values: [1, 2, 3, 0x1F, .5,], // trailing comma\n"
            f"  }},\n"
        )
        parts.append(block)
        size += len(block)
        i += 1
    parts.append("  gateway: { port: 18789 },\n}\n")
    return "".join(parts)


def over_limit_config() -> str:
    """A commented config just over the 2 MiB limit (every command refuses it by its size)."""
    text = commented_config(CONFIG_LIMIT + 64 * 1024)
    assert len(text.encode()) > CONFIG_LIMIT
    return text
