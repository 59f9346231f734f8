"""`vora sessions list|show` and `vora context … --session` through the real app (spec sessions.md).

`session_not_found` hints at a `vora sessions list` that works (spec sessions.md: "Nothing found →
`session_not_found`, exit 1, with a hint to run `vora sessions list`"): `--agent X` only for a
configured agent (any other id is `agent_not_found` there), else `--all-agents`, which also lists
the agents found only on disk. The hinted command is run, and must succeed.

`sessions show --json` writes its streamed segments into one template (issue 24): the text is
the encoder's own for every shape a segment takes (tool calls, attachments, errors, no preview,
non-ASCII, lone surrogates and characters a terminal acts on), for UTF-8 and ASCII stdout.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES
from sessions_support import NOW, Transcript, entry, run_report, text, tool_call, write_store

from vora_cli.cli.json_text import to_json

ENV = {"VORA_NOW_MS": str(NOW)}
MINUTE = 60_000


@pytest.fixture
def install(state_dir: Path) -> Path:
    """Two agents; main has a compacted session with a run report, a group chat and a stale total."""
    (state_dir / "vora.json").write_text(
        "// test install\n{\n  agents: {\n    defaults: { workspace: './workspace' },\n"
        "    list: [{ id: 'main', default: true }, { id: 'ops' }],\n  },\n}\n"
    )
    (state_dir / "workspace").mkdir()
    (state_dir / "workspace" / "AGENTS.md").write_text("hello\n")
    sessions = state_dir / "agents" / "main" / "sessions"
    t = Transcript("s-main")
    t.user("first question")
    t.assistant(text("first answer"), tool_call("c1", "read", {"path": "notes.md"}))
    t.tool_result("c1", "read", [text("API_TOKEN=abcdef123456 and the notes")])
    kept = t.user("kept question")
    t.compaction("what happened so far", kept, 50_000)
    t.user("latest question")
    t.write(sessions / "s-main.jsonl")
    g = Transcript("s-group")
    g.user("group hello")
    g.write(sessions / "s-group.jsonl")
    write_store(state_dir, {
        "agent:main:main": entry("s-main", updated=NOW - 5 * MINUTE, model="claude-sonnet-4-5",
                                 modelProvider="anthropic", totalTokens=14_300, contextTokens=32_000,
                                 compactionCount=1, inputTokens=14_000, outputTokens=300,
                                 systemPromptReport=run_report()),
        "agent:main:telegram:group:-100123": entry("s-group", updated=NOW - 3 * 3_600_000, chatType="group",
                                                   totalTokens=9_000, totalTokensFresh=False),
        "agent:main:subagent:worker": entry("s-gone", updated=NOW - 30 * MINUTE, spawnedBy="agent:main:main",
                                            status="done"),
        "agent:main:bad": 7,
    })
    write_store(state_dir, {"agent:ops:main": entry("s-ops", updated=NOW - 2 * MINUTE, totalTokens=200_000,
                                                    contextTokens=200_000)}, agent="ops")
    return state_dir


def run(vora, *args: str) -> Any:  # type: ignore[no-untyped-def]
    return vora(*args, env=ENV)


# --- sessions list ---------------------------------------------------------------------------


def test_list_human(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(vora, "sessions", "list")
    assert result.exit_code == 0, result.stderr
    size = (install / "agents/main/sessions/s-main.jsonl").stat().st_size
    group = (install / "agents/main/sessions/s-group.jsonl").stat().st_size
    rows = [line.split("  ") for line in result.stdout.splitlines()]
    assert [[c.strip() for c in r if c.strip()] for r in rows[:4]] == [
        ["KEY", "AGENT", "KIND", "AGE", "MODEL", "CONTEXT", "COMPACTIONS", "TRANSCRIPT"],
        ["agent:main:main", "main", "main", "5m ago", "claude-sonnet-4-5", "14k/32k (45%)", "1", f"{size / 1024:.1f} KiB"
         if size >= 1024 else f"{size} B"],
        ["agent:main:subagent:worker", "main", "subagent", "30m ago", "-", "unknown/? (?%)", "0", "missing"],
        ["agent:main:telegram:group:-100123", "main", "group", "3h ago", "-", "unknown/? (?%)", "0",
         f"{group} B"],
    ]


def test_list_json_rows_and_context_window_fallback(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    text_ = (install / "vora.json").read_text().replace("workspace: './workspace' }", "workspace: './workspace', contextTokens: 32000 }")
    (install / "vora.json").write_text(text_)
    doc = run(vora, "sessions", "list", "--json").json()
    assert doc["stateDir"] == str(install) and doc["activeMinutes"] is None and doc["count"] == 3
    assert doc["stores"] == [{"agentId": "main", "path": str(install / "agents/main/sessions/sessions.json"),
                              "configured": True, "error": None}]
    first = doc["sessions"][0]
    assert set(first) == {"agentId", "key", "kind", "sessionId", "updatedAt", "updatedAtMs", "ageMs", "chatType", "model",
                          "modelProvider", "label", "totalTokens", "totalTokensFresh", "contextUsed",
                          "contextTokens", "contextPercent", "compactionCount", "transcriptPath",
                          "transcriptBytes", "hasRunReport"}
    assert (first["key"], first["contextUsed"], first["contextTokens"], first["contextPercent"]) == (
        "agent:main:main", 14_300, 32_000, 45)
    assert first["ageMs"] == 5 * MINUTE and first["hasRunReport"] is True
    group = doc["sessions"][2]
    assert (group["totalTokens"], group["totalTokensFresh"], group["contextUsed"], group["contextPercent"]) == (
        9_000, False, None, None)
    sub = doc["sessions"][1]
    assert sub["transcriptBytes"] is None and sub["compactionCount"] == 0 and sub["totalTokens"] is None


def test_list_agents_active_and_errors(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    doc = run(vora, "sessions", "list", "--all-agents", "--active", "10", "--json").json()
    assert [r["key"] for r in doc["sessions"]] == ["agent:ops:main", "agent:main:main"]
    assert doc["activeMinutes"] == 10 and [s["agentId"] for s in doc["stores"]] == ["main", "ops"]
    assert run(vora, "sessions", "list", "--agent", "OPS", "--json").json()["count"] == 1
    ghost = run(vora, "sessions", "list", "--agent", "ghost", "--json")
    assert ghost.exit_code == 1 and ghost.json()["error"]["code"] == "agent_not_found"
    for bad in (["--agent", "ops", "--all-agents"], ["--active", "0"], ["--active", "-5"], ["--active", "x"]):
        result = run(vora, "sessions", "list", *bad, "--json")
        assert result.exit_code == 2 and result.json()["error"]["code"] == "usage", bad


def test_an_unreadable_store(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    (install / "agents/ops/sessions/sessions.json").write_text('{"agent:ops:main": {,}}')
    result = run(vora, "sessions", "list", "--all-agents", "--json")
    assert result.exit_code == 0  # another store could be read
    doc = result.json()
    assert doc["stores"][1]["error"].startswith(str(install / "agents/ops/sessions/sessions.json") + ":1:")
    assert "skipped" in result.stderr
    alone = run(vora, "sessions", "list", "--agent", "ops", "--json")
    assert alone.exit_code == 1 and alone.json()["error"]["code"] == "store_unreadable"
    show = run(vora, "sessions", "show", "agent:ops:main")
    assert show.exit_code == 1 and "sessions.json:1:" in show.stderr


_OPENED: list[str] | None = None


def _record_opens(event: str, args: tuple[Any, ...]) -> None:
    if _OPENED is not None and event == "open" and isinstance(args[0], str | Path):
        _OPENED.append(str(args[0]))


def test_list_never_opens_a_transcript(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    """Every file the interpreter opens during the command is recorded (an audit hook)."""
    import sys

    global _OPENED
    sys.addaudithook(_record_opens)  # stays installed; records only while _OPENED is a list
    _OPENED = []
    try:
        doc = run(vora, "sessions", "list", "--all-agents", "--json").json()
        opened = list(_OPENED)
        _OPENED = []
        run(vora, "sessions", "show", "main", "--json")
        shown = list(_OPENED)
    finally:
        _OPENED = None
    main = next(r for r in doc["sessions"] if r["key"] == "agent:main:main")
    assert doc["count"] == 4 and main["transcriptBytes"] > 0
    assert str(install / "agents/main/sessions/sessions.json") in opened
    assert not [p for p in opened if p.endswith(".jsonl")]
    assert str(install / "agents/main/sessions/s-main.jsonl") in shown  # the hook does see transcripts


# --- sessions show ---------------------------------------------------------------------------


def test_show_resolves_keys_request_keys_and_ids(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    for arg in ("agent:main:main", "AGENT:MAIN:MAIN", "main", "", "s-main"):
        doc = run(vora, "sessions", "show", arg, "--json").json()
        assert doc["key"] == "agent:main:main", arg
    assert run(vora, "sessions", "show", "telegram:group:-100123", "--json").json()["kind"] == "group"
    assert run(vora, "sessions", "show", "main", "--agent", "ops", "--json").json()["key"] == "agent:ops:main"
    missing = run(vora, "sessions", "show", "nope")
    assert missing.exit_code == 1 and "vora sessions list" in missing.stderr
    assert run(vora, "sessions", "show", "nope", "--json").json()["error"]["code"] == "session_not_found"


def test_show_json_sections(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    doc = run(vora, "sessions", "show", "main", "--json").json()
    assert doc["storePath"] == str(install / "agents/main/sessions/sessions.json")
    assert doc["entry"]["reportSource"] == "run" and doc["entry"]["inputTokens"] == 14_000
    (compaction,) = doc["compactions"]
    assert compaction["onLeafPath"] and compaction["summaryChars"] == len("what happened so far")
    assert compaction["summaryTokens"] == 5 and compaction["preview"] == "what happened so far"
    transcript = doc["transcript"]
    assert transcript["exists"] and transcript["entries"] == 6 and transcript["lines"] == 7
    assert transcript["byType"] == {"message": 5, "compaction": 1}
    assert transcript["byRole"] == {"user": 3, "assistant": 1, "toolResult": 1}
    assert transcript["badLines"] == [] and transcript["tornTail"] is False and transcript["branchPoints"] == []
    assert transcript["header"]["id"] == "s-main" and transcript["header"]["version"] == 3
    context = doc["context"]
    assert context["compactionId"] == compaction["entryId"] and context["messages"] == 3
    assert [s["kind"] for s in context["segments"]] == ["compaction-summary", "user", "user"]
    assert context["totalChars"] == sum(s["chars"] for s in context["segments"])


def test_show_human_lists_segments_and_the_largest(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    out = run(vora, "sessions", "show", "agent:main:main").stdout
    assert "What the model sees now after compaction" in out
    assert "before the per-run pruning of old tool results" in out
    assert "#1 user ~4 tok" in out and "kept question" in out
    assert out.index("Largest segments") > out.index("#2 user")


def test_show_a_missing_transcript(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(vora, "sessions", "show", "subagent:worker")
    assert result.exit_code == 0
    assert f"transcript missing: {install / 'agents/main/sessions/s-gone.jsonl'}" in result.stdout
    assert "lineage: spawnedBy agent:main:main" in result.stdout
    doc = run(vora, "sessions", "show", "subagent:worker", "--json").json()
    assert doc["transcript"]["exists"] is False and doc["context"] is None


def test_show_bad_lines_still_exit_0(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    path = install / "agents/main/sessions/s-group.jsonl"
    path.write_text(path.read_text() + "garbage\n" + '{"type":"message","id":"ab')
    result = run(vora, "sessions", "show", "telegram:group:-100123", "--json")
    assert result.exit_code == 0
    assert result.json()["transcript"]["badLines"] == [3] and result.json()["transcript"]["tornTail"] is True


def test_no_preview_prints_no_transcript_content(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    for args in (["--no-preview"], ["--no-preview", "--json"]):
        result = run(vora, "sessions", "show", "main", *args)
        assert result.exit_code == 0
        for word in ("question", "answer", "happened", "notes", "abcdef123456"):
            assert word not in result.stdout + result.stderr, (args, word)
    doc = run(vora, "sessions", "show", "main", "--no-preview", "--json").json()
    assert all(s["preview"] is None for s in doc["context"]["segments"])
    assert all(c["preview"] is None for c in doc["compactions"])


def test_previews_are_redacted(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    path = install / "agents/main/sessions/s-group.jsonl"
    t = Transcript("s-group")
    t.user("deploy with GITHUB_TOKEN=ghp_" + "Z" * 30 + " please")
    t.write(path)
    out = run(vora, "sessions", "show", "telegram:group:-100123").stdout
    assert "GITHUB_TOKEN=<redacted> please" in out and "ZZZZ" not in out


# --- context --session -----------------------------------------------------------------------


LIST_REPLY = (
    "🧠 Context breakdown\n"
    "Workspace: /home/me/.vora/workspace\n"
    "Bootstrap max/file: 20,000 chars\n"
    "Bootstrap max/total: 150,000 chars\n"
    "Sandbox: mode=off sandboxed=false\n"
    "System prompt (run): 31,250 chars (~7,813 tok) (Project Context 21,850 chars (~5,463 tok))\n"
    "\n"
    "⚠ Bootstrap context is over configured limits: 1 file(s) truncated (55,952 raw chars -> 19,850 injected chars).\n"
    "Causes: 1 file(s) exceeded max/file.\n"
    "Tip: increase `agents.defaults.bootstrapMaxChars` and/or `agents.defaults.bootstrapTotalMaxChars` "
    "if this truncation is not intentional.\n"
    "\n"
    "Injected workspace files:\n"
    "- AGENTS.md: OK | raw 1,742 chars (~436 tok) | injected 1,742 chars (~436 tok)\n"
    "- TOOLS.md: TRUNCATED | raw 54,210 chars (~13,553 tok) | injected 18,108 chars (~4,527 tok)\n"
    "- HEARTBEAT.md: MISSING | raw 0 | injected 0\n"
    "\n"
    "Skills list (system prompt text): 2,184 chars (~546 tok) (2 skills)\n"
    "Skills: weather, github\n"
    "Tool list (system prompt text): 1,540 chars (~385 tok)\n"
    "Tool schemas (JSON): 12,044 chars (~3,011 tok) (counts toward context; not shown as text)\n"
    "Tools: read, exec, message\n"
    "\n"
    "Session tokens (cached): 14,300 total / ctx=32,000\n"
)


def test_context_list_session_is_the_gateway_reply(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    for key in ("agent:main:main", "main", "s-main"):
        result = run(vora, "context", "list", "--session", key)
        assert result.exit_code == 0 and result.stdout == LIST_REPLY
        assert result.stderr.startswith("the gateway's own /context report of agent:main:main, from its last run at ")


def test_context_detail_session(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    out = run(vora, "context", "detail", "--session", "main").stdout
    lines = out.split("\n")
    assert lines[0] == "🧠 Context breakdown (detailed)" and "" not in lines[:-1] and out.endswith("\n")
    start = lines.index("Top skills (prompt entry size):")
    assert lines[start + 1 : start + 3] == ["- weather: 1,200 chars (~300 tok)", "- github: 984 chars (~246 tok)"]
    tools = lines.index("Top tools (schema size):")
    assert lines[tools + 1] == "- message: 8,844 chars (~2,211 tok)"
    params = lines.index("Tools (param count):")
    assert lines[params + 1 : params + 4] == ["- exec: 7 params", "- read: 3 params", "Tracked prompt estimate: 43,294 chars (~10,824 tok)"]
    assert lines[-4:] == ["Actual context usage (cached): 14,300 tok",
                          "Untracked provider/runtime overhead: ~3,476 tok",
                          "Session tokens (cached): 14,300 total / ctx=32,000", ""]


def test_context_json_session(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    report = run_report()
    expected = json.dumps({"report": report, "session": {"totalTokens": 14_300, "totalTokensFresh": None,
                                                         "inputTokens": 14_000, "outputTokens": 300,
                                                         "contextTokens": 32_000}},
                          indent=2, ensure_ascii=False) + "\n"
    for args in (["json"], ["list", "--json"], ["detail", "--json"]):
        result = run(vora, "context", *args, "--session", "main")
        assert result.exit_code == 0 and result.stdout == expected, args


def test_context_session_reply_edge_rules(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    tools = [{"name": f"t{i}", "summaryChars": 10, "schemaChars": i, "propertiesCount": None} for i in range(35)]
    skills = [{"name": "a", "blockChars": 5}, {"name": "a", "blockChars": 7}]
    report = run_report(tools={"listChars": 1.5, "schemaChars": 20000.0, "entries": tools},
                        skills={"promptChars": 12, "entries": skills}, injectedWorkspaceFiles=[],
                        sandbox={}, bootstrapMaxChars=None, workspaceDir=None)
    store = install / "agents/main/sessions/sessions.json"
    data = json.loads(store.read_text())
    data["agent:main:main"].update(systemPromptReport=report, totalTokensFresh=False)
    store.write_text(json.dumps(data))
    out = run(vora, "context", "list", "--session", "main").stdout
    assert f"Workspace: {install / 'workspace'}\n" in out
    assert "Bootstrap max/file: 20,000 chars\n" in out and "Sandbox: mode=unknown sandboxed=false\n" in out
    assert "Skills list (system prompt text): 12 chars (~3 tok) (1 skills)\nSkills: a\n" in out
    assert "Tool list (system prompt text): 1.5 chars (~1 tok)\n" in out
    assert ", t29, … (+5 more)\n" in out and "⚠" not in out
    assert out.endswith("Session tokens (cached): unknown / ctx=32,000\n")
    detail = run(vora, "context", "detail", "--session", "main").stdout
    assert "… (+5 more tools)\n" in detail and "Tools (param count)" not in detail
    assert "- a: 7 chars (~2 tok)\n- a: 5 chars (~2 tok)\n" in detail  # top skills: not de-duplicated
    assert "Actual context usage (cached): unavailable\n" in detail


def test_context_session_without_a_run_report(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    result = run(vora, "context", "list", "--session", "telegram:group:-100123")
    assert result.exit_code == 0
    assert result.stdout.startswith("🧠 Context breakdown (offline)\n")
    assert ("Session agent:main:telegram:group:-100123 has no run report from the gateway: this is the offline "
            "estimate of the workspace files as they are now") in result.stderr
    doc = run(vora, "context", "json", "--session", "subagent:worker").json()
    assert doc["source"] == "offline-estimate"
    assert doc["session"] == {"key": "agent:main:subagent:worker", "agentId": "main", "kind": "subagent"}
    assert [f["name"] for f in doc["files"]] == ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md"]


def test_context_session_usage_errors(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    for kind in ("subagent", "cron"):
        result = run(vora, "context", "list", "--session", kind)
        assert result.exit_code == 2 and "--kind" in result.stderr
    for extra in (["--kind", "main"], ["--workspace", "/tmp"], ["--max-chars", "5"], ["--total-max-chars", "5"]):
        result = run(vora, "context", "list", "--session", "main", *extra, "--json")
        assert result.exit_code == 2 and result.json()["error"]["code"] == "usage", extra
    missing = run(vora, "context", "json", "--session", "nope")
    assert missing.exit_code == 1 and missing.json()["error"]["code"] == "session_not_found"


# --- read-only, always ----------------------------------------------------------------------


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int]]:
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            info = os.lstat(path)
            data = path.read_bytes() if stat.S_ISREG(info.st_mode) else b""
            out[str(path)] = (data, info.st_mode, info.st_mtime_ns)
    return out


def test_every_command_leaves_every_file_untouched(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    lock = install / "agents/main/sessions/s-main.jsonl.lock"
    lock.write_text(json.dumps({"pid": 1, "createdAt": "2020-01-01T00:00:00.000Z"}))
    before = snapshot(install)
    commands = [
        ["sessions", "list"], ["sessions", "list", "--json"], ["sessions", "list", "--all-agents", "--active", "60"],
        ["sessions", "show", "main"], ["sessions", "show", "main", "--json"], ["sessions", "show", "main", "--no-preview"],
        ["sessions", "show", "telegram:group:-100123"], ["sessions", "show", "subagent:worker"],
        ["context", "list", "--session", "main"], ["context", "detail", "--session", "main"],
        ["context", "json", "--session", "main"], ["context", "list", "--session", "subagent:worker"],
        ["doctor"], ["doctor", "--json"], ["doctor", "--fix", "--dry-run"],
    ]
    for args in commands:
        result = run(vora, *args)
        assert result.exit_code in (0, 1), (args, result.stderr)
        assert snapshot(install) == before, args


# --- the example install ----------------------------------------------------------------------


def test_the_example_sessions(vora) -> None:  # type: ignore[no-untyped-def]
    state = str(EXAMPLES / "vora")
    doc = vora("--state-dir", state, "sessions", "list", "--json").json()
    assert [r["key"] for r in doc["sessions"]] == ["agent:main:main", "agent:main:telegram:group:-1001234567890"]
    main = vora("--state-dir", state, "sessions", "show", "main", "--json").json()
    assert len(main["compactions"]) == 2 and all(c["onLeafPath"] for c in main["compactions"])
    assert [c["reason"] for c in main["compactions"]] == ["auto-threshold", "manual"]
    assert [c["snapshotExists"] for c in main["checkpoints"]] == [False, True]
    assert "Bearer <redacted>" in json.dumps(main) and "ghp_R4nd" not in json.dumps(main)
    group = vora("--state-dir", state, "sessions", "show", "agent:main:telegram:group:-1001234567890", "--json").json()
    assert group["transcript"]["branchPoints"] and group["compactions"][0]["onLeafPath"] is False
    assert vora("--state-dir", state, "context", "list", "--session", "main").stdout.startswith("🧠 Context breakdown\n")


def test_the_checked_in_example_is_what_the_builder_writes(tmp_path: Path) -> None:
    from sessions_support import example_sessions

    example_sessions(tmp_path)
    built = tmp_path / "agents/main/sessions"
    shipped = EXAMPLES / "vora/agents/main/sessions"
    assert sorted(p.name for p in built.iterdir()) == sorted(p.name for p in shipped.iterdir())
    for path in built.iterdir():
        assert path.read_bytes() == (shipped / path.name).read_bytes(), path.name


def test_a_real_process_lists_the_examples(vora_process) -> None:  # type: ignore[no-untyped-def]
    result = vora_process("--state-dir", str(EXAMPLES / "vora"), "sessions", "list", "--json")
    assert result.returncode == 0 and json.loads(result.stdout)["count"] == 2


def test_streamed_json_is_the_emitted_document(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    """`show --json` to a pipe streams its segments; the bytes equal the one-document form."""
    from install_support import make_install

    from vora_cli.core.sessions.show import show_session

    streamed = run(vora, "--state-dir", str(install), "sessions", "show", "main", "--json").stdout
    detail = show_session(make_install(install, now_ms=NOW), "main")
    assert streamed == to_json(detail.to_dict(), indent=None) + "\n"
    indented = vora("--state-dir", str(install), "sessions", "show", "main", "--json",
                    env={**ENV, "VORA_JSON_INDENT": "2"}).stdout
    assert json.loads(indented) == json.loads(streamed)




@pytest.fixture
def state(state_dir: Path) -> Path:
    (state_dir / "vora.json").write_text("{ agents: { list: [{ id: 'main', default: true }] } }\n")
    write_store(state_dir, {"agent:main:main": entry("s-main")})
    write_store(state_dir, {"agent:disk:main": entry("s-disk")}, agent="disk")  # on disk, not configured
    return state_dir


def _hinted_command(vora: Any, *args: str) -> list[str]:
    result = vora(*args, env=ENV)
    assert result.exit_code == 1 and "no session" in result.stderr, result.stderr
    hint = next(line for line in result.stderr.splitlines() if line.startswith("hint: "))
    return shlex.split(hint.split("`")[1])[1:]  # the words after `vora`


@pytest.mark.parametrize(("key", "expected"), [
    ("agent:main:nope", ["sessions", "list", "--agent", "main"]),
    ("agent:ghost:main", ["sessions", "list", "--all-agents"]),  # no such agent at all
    ("agent:disk:nope", ["sessions", "list", "--all-agents"]),  # a store on disk, agent not configured
])
def test_the_hinted_list_command_works(vora: Any, state: Path, key: str, expected: list[str]) -> None:
    words = _hinted_command(vora, "sessions", "show", key)
    assert words == expected
    assert vora(*words, env=ENV).exit_code == 0


def test_context_session_hint_too(vora: Any, state: Path) -> None:
    words = _hinted_command(vora, "context", "list", "--session", "agent:ghost:main")
    assert words == ["sessions", "list", "--all-agents"]
    assert vora(*words, env=ENV).exit_code == 0
