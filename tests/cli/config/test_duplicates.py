"""Duplicate keys are valid JSON5 and the gateway takes the last one (issue 12, point 19).

vora reads them the same way; `validate` and `doctor` warn, naming both positions and which copy
is ignored; an edit through a duplicated member stops with a clear error, never writing the
ignored copy.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TOP = "{ gateway: {port: 18789}, gateway: {port: 18800} }\n"
NESTED = '{\n  agents: {\n    defaults: {\n      bootstrapMaxChars: 100,\n      bootstrapMaxChars: 200,\n    },\n  },\n}\n'
IN_ARRAY = '{\n  agents: {list: [{id: "a", id: "b"}]},\n}\n'


@pytest.mark.parametrize(
    ("text", "path", "value"),
    [(TOP, "gateway.port", "18800"), (NESTED, "agents.defaults.bootstrapMaxChars", "200"),
     (IN_ARRAY, "agents.list[0].id", "b")],
)
def test_the_last_copy_wins_for_every_reader(vora, state_dir: Path, text: str, path: str, value: str) -> None:
    (state_dir / "vora.json").write_text(text)
    assert vora("config", "get", path).stdout == value + "\n"
    assert vora("context", "list").exit_code == 0


def test_validate_names_both_positions_and_the_ignored_copy(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text(NESTED)
    result = vora("config", "validate", "--json")
    assert result.exit_code == 0
    [problem] = result.json()["problems"]
    assert problem["severity"] == "warn"
    assert (problem["line"], problem["col"], problem["key"]) == (4, 7, "agents.defaults.bootstrapMaxChars")
    assert "this copy (line 4, col 7) is ignored; the one at line 5, col 7 wins" in problem["message"]
    human = vora("config", "validate")
    assert ":4:7: warn: agents.defaults.bootstrapMaxChars: duplicate key" in human.stdout


def test_doctor_warns_about_a_duplicate_key(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text(TOP)
    result = vora("doctor", "--json")
    checks = {c["id"]: c for c in result.json()["checks"]}
    schema = checks["config-schema"]
    assert schema["status"] != "pass"
    assert any("duplicate key" in d and "line 1, col 27 wins" in d for d in schema["details"])


@pytest.mark.parametrize(
    ("text", "args"),
    [
        (TOP, ("config", "set", "gateway.port", "18801")),
        (TOP, ("config", "unset", "gateway.port")),
        (TOP, ("config", "unset", "gateway")),
        (NESTED, ("config", "set", "agents.defaults.bootstrapMaxChars", "300")),
        (NESTED, ("config", "unset", "agents.defaults.bootstrapMaxChars")),
        (IN_ARRAY, ("config", "set", "agents.list[0].id", "c")),
    ],
)
def test_an_edit_through_a_duplicated_key_stops_and_writes_nothing(vora, state_dir: Path, text: str,
                                                                   args: tuple[str, ...]) -> None:
    config = state_dir / "vora.json"
    config.write_text(text)
    result = vora(*args)
    assert result.exit_code == 1
    assert "appears 2 times" in result.stderr and "the gateway uses the last one" in result.stderr
    assert "remove the ignored copy" in result.stderr
    assert config.read_text() == text
    if "[" not in args[2]:  # the same member through a merge patch ({a: {b: null}})
        segments = args[2].split(".")
        patch = "".join(f"{{{seg}: " for seg in segments) + "null" + "}" * len(segments)
        patched = vora("config", "patch", "-", input=patch)
        assert patched.exit_code == 1 and "appears 2 times" in patched.stderr
        assert config.read_text() == text


def test_an_edit_elsewhere_keeps_both_copies(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(TOP)
    assert vora("config", "set", "gateway.bind", "lan").exit_code == 1  # through `gateway`: refused
    assert vora("config", "set", "plugins.enabled", "false").exit_code == 0
    text = config.read_text()
    assert text.startswith("{ gateway: {port: 18789}, gateway: {port: 18800}")
    assert vora("config", "get", "gateway.port").stdout == "18800\n"


# -- the refusal names each ignored copy by line *and column*: copies often share a line, and
# "ignores line 1" says nothing then (issue 12 point 19, acceptance audit) ---------------------

SAME_LINE_CASES = [
    ("{ gateway: { port: 1 }, gateway: { port: 2 } }\n", "gateway.port", "7", "ignores line 1, col 3;"),
    ("{ plugins: { entries: { a: { enabled: true }, a: { enabled: false } } } }\n",
     "plugins.entries.a.enabled", "true", "ignores line 1, col 25;"),
    ("{\n  x: 1, x: 2, x: 3,\n}\n", "x", "7", "ignores line 2, col 3, line 2, col 9;"),
]


@pytest.mark.parametrize(("text", "path", "value", "ignored"), SAME_LINE_CASES, ids=["top", "nested", "three-copies"])
def test_the_refusal_names_the_ignored_copies_by_line_and_column(state_dir: Path, vora, text: str, path: str,
                                                                 value: str, ignored: str) -> None:
    (state_dir / "vora.json").write_text(text)
    result = vora("config", "set", path, value, "--json")
    assert result.exit_code == 1
    assert ignored in result.json()["error"]["message"]
    assert (state_dir / "vora.json").read_text() == text
