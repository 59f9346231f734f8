"""`vora config edit` reports the paths it changed, as every other write does (issue 12, point 20)."""

from __future__ import annotations

import sys
from pathlib import Path

BEFORE = '{\n  // mine\n  gateway: { port: 18789, auth: { token: "s3cret-value" } },\n  note: "a",\n  old: 1,\n}\n'


def _editor(tmp_path: Path, replacement: str) -> str:
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\nopen(sys.argv[1], 'w').write({replacement!r})\n")
    return f"{sys.executable} {script}"


def test_edit_json_lists_the_changed_paths(vora, state_dir: Path, tmp_path: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(BEFORE)
    after = ('{\n  // mine\n  gateway: { port: 18800, auth: { token: "n3w-value" } },\n  note: "a",\n'
             '  added: [1],\n}\n')
    result = vora("config", "edit", "--force", "--json", env={"EDITOR": _editor(tmp_path, after)})
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
    result = vora("config", "edit", "--force", env={"EDITOR": _editor(tmp_path, after)})
    assert result.exit_code == 0
    assert 'Updated note: a -> b' in result.stdout
    audit = (state_dir / "logs" / "config-audit.jsonl").read_text().splitlines()
    assert json.loads(audit[-1])["paths"] == ["note"]


def test_edit_repairs_a_file_that_does_not_parse(vora, state_dir: Path, tmp_path: Path) -> None:
    config = state_dir / "vora.json"
    for broken in ("{a: 1,, }", '{gateway: {port: 1}\n', "\xff{}"):
        config.write_text(broken, encoding="latin-1")
        assert vora("config", "get", "a").exit_code == 1
        result = vora("config", "edit", "--force", "--json", env={"EDITOR": _editor(tmp_path, "{a: 2}\n")})
        assert result.exit_code == 0, result.stdout
        assert [c["key"] for c in result.json()["changes"]] == ["a"]
        assert config.read_text() == "{a: 2}\n"
        assert config.with_name("vora.json.bak").read_bytes() == broken.encode("latin-1")
