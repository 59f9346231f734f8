"""Builders for session stores and transcripts, line by line, as the gateway writes them."""

from __future__ import annotations

import json
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
