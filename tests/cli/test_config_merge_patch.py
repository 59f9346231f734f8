"""`vora config patch` is RFC 7386 merge patch: the examples of RFC 7386 Appendix A, row by row.

The rows run through the one production planner (`plan_merge_patch` + `plan_edits`) and, for
the whole table, through the real `vora config patch` on a file on disk. vora.json is an
object and a patch must be an object, so the rows whose original or patch is not an object
are checked as refusals of the command instead.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePath
from typing import Any

import pytest

from vora_cli.core.config.planning import plan_edits, plan_merge_patch
from vora_cli.core.json5.document import Json5Document

# RFC 7386, Appendix A: (original, patch, result), verbatim.
APPENDIX_A: list[tuple[Any, Any, Any]] = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]
OBJECT_ROWS = [row for row in APPENDIX_A if isinstance(row[0], dict) and isinstance(row[1], dict)]
OTHER_ROWS = [row for row in APPENDIX_A if row not in OBJECT_ROWS]


def test_the_table_is_complete() -> None:
    assert (len(APPENDIX_A), len(OBJECT_ROWS)) == (15, 10)


@pytest.mark.parametrize(("original", "patch", "result"), OBJECT_ROWS)
def test_appendix_a_through_the_planner(original: dict[str, Any], patch: dict[str, Any], result: Any) -> None:
    doc = Json5Document.parse(json.dumps(original, indent=2))
    edits = plan_merge_patch(doc.value, patch)
    new, _ = plan_edits(doc, [(edit, edit.path) for edit in edits], PurePath("vora.json"))
    assert new.value == result
    assert json.loads(new.text) == result  # a strict-JSON file stays strict JSON


@pytest.mark.parametrize(("original", "patch", "result"), OBJECT_ROWS)
def test_appendix_a_through_vora_config_patch(original: dict[str, Any], patch: dict[str, Any], result: Any,
                                              vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(json.dumps(original, indent=2) + "\n")
    run = vora("config", "patch", "--force", "-", input=json.dumps(patch))
    assert run.exit_code == 0, run.stderr
    assert json.loads(config.read_text()) == result


@pytest.mark.parametrize(("original", "patch", "result"), OTHER_ROWS)
def test_rows_outside_an_object_config_are_refused_and_write_nothing(original: Any, patch: Any, result: Any,
                                                                     vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    text = json.dumps(original) + "\n"
    config.write_text(text)
    run = vora("config", "patch", "--force", "-", "--json", input=json.dumps(patch))
    assert run.exit_code == 1
    assert run.json()["error"]["code"] == "invalid"
    assert config.read_text() == text
