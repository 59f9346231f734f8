"""Builders for session stores and transcripts, line by line, as the gateway writes them."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

NOW = 1_765_000_000_000  # a fixed clock (ms), passed to the CLI as VORA_NOW_MS


class Transcript:
    """An append-only JSONL transcript: a header, then entries chained through parentId."""

    def __init__(self, session_id: str, *, version: int = 3, cwd: str = "/home/me/project", start: int = NOW - 3_600_000):
        self.session_id = session_id
        self.clock = start
        self.lines: list[str] = []
        self.leaf: str | None = None
        self.count = 0
        self.header = {"type": "session", "version": version, "id": session_id, "timestamp": self._iso(), "cwd": cwd}
        self.lines.append(json.dumps(self.header, ensure_ascii=False))

    def _iso(self) -> str:
        import datetime

        self.clock += 1000
        return datetime.datetime.fromtimestamp(self.clock / 1000, datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")

    def add(self, kind: str, *, parent: Any = "leaf", **fields: Any) -> str:
        self.count += 1
        entry_id = f"{self.count:08x}"
        parent_id = self.leaf if parent == "leaf" else parent
        entry = {"type": kind, "id": entry_id, "parentId": parent_id, "timestamp": self._iso(), **fields}
        self.lines.append(json.dumps(entry, ensure_ascii=False))
        self.leaf = entry_id
        return entry_id

    def raw(self, line: str) -> None:
        self.lines.append(line)

    def user(self, content: Any, **kw: Any) -> str:
        return self.add("message", message={"role": "user", "content": content, "timestamp": self.clock}, **kw)

    def assistant(self, *blocks: dict[str, Any], model: str = "claude-sonnet-4-5", **kw: Any) -> str:
        return self.add("message", message={"role": "assistant", "content": list(blocks), "provider": "anthropic",
                                            "model": model, "usage": {"input": 100, "output": 20},
                                            "stopReason": "stop"}, **kw)

    def tool_result(self, call_id: str, name: str, content: Any, is_error: bool = False, **kw: Any) -> str:
        return self.add("message", message={"role": "toolResult", "toolCallId": call_id, "toolName": name,
                                            "content": content, "isError": is_error}, **kw)

    def compaction(self, summary: str, first_kept: str | None, tokens_before: int, **kw: Any) -> str:
        return self.add("compaction", summary=summary, firstKeptEntryId=first_kept, tokensBefore=tokens_before, **kw)

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text(), encoding="utf-8")
        return path


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def tool_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}


def entry(session_id: str, *, updated: int = NOW - 60_000, **fields: Any) -> dict[str, Any]:
    return {"sessionId": session_id, "updatedAt": updated, **fields}


def write_store(state: Path, entries: dict[str, Any], agent: str = "main") -> Path:
    path = state / "agents" / agent / "sessions" / "sessions.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entries, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def run_report(**overrides: Any) -> dict[str, Any]:
    """A system-prompt report as the gateway stores it after a real run."""
    report: dict[str, Any] = {
        "source": "run",
        "generatedAt": NOW - 120_000,
        "sessionId": "s1",
        "sessionKey": "agent:main:main",
        "provider": "anthropic",
        "model": "claude-sonnet-4-5",
        "workspaceDir": "/home/me/.vora/workspace",
        "bootstrapMaxChars": 20000,
        "bootstrapTotalMaxChars": 150000,
        "sandbox": {"mode": "off", "sandboxed": False},
        "systemPrompt": {"chars": 31250, "projectContextChars": 21850, "nonProjectContextChars": 9400},
        "injectedWorkspaceFiles": [
            {"name": "AGENTS.md", "path": "/home/me/.vora/workspace/AGENTS.md", "missing": False,
             "rawChars": 1742, "injectedChars": 1742, "truncated": False},
            {"name": "TOOLS.md", "path": "/home/me/.vora/workspace/TOOLS.md", "missing": False,
             "rawChars": 54210, "injectedChars": 18108, "truncated": True},
            {"name": "HEARTBEAT.md", "path": "/home/me/.vora/workspace/HEARTBEAT.md", "missing": True,
             "rawChars": 0, "injectedChars": 0, "truncated": False},
        ],
        "skills": {"promptChars": 2184, "entries": [{"name": "weather", "blockChars": 1200},
                                                     {"name": "github", "blockChars": 984}]},
        "tools": {"listChars": 1540, "schemaChars": 12044, "entries": [
            {"name": "read", "summaryChars": 120, "schemaChars": 800, "propertiesCount": 3},
            {"name": "exec", "summaryChars": 300, "schemaChars": 2400, "propertiesCount": 7},
            {"name": "message", "summaryChars": 90, "schemaChars": 8844, "propertiesCount": None},
        ]},
    }
    report.update(overrides)
    return report


# --- the example install's sessions (examples/vora/agents/main/sessions/) ----------------------

EXAMPLE_NOW = 1_764_460_800_000  # 2025-11-30T00:00:00Z: the example's "last activity" clock
MAIN_ID = "3f9d2c1e-7b4a-4e8f-9a61-2d5c8e0b7f41"
GROUP_ID = "a71c5e92-0d3b-4f6a-b8e4-51f2c9d07a3e"
CHECKPOINT_UUID = "5b2e8f10-93c4-4d7a-a1e6-0f9b3c7d2e58"


def example_sessions(state: Path) -> None:
    """Write the example agent's store and two transcripts (one compacted twice, one branched)."""
    sessions = state / "agents" / "main" / "sessions"
    start = EXAMPLE_NOW - 5 * 3_600_000
    main = Transcript(MAIN_ID, cwd="/home/ops/.vora/workspace", start=start)
    main.add("model_change", provider="anthropic", modelId="claude-sonnet-4-5")
    main.add("thinking_level_change", thinkingLevel="medium")
    main.user("The staging deploy failed again. Can you check the logs and tell me why?")
    main.assistant(text("Let me look at the deploy log first."),
                   tool_call("toolu_01", "read", {"path": "logs/deploy-staging.log", "limit": 200}))
    main.tool_result("toolu_01", "read", [text(
        "2025-11-29T19:02:11Z build ok\n2025-11-29T19:02:40Z migrate: connecting with "
        "DATABASE_PASSWORD=hunter2-staging-7731\n2025-11-29T19:02:41Z ERROR relation \"invoices\" does not exist\n"
        + "2025-11-29T19:02:41Z   at migrate (db/migrate.ts:88)\n" * 40)])
    main.assistant(text("The migration runs before the schema is created: `invoices` does not exist yet."))
    u2 = main.user("Right. What does the migration order look like?")
    main.assistant(tool_call("toolu_02", "exec", {"command": "ls db/migrations | sort", "timeout": 30.0}))
    main.tool_result("toolu_02", "exec", [text("001_users.sql\n002_invoices_fk.sql\n003_invoices.sql\n")])
    main.assistant(text("`002_invoices_fk.sql` adds a foreign key to `invoices`, which `003` creates. Swap them."))
    c1 = main.compaction(
        "## Goal\nFix the failing staging deploy.\n\n## Findings\n- Migration 002 references `invoices`, "
        "created only by 003.\n- Fix: rename 002 <-> 003.\n\n## Next\nRename the files, rerun the deploy.",
        u2, 118_400, details={"readFiles": ["logs/deploy-staging.log"], "modifiedFiles": []})
    u3 = main.user("Do it, and rerun the deploy. The token is in the usual place.")
    main.assistant(text("Renaming the migrations and redeploying."),
                   tool_call("toolu_03", "exec", {"command": "git mv db/migrations/002_invoices_fk.sql "
                                                              "db/migrations/004_invoices_fk.sql && ./deploy staging"}))
    main.tool_result("toolu_03", "exec", [text(
        "deploying with Authorization: Bearer ghp_R4nd0mL00k1ngT0k3nV4lu3Xy12\nstaging: healthy (3/3 pods)\n")])
    main.assistant(text("Deployed: staging is healthy (3/3 pods)."))
    main.user([text("Here is the dashboard now, does it look right?"),
               {"type": "image", "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
                "mimeType": "image/png"}])
    main.assistant({"type": "thinking", "thinking": "The graph shows error rate back at baseline."},
                   text("Yes: the error rate is back to baseline since 19:40."))
    c2 = main.compaction(
        "## Goal\nFix the failing staging deploy. Done.\n\n## Done\n- Swapped migrations 002/003 (now 004).\n"
        "- Redeployed staging: healthy.\n\n## Open\nNothing.", u3, 96_200, fromHook=False)
    main.user("Thanks! Can you write a short note for the changelog?")
    main.assistant(text("Fixed: staging deploys failed because a foreign-key migration ran before its table existed."))
    main.write(sessions / f"{MAIN_ID}.jsonl")
    # the snapshot the gateway took before the second compaction: the transcript up to it
    snapshot = sessions / f"{MAIN_ID}.checkpoint.{CHECKPOINT_UUID}.jsonl"
    cut = next(i for i, line in enumerate(main.lines) if f'"id": "{c2}"' in line)
    snapshot.write_text("".join(line + "\n" for line in main.lines[:cut]), encoding="utf-8")

    group = Transcript(GROUP_ID, cwd="/home/ops/.vora/workspace", start=start + 600_000)
    g1 = group.user("[Telegram ops-team] anna: what's our on-call rotation this week?")
    g2 = group.assistant(text("This week: Anna (Mon-Wed), Ben (Thu-Sun). Escalation: #ops-pager."))
    group.user("[Telegram ops-team] ben: and who covers the Friday release?")
    group.assistant(text("Ben, as on-call; Carla is the release captain."))
    gc = group.compaction("Rotation: Anna Mon-Wed, Ben Thu-Sun; Carla captains the Friday release.", None, 40_100)
    group.user("[Telegram ops-team] ben: actually, scratch that question")
    # anna edits her question instead: a new branch from the first answer
    group.add("branch_summary", parent=g2, fromId=group.leaf,
              summary="An abandoned thread asked who covers the Friday release (Ben; Carla as captain).")
    group.user("[Telegram ops-team] anna: can you post the rotation as a table?")
    group.assistant(text("| days | on call |\n| --- | --- |\n| Mon-Wed | Anna |\n| Thu-Sun | Ben |"))
    del g1, gc
    group.write(sessions / f"{GROUP_ID}.jsonl")

    report = run_report(sessionId=MAIN_ID, generatedAt=EXAMPLE_NOW - 300_000)
    del report["workspaceDir"]  # the gateway writes an absolute path; the example's depends on the clone
    entries = {
        "agent:main:main": entry(
            MAIN_ID, updated=EXAMPLE_NOW - 240_000, sessionFile=f"{MAIN_ID}.jsonl", chatType="direct",
            model="claude-sonnet-4-5", modelProvider="anthropic", inputTokens=13_950, outputTokens=412,
            totalTokens=14_362, totalTokensFresh=True, contextTokens=32_000, compactionCount=2,
            compactionCheckpoints=[
                {"checkpointId": "cp-1", "sessionKey": "agent:main:main", "sessionId": MAIN_ID,
                 "createdAt": EXAMPLE_NOW - 3 * 3_600_000, "reason": "auto-threshold", "tokensBefore": 118_400,
                 "tokensAfter": 21_950, "firstKeptEntryId": u2, "summary": "Fix the failing staging deploy.",
                 "preCompaction": {"sessionId": MAIN_ID}, "postCompaction": {"sessionId": MAIN_ID, "entryId": c1}},
                {"checkpointId": "cp-2", "sessionKey": "agent:main:main", "sessionId": MAIN_ID,
                 "createdAt": EXAMPLE_NOW - 3_600_000, "reason": "manual", "tokensBefore": 96_200,
                 "tokensAfter": 8_310, "firstKeptEntryId": u3, "preCompaction": {"sessionId": MAIN_ID, "sessionFile": snapshot.name},
                 "postCompaction": {"sessionId": MAIN_ID, "entryId": c2}},
            ],
            systemPromptReport=report, label="deploy fix"),
        "agent:main:telegram:group:-1001234567890": entry(
            GROUP_ID, updated=EXAMPLE_NOW - 2 * 3_600_000, chatType="group", channel="telegram",
            subject="ops-team", model="claude-sonnet-4-5", modelProvider="anthropic", totalTokens=9_480.0,
            totalTokensFresh=False, contextTokens=200_000, compactionCount=1,
            systemPromptReport={**run_report(), "source": "estimate"}),
    }
    write_store(state, entries)


def lock_time(ms: int) -> str:
    """A session lock's `createdAt` for a millisecond timestamp (the gateway writes it in UTC, with ms)."""
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def sessions_dir(state: Path, agent: str = "main") -> Path:
    """The folder of an agent's session store and transcripts."""
    return state / "agents" / agent / "sessions"


def with_transcripts(state: Path, entries: dict[str, dict[str, object]], agent: str = "main") -> Path:
    """The store with `entries` and a one-line transcript for each (the store's path)."""
    for value in entries.values():
        t = Transcript(str(value["sessionId"]))
        t.user("hi")
        t.write(sessions_dir(state, agent) / f"{value['sessionId']}.jsonl")
    return write_store(state, entries, agent=agent)


def dead_pid() -> int:
    """The pid of a process that has exited (a lock naming it is stale)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid
