"""Issue 23, "Terminals": `context list --session` says which view it prints and when that run was;
`context list` says each fact once (the row and the ⚠ summary, not a stderr warning besides)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import EXAMPLES

STATE = ["--state-dir", str(EXAMPLES / "vora")]
RUN_AT = 1764460500000  # the example session's systemPromptReport.generatedAt (2025-11-29 23:55 UTC)


def test_list_says_a_cut_file_once_on_stdout_and_not_again_on_stderr(vora) -> None:
    result = vora(*STATE, "context", "list")
    assert result.exit_code == 0
    assert "TOOLS.md" not in result.stderr and "25151" not in result.stderr
    assert result.stdout.count("- TOOLS.md: TRUNCATED | raw 25,151 chars") == 1
    # what the report does not show still is a warning: the dropped skill (list has no section for it)
    assert result.stderr.splitlines() == [
        f"warning: skill draft-idea ({EXAMPLES / 'vora' / 'workspace' / 'skills' / 'draft-idea' / 'SKILL.md'}) "
        "dropped: no description"]
    doc = vora(*STATE, "context", "list", "--json").json()
    assert any("TOOLS.md is 25151 chars" in w for w in doc["warnings"])  # JSON keeps the gateway's words


def test_detail_shows_the_dropped_skill_and_warns_about_nothing_it_shows(vora) -> None:
    result = vora(*STATE, "context", "detail")
    assert result.stderr == ""
    assert "- draft-idea: no description (" in result.stdout


def test_a_missing_workspace_is_still_a_warning(vora, tmp_path: Path) -> None:
    result = vora("--state-dir", str(tmp_path), "context", "list", "--workspace", str(tmp_path / "none"))
    assert f"warning: workspace {tmp_path / 'none'} does not exist" in result.stderr


def test_session_view_says_it_is_the_gateway_s_report_and_when_that_run_was(vora) -> None:
    plain = vora(*STATE, "context", "list", "--session", "main", env={"VORA_NOW_MS": str(RUN_AT + 2 * 86_400_000)})
    assert plain.exit_code == 0
    assert plain.stdout.startswith("🧠 Context breakdown\n")  # the gateway's reply, byte for byte
    assert plain.stderr == (
        "the gateway's own /context report of agent:main:main, from its last run at 2025-11-29 23:55 UTC "
        f"(2d ago); the files as they are now: vora --state-dir {EXAMPLES / 'vora'} context list (without --session)\n")
    offline = vora(*STATE, "context", "list")
    assert offline.stdout.startswith("🧠 Context breakdown (offline)\n")


def test_a_session_without_a_run_report_says_it_is_the_offline_estimate(vora) -> None:
    result = vora(*STATE, "context", "list", "--session", "telegram:group:-1001234567890")
    assert result.stdout.startswith("🧠 Context breakdown (offline)\n")
    assert result.stderr.splitlines()[0] == (
        "Session agent:main:telegram:group:-1001234567890 has no run report from the gateway: this is the offline "
        "estimate of the workspace files as they are now")


def _with_run_at(tmp_path: Path, generated: float) -> list[str]:
    import json
    import shutil

    state = tmp_path / "state"
    shutil.copytree(EXAMPLES / "vora", state, symlinks=True)
    store = state / "agents" / "main" / "sessions" / "sessions.json"
    data = json.loads(store.read_text())
    data["agent:main:main"]["systemPromptReport"]["generatedAt"] = generated
    store.write_text(json.dumps(data))
    return ["--state-dir", str(state)]


def test_a_run_time_javascript_holds_but_no_calendar_shows_is_unknown_not_a_crash(vora, tmp_path: Path) -> None:
    # 8.6e15 ms is year 274,493: a JavaScript Date, not a Python one (it was "unexpected error")
    for generated in (8.6e15, -8.6e15, -62135596800001):
        result = vora(*_with_run_at(tmp_path / str(generated), generated), "context", "list", "--session", "main")
        assert result.exit_code == 0, result.stderr
        assert "from its last run (time unknown); " in result.stderr


def test_a_run_before_the_year_1000_has_four_digits_as_javascript_writes_it(vora, tmp_path: Path) -> None:
    result = vora(*_with_run_at(tmp_path, -61000000000000), "context", "list", "--session", "main",
                  env={"VORA_NOW_MS": str(RUN_AT)})
    assert "from its last run at 0036-12-26 11:33 UTC (" in result.stderr  # node: 0036-12-26T11:33:20.000Z
