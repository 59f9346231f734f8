"""`sessions list` reads a store's rows as it reads the file (issue 24): a row that cannot be made
(a transcript path no file system holds) must not hide that the file is damaged further on. The
damaged store is skipped with its warning, as before, and the other agents are still listed."""

from __future__ import annotations

from pathlib import Path

import pytest

GOOD = '{"ok": {"sessionId": "o", "updatedAt": 1}}'
BAD_PATH = '"k": {"sessionId": "s", "updatedAt": 1, "sessionFile": "\\ud800"}'


def _state(tmp_path: Path, main_store: str) -> list[str]:
    (tmp_path / "vora.json").write_text("{agents: {list: [{id: 'main', default: true}, {id: 'ops'}]}}")
    for agent, text in (("main", main_store), ("ops", GOOD)):
        folder = tmp_path / "agents" / agent / "sessions"
        folder.mkdir(parents=True)
        (folder / "sessions.json").write_text(text)
    return ["--state-dir", str(tmp_path)]


@pytest.mark.parametrize(("store", "why"), [
    ("{" + BAD_PATH + ', "j": {"x": 1', "Expecting ',' delimiter"),  # torn: the gateway's write cut short
    ("{" + BAD_PATH + "} trailing", "Extra data"),
])
def test_a_damaged_store_is_skipped_even_after_a_row_that_cannot_be_made(vora, tmp_path: Path, store: str,
                                                                         why: str) -> None:
    at = _state(tmp_path, store)
    for args in (("sessions", "list", "--all-agents"), ("sessions", "list", "--all-agents", "--json")):
        result = vora(*at, *args)
        assert result.exit_code == 0, result.stderr
        assert why in result.stderr and "(skipped)" in result.stderr
        assert "ok" in result.stdout and "ops" in result.stdout


def test_a_whole_store_with_a_bad_path_still_says_so(vora, tmp_path: Path) -> None:
    result = vora(*_state(tmp_path, "{" + BAD_PATH + "}"), "sessions", "list", "--all-agents")
    assert result.exit_code == 1 and "\\ud800" in result.stderr and "Traceback" not in result.stderr
