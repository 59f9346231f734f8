"""Issue 12 point 17 through the CLI: a HOME that says nothing never puts files in the current directory."""

from __future__ import annotations

import os
import pwd
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

DB_HOME = Path(pwd.getpwuid(os.getuid()).pw_dir)


@pytest.mark.parametrize("value", ["undefined", "null", ""])
def test_cli_with_a_bogus_home_reads_the_user_database_home(
        value: str, vora: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VORA_HOME")
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    result = vora("config", "file", "--json", env={"HOME": value})
    assert result.exit_code == 0, result.stderr
    assert result.json()["path"] == str(DB_HOME / ".vora" / "vora.json")
    # A write (state dir and config given, so nothing lands in the real home) leaves the
    # current directory alone.
    target = tmp_path / "c.json5"
    target.write_text("{}\n")
    done = vora("--state-dir", str(tmp_path / "state"), "--config", str(target), "config", "set", "gateway.port",
                "18800", env={"HOME": value})
    assert done.exit_code == 0, done.stderr
    assert list(work.iterdir()) == []


def test_cli_relative_vora_home_is_exit_2(vora: Callable[..., Run]) -> None:
    result = vora("config", "file", "--json", env={"VORA_HOME": "undefined-dir"})
    assert result.exit_code == 2
    assert result.json()["error"]["code"] == "usage"
