"""RFC 7386 Appendix A, row by row, through the one production planner (`plan_merge_patch` +
`plan_edits`); the same table through the real `vora config patch` is in
`tests/cli/config/test_patch.py`."""

from __future__ import annotations

import json
from pathlib import PurePath
from typing import Any

import pytest
from config_support import APPENDIX_A, OBJECT_ROWS

from vora_cli.core.config.planning import plan_edits, plan_merge_patch
from vora_cli.core.json5.document import Json5Document


def test_the_table_is_complete() -> None:
    assert (len(APPENDIX_A), len(OBJECT_ROWS)) == (15, 10)


@pytest.mark.parametrize(("original", "patch", "result"), OBJECT_ROWS)
def test_appendix_a_through_the_planner(original: dict[str, Any], patch: dict[str, Any], result: Any) -> None:
    doc = Json5Document.parse(json.dumps(original, indent=2))
    edits = plan_merge_patch(doc.value, patch)
    new, _ = plan_edits(doc, [(edit, edit.path) for edit in edits], PurePath("vora.json"))
    assert new.value == result
    assert json.loads(new.text) == result  # a strict-JSON file stays strict JSON
