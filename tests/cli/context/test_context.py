"""`vora context list | detail | json | preview`: exact output and parsed JSON."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def install(state_dir: Path) -> Path:
    """A state dir with a commented vora.json and a workspace: AGENTS.md fits, TOOLS.md is over."""
    (state_dir / "vora.json").write_text(
        "// the test install\n{\n  agents: {\n    defaults: { workspace: './workspace' }, // relative to this file\n  },\n}\n"
    )
    ws = state_dir / "workspace"
    ws.mkdir()
    (ws / "AGENTS.md").write_text("a" * 1742 + "\n")
    (ws / "TOOLS.md").write_text("x" * 54_210)
    for name in ("SOUL.md", "IDENTITY.md", "USER.md", "BOOTSTRAP.md"):
        (ws / name).write_text("")
    skill = ws / "skills" / "deploy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: deploy\ndescription: Ship it\n---\n")
    return ws


def test_list_prints_the_spec_layout(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    result = vora("context", "list")
    assert result.exit_code == 0
    # skill block: 9 + 23 ("    <name>deploy</name>") + 38 + location + 10 + 4 newlines
    location = f"{install}/skills/deploy/SKILL.md".replace(str(install.parent.parent), "~", 1)
    block = 9 + 23 + 38 + (4 + 10 + len(location) + 11) + 10 + 4
    tok = -(-block // 4)
    assert result.stdout == (
        "🧠 Context breakdown (offline)\n"
        f"Workspace: {install}\n"
        "Bootstrap max/file: 20,000 chars (default)\n"
        "Bootstrap max/total: 150,000 chars (default)\n"
        "\n"
        "⚠ Bootstrap context is over configured limits: 1 file(s) truncated (54,210 raw chars -> 18,108 injected chars).\n"
        "Causes: 1 file(s) exceeded max/file.\n"
        "Tip: increase `agents.defaults.bootstrapMaxChars` and/or `agents.defaults.bootstrapTotalMaxChars` "
        "if this truncation is not intentional.\n"
        "\n"
        "Injected workspace files:\n"
        "- AGENTS.md: OK | raw 1,742 chars (~436 tok) | injected 1,742 chars (~436 tok)\n"
        "- SOUL.md: OK | raw 0 chars (~0 tok) | injected 0 chars (~0 tok)\n"
        "- TOOLS.md: TRUNCATED | raw 54,210 chars (~13,553 tok) | injected 18,108 chars (~4,527 tok)\n"
        "- IDENTITY.md: OK | raw 0 chars (~0 tok) | injected 0 chars (~0 tok)\n"
        "- USER.md: OK | raw 0 chars (~0 tok) | injected 0 chars (~0 tok)\n"
        "- HEARTBEAT.md: MISSING | raw 0 | injected 0\n"
        "- BOOTSTRAP.md: OK | raw 0 chars (~0 tok) | injected 0 chars (~0 tok)\n"
        "\n"
        f"Skills list (system prompt text): {block} chars (~{tok} tok) (1 skills)\n"
        "Skills: deploy\n"
        "\n"
        "Tokens are estimates (chars / 4, rounded up).\n"
    )
    assert result.stderr == ""  # the row and the ⚠ summary say it; no third time on stderr (issue 23)


def test_json_gives_the_whole_report(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    for args in (("context", "json"), ("context", "list", "--json"), ("context", "detail", "--json")):
        result = vora(*args)
        assert result.exit_code == 0, args
        doc = result.json()
        assert doc["workspace"] == str(install)
        assert doc["caps"]["maxCharsSource"] == "default"
        tools = next(f for f in doc["files"] if f["name"] == "TOOLS.md")
        assert (tools["rawChars"], tools["injectedChars"], tools["causes"]) == (54_210, 18_108, ["max/file"])
        assert (tools["rawTokensEstimate"], tools["injectedTokensEstimate"]) == (13_553, 4_527)
        heartbeat = next(f for f in doc["files"] if f["name"] == "HEARTBEAT.md")
        assert heartbeat["injectedChars"] == len(f"[MISSING] Expected at: {install / 'HEARTBEAT.md'}")
        assert doc["totals"]["rawChars"] == 1742 + 54_210
        assert doc["skills"]["names"] == ["deploy"]


def test_flags_override_caps_and_say_so(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    doc = vora("context", "json", "--max-chars", "60000", "--total-max-chars", "100000").json()
    assert doc["caps"] == {
        "maxChars": 60_000,
        "maxCharsSource": "flag",
        "totalMaxChars": 100_000,
        "totalMaxCharsSource": "flag",
    }
    assert doc["totals"]["truncatedFiles"] == 0
    out = vora("context", "list", "--max-chars", "60000").stdout
    assert "Bootstrap max/file: 60,000 chars (flag)\n" in out and "⚠" not in out


def test_fail_on_truncation_exits_1_after_the_report(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    result = vora("context", "list", "--fail-on-truncation")
    assert result.exit_code == 1
    assert result.stdout.startswith("🧠 Context breakdown (offline)\n")
    assert result.stderr.endswith(
        "error: 1 bootstrap file(s) truncated: TOOLS.md\n"
        "hint: run `vora context detail` to see what is cut, or raise agents.defaults.bootstrapMaxChars\n"
    )
    result = vora("context", "list", "--fail-on-truncation", "--json")
    assert result.exit_code == 1
    doc = result.json()  # the report a CI job needs to see why, plus ok: false
    assert doc["ok"] is False
    assert [f["name"] for f in doc["files"] if f["status"] == "TRUNCATED"] == ["TOOLS.md"]
    assert vora("context", "list", "--fail-on-truncation", "--max-chars", "60000").exit_code == 0


def test_detail_shows_dropped_lines_and_headings(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    # 300 lines of 99 chars (line k starts at unit 100 * (k - 1)): 29,999 units. The head,
    # units 0-13,999, ends with line 140's newline; the tail, 4,000 units, starts at 25,999
    # inside line 260. Dropped: units 14,000-25,998 = lines 141-260.
    lines = ["y" * 99] * 300
    lines[199] = "## Deploy".ljust(99)  # line 200
    (install / "TOOLS.md").write_text("\n".join(lines))
    out = vora("context", "detail").stdout
    assert "    kept lines 1-140, 260-300\n    dropped lines 141-260: ## Deploy" in out
    assert "Near limit (raw >= 85% of max/file): TOOLS.md\n" in out
    assert "Top skills (prompt entry size):\n- deploy: " in out


def test_preview_prints_exactly_the_injected_text(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    result = vora("context", "preview", "AGENTS.md")
    assert (result.exit_code, result.stdout) == (0, "a" * 1742)
    tools = vora("context", "preview", "TOOLS.md", "--json").json()
    assert tools["chars"] == 18_108 and len(tools["text"]) == 18_108
    missing = vora("context", "preview", "HEARTBEAT.md").stdout
    assert missing == f"[MISSING] Expected at: {install / 'HEARTBEAT.md'}"
    bad = vora("context", "preview", "NOPE.md", "--json")
    assert bad.exit_code == 1 and bad.json()["error"]["code"] == "not_found"


def test_preview_replaces_a_split_surrogate_on_output(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    (install / "TOOLS.md").write_text("a" * 69 + "\U0001f600" + "b" * 200)
    out = vora("context", "preview", "TOOLS.md", "--max-chars", "100").stdout
    assert out.startswith("a" * 69 + "\ufffd\n\n[...truncated, read TOOLS.md")


def test_session_and_workspace_flags(vora, install: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    doc = vora("context", "json", "--kind", "cron").json()
    assert [f["name"] for f in doc["files"]] == ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md"]
    other = tmp_path / "other"
    other.mkdir()
    (other / "AGENTS.md").write_text("hi")
    doc = vora("context", "json", "--workspace", str(other)).json()
    assert doc["workspace"] == str(other) and doc["files"][0]["rawChars"] == 2
    bad = vora("context", "list", "--kind", "batch", "--json")
    assert bad.exit_code == 2 and bad.json()["error"]["code"] == "usage"
    unknown = vora("context", "list", "--agent", "ghost", "--json")
    assert unknown.exit_code == 1 and unknown.json()["error"]["code"] == "agent_not_found"


def test_broken_config_is_a_parse_error(vora, state_dir: Path) -> None:  # type: ignore[no-untyped-def]
    (state_dir / "vora.json").write_text("{ agents: ")
    result = vora("context", "list", "--json")
    assert result.exit_code == 1 and result.json()["error"]["code"] == "parse_error"


def test_example_install_shows_a_truncated_file(vora) -> None:  # type: ignore[no-untyped-def]
    repo = Path(__file__).resolve().parents[3]
    doc = vora("--state-dir", str(repo / "examples" / "vora"), "context", "json").json()
    assert doc["totals"]["truncatedFiles"] >= 1


def test_a_fifo_in_the_workspace_counts_as_missing_and_does_not_hang(vora, install: Path) -> None:  # type: ignore[no-untyped-def]
    import os

    (install / "SOUL.md").unlink(missing_ok=True)
    os.mkfifo(install / "SOUL.md")
    from hang_guard import blocking_hang_guard

    with blocking_hang_guard("context json with a FIFO in the workspace"):
        doc = vora("context", "json").json()
    soul = next(f for f in doc["files"] if f["name"] == "SOUL.md")
    assert soul["status"] == "MISSING"
