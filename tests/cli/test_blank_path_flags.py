"""Issue 12 point 17, another member of the class (acceptance audit): a path flag that says nothing
(`--state-dir "$DIR"` with DIR unset) never resolves to the current directory — it is a usage
error, exit 2, and nothing is written anywhere."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

COMMANDS = [("config", "set", "gateway.port", "18800"), ("config", "get"), ("doctor",), ("plugins", "list"),
            ("config", "file")]


@pytest.mark.parametrize("flag", ["--state-dir", "--config"])
@pytest.mark.parametrize("value", ["", "  ", "\t"])
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_blank_path_flag_is_a_usage_error(flag: str, value: str, args: tuple[str, ...], vora: Callable[..., Run],
                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    result = vora("--json", flag, value, *args)
    assert result.exit_code == 2, result.stdout
    error = result.json()["error"]
    assert error["code"] == "usage" and flag in error["message"]
    assert list(work.iterdir()) == []


def test_a_real_path_flag_still_works(vora: Callable[..., Run], tmp_path: Path) -> None:
    state = tmp_path / "s"
    assert vora("--state-dir", str(state), "config", "set", "gateway.port", "18800").exit_code == 0
    assert (state / "vora.json").exists()
