"""Agent ids mean the same everywhere (issue 18): one rule (spec sessions.md, "Agent ids") for
`vora context`, `vora sessions`, plugin discovery and the doctor, and the session's context path
reads `vora.json` once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from install_support import count_config_parses
from sessions_support import entry, run_report, write_store

CONFIG = """// two agents, one with a name that is not an id
{
  agents: {
    list: [
      { id: "main" },
      { id: "Ops Team", workspace: "./ops-ws" },
    ],
  },
}
"""


@pytest.fixture
def install(state_dir: Path) -> Path:
    (state_dir / "vora.json").write_text(CONFIG)
    workspace = state_dir / "ops-ws"
    workspace.mkdir()
    (workspace / "AGENTS.md").write_text("# Ops\nBe brief.\n")
    (workspace / "SOUL.md").write_text("calm\n")
    write_store(state_dir, {"agent:ops-team:main": entry("s-ops")}, agent="ops-team")
    return state_dir


def _workspace_and_files(doc: dict[str, object]) -> tuple[object, dict[str, object]]:
    files = {f["name"]: f["status"] for f in doc["files"]}  # type: ignore[index, union-attr]
    return doc["workspace"], files


def test_the_session_s_offline_estimate_uses_the_configured_workspace(vora, install: Path) -> None:
    result = vora("context", "json", "--session", "agent:ops-team:main")
    assert result.exit_code == 0, result.stderr
    doc = result.json()
    workspace, files = _workspace_and_files(doc)
    assert workspace == str(install / "ops-ws")  # not ~/.vora/workspace-ops-team with every file missing
    assert files["AGENTS.md"] == "OK" and files["SOUL.md"] == "OK"
    assert doc["source"] == "offline-estimate" and doc["session"]["agentId"] == "ops-team"


@pytest.mark.parametrize("spelled", ["ops-team", "Ops Team", " OPS-TEAM "])
def test_agent_takes_the_same_ids_as_sessions(vora, install: Path, spelled: str) -> None:
    context = vora("context", "json", "--agent", spelled)
    assert context.exit_code == 0, context.stdout
    assert context.json()["workspace"] == str(install / "ops-ws")
    sessions = vora("sessions", "list", "--agent", spelled, "--json")
    assert sessions.exit_code == 0 and [s["key"] for s in sessions.json()["sessions"]] == ["agent:ops-team:main"]


def test_an_unknown_agent_is_the_same_error_for_both(vora, install: Path) -> None:
    for args in (["context", "json", "--agent", "ghost"], ["sessions", "list", "--agent", "ghost", "--json"]):
        error = vora(*args).json()["error"]
        assert error["code"] == "agent_not_found" and "known agents: main, ops-team" in error["hint"]


def test_doctor_checks_the_normalised_agent_s_workspace(vora, install: Path) -> None:
    (install / "workspace").mkdir()  # main's: ~/.vora/workspace
    (install / "workspace" / "AGENTS.md").write_text("# Main\n")
    doc = vora("doctor", "--only", "workspace", "--json").json()
    check = doc["checks"][0]
    assert check["id"] == "workspace" and check["status"] in ("pass", "info"), check
    assert str(install / "workspace-ops team") not in json.dumps(doc)


def test_the_run_report_path_falls_back_to_the_agent_s_workspace(vora, install: Path) -> None:
    report = run_report(sessionKey="agent:ops-team:main")
    del report["workspaceDir"]
    write_store(install, {"agent:ops-team:main": entry("s-ops", systemPromptReport=report)}, agent="ops-team")
    result = vora("context", "detail", "--session", "agent:ops-team:main")
    assert result.exit_code == 0, result.stderr
    assert f"Workspace: {install / 'ops-ws'}" in result.stdout


def test_vora_json_is_parsed_once_on_the_session_path(vora, install: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed = count_config_parses(monkeypatch)
    assert vora("context", "json", "--session", "agent:ops-team:main").exit_code == 0
    assert parsed == [install / "vora.json"]
    parsed.clear()
    assert vora("context", "list", "--agent", "ops-team").exit_code == 0
    assert parsed == [install / "vora.json"]
