"""`vora config edit`: an editor that is not installed is named with where it came from ($VISUAL,
$EDITOR or the settings file) and the fix for that place; an editor that fails without touching
the copy leaves no temp copy behind (one it changed is kept, and named).

`vora config edit` reports the paths it changed, as every other write does (issue 12, point 20).
"""

from __future__ import annotations

import json
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


BEFORE = '{\n  // mine\n  gateway: { port: 18789, auth: { token: "s3cret-value" } },\n  note: "a",\n  old: 1,\n}\n'


def _rewriting_editor(tmp_path: Path, replacement: str) -> str:
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\nopen(sys.argv[1], 'w').write({replacement!r})\n")
    return f"{sys.executable} {script}"


def test_edit_json_lists_the_changed_paths(vora, state_dir: Path, tmp_path: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(BEFORE)
    after = ('{\n  // mine\n  gateway: { port: 18800, auth: { token: "n3w-value" } },\n  note: "a",\n'
             '  added: [1],\n}\n')
    result = vora("config", "edit", "--force", "--json", env={"EDITOR": _rewriting_editor(tmp_path, after)})
    assert result.exit_code == 0, result.stdout
    changes = {c["key"]: c for c in result.json()["changes"]}
    assert set(changes) == {"gateway.port", "gateway.auth.token", "added", "old"}
    assert (changes["gateway.port"]["old"], changes["gateway.port"]["new"]) == (18789, 18800)
    assert changes["gateway.auth.token"]["new"] == "<redacted>"
    assert "n3w-value" not in result.stdout and "s3cret" not in result.stdout
    assert changes["added"]["action"] == "add" and changes["old"]["action"] == "remove"
    assert config.read_text() == after


def test_edit_human_output_and_audit_name_the_paths(vora, state_dir: Path, tmp_path: Path) -> None:
    import json

    config = state_dir / "vora.json"
    config.write_text(BEFORE)
    after = BEFORE.replace('note: "a"', 'note: "b"')
    result = vora("config", "edit", "--force", env={"EDITOR": _rewriting_editor(tmp_path, after)})
    assert result.exit_code == 0
    assert 'Updated note: a -> b' in result.stdout
    audit = (state_dir / "logs" / "config-audit.jsonl").read_text().splitlines()
    assert json.loads(audit[-1])["paths"] == ["note"]


def test_edit_repairs_a_file_that_does_not_parse(vora, state_dir: Path, tmp_path: Path) -> None:
    config = state_dir / "vora.json"
    for broken in ("{a: 1,, }", '{gateway: {port: 1}\n', "\xff{}"):
        config.write_text(broken, encoding="latin-1")
        assert vora("config", "get", "a").exit_code == 1
        result = vora("config", "edit", "--force", "--json", env={"EDITOR": _rewriting_editor(tmp_path, "{a: 2}\n")})
        assert result.exit_code == 0, result.stdout
        assert [c["key"] for c in result.json()["changes"]] == ["a"]
        assert config.read_text() == "{a: 2}\n"
        assert config.with_name("vora.json.bak").read_bytes() == broken.encode("latin-1")


@pytest.mark.parametrize("mode", [("--json",), ("--query", "changes[].key"), ()], ids=["json", "query", "piped"])
def test_what_the_editor_prints_never_reaches_vora_s_stdout(vora_process, state_dir: Path, tmp_path: Path,
                                                            mode: tuple[str, ...]) -> None:
    """An editor draws its screen on its stdout (an editor script prints there): with --json or
    --query vora's stdout is one document, and piped it is vora's report; the editor's output goes
    to stderr, where the terminal it draws on still is."""
    (state_dir / "vora.json").write_text(BEFORE)
    script = tmp_path / "loud.py"
    after = BEFORE.replace('note: "a"', 'note: "b"')
    script.write_text("import sys\nprint('\\x1b[2J EDITOR SCREEN')\n"
                      f"open(sys.argv[1], 'w').write({after!r})\n")
    done = vora_process("--state-dir", str(state_dir), "config", "edit", "--force", *mode,
                        env={"EDITOR": f"{sys.executable} {script}", "VISUAL": ""})
    assert done.returncode == 0, done.stderr
    assert "EDITOR SCREEN" not in done.stdout and "EDITOR SCREEN" in done.stderr
    if mode == ("--json",):
        assert [c["key"] for c in json.loads(done.stdout)["changes"]] == ["note"]
    elif mode:
        assert json.loads(done.stdout) == ["note"]
    else:
        assert "Updated note: a -> b" in done.stdout
