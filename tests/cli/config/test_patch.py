"""`vora config patch` is RFC 7386 merge patch: the examples of RFC 7386 Appendix A, row by row.

The rows run through the real `vora config patch` on a file on disk (through the production
planner alone in `tests/core/config/test_merge_patch.py`). vora.json is an object and a patch
must be an object, so the rows whose original or patch is not an object are checked as refusals
of the command instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from config_support import OBJECT_ROWS, OTHER_ROWS


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
