"""`vora config edit`: an editor that is not installed is named with where it came from ($VISUAL,
$EDITOR or the settings file) and the fix for that place; an editor that fails without touching
the copy leaves no temp copy behind (one it changed is kept, and named)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest


@pytest.mark.parametrize(("env", "setting", "where", "hint"), [
    ({"VISUAL": "no-such-ed-1"}, None, "(from $VISUAL)", "set VISUAL to an installed editor"),
    ({"EDITOR": "no-such-ed-2"}, None, "(from $EDITOR)", "set EDITOR to an installed editor"),
    ({}, "no-such-ed-3", "(from the editor setting in {file})", "vora settings set editor NAME"),
])
def test_a_missing_editor_is_named_with_its_source(vora, state_dir: Path, settings_file: Path,
                                                   env: dict[str, str], setting: str | None, where: str,
                                                   hint: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    if setting is not None:
        settings_file.write_text(f'editor = "{setting}"\n')
    result = vora("config", "edit", "--json", env={"VISUAL": None, "EDITOR": None, **env})
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "not_found"
    assert where.format(file=settings_file) in error["message"] and hint in error["hint"]
    assert (state_dir / "vora.json").read_text() == "{}\n"


def _editor(tmp_path: Path, body: str) -> str:
    path = tmp_path / "ed.py"
    path.write_text(f"import sys\npath = sys.argv[1]\n{body}\nsys.exit(3)\n")
    return f"{sys.executable} {path}"


@pytest.mark.parametrize(("body", "kept"), [("pass", False), ("open(path, 'a').write('// half done')", True)])
def test_a_failing_editor_keeps_a_copy_only_when_it_changed_it(vora, state_dir: Path, tmp_path: Path,
                                                               body: str, kept: bool) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    temp = Path(tempfile.gettempdir())  # the test's own TMPDIR (conftest)
    assert temp.is_relative_to(tmp_path)
    result = vora("config", "edit", "--json", env={"EDITOR": _editor(tmp_path, body), "VISUAL": None})
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["message"] == "the editor exited with status 3; nothing was written"
    left = [p for p in temp.rglob("vora.json")]
    assert len(left) == (1 if kept else 0), left
    if kept:
        assert error["hint"] == f"your copy is kept at {left[0]}"
    else:
        assert error["hint"] is None and not [p for p in temp.iterdir() if p.name.startswith("vora-edit-")]
    assert (state_dir / "vora.json").read_text() == "{}\n"
