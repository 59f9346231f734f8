"""vora's own files (completion scripts, .zshrc) use the one home rule: a HOME that says nothing is the
user database's home, never the current directory (issue 12 point 17, for vora's own files too)."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from vora_cli.core.userdirs import real_home

DB_HOME = Path(pwd.getpwuid(os.getuid()).pw_dir)


@pytest.mark.parametrize("value", ["undefined", "null", "", "   ", "relative/dir", "."])
def test_a_home_that_says_nothing_is_the_user_database_home(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", value)
    assert real_home() == DB_HOME


def test_an_absolute_home_is_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("VORA_HOME", str(tmp_path / "gateway"))  # the gateway's home, not the operator's
    assert real_home() == tmp_path
