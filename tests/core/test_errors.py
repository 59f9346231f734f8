"""The closed list of error codes (`vora_cli/core/errors.py`): each is in docs/errors.md with its
exit code, and no other code can be raised."""

from __future__ import annotations

from pathlib import Path

import pytest

from vora_cli.core.errors import ERROR_CODES, VoraError

REPO = Path(__file__).resolve().parents[2]


def test_error_codes_are_documented() -> None:
    doc = (REPO / "docs" / "errors.md").read_text()
    for code, (exit_code, _) in ERROR_CODES.items():
        assert f"| `{code}` | {exit_code} |" in doc, f"docs/errors.md does not list {code}"
    with pytest.raises(ValueError):
        VoraError("made_up", "x")
