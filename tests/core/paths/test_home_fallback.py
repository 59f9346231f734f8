"""Issue 12 point 17: a HOME that says nothing is never the current directory or `/`."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import resolve_home, resolve_paths

DB_HOME = Path(pwd.getpwuid(os.getuid()).pw_dir)

UNSAID = ["undefined", "null", "", "   ", " undefined ", "relative/dir", "~", "."]


@pytest.mark.parametrize("value", UNSAID)
def test_a_home_that_says_nothing_is_the_user_database_home(value: str) -> None:
    assert resolve_home({"HOME": value}) == DB_HOME
    assert resolve_paths(env={"HOME": value}).state_dir == DB_HOME / ".vora"


def test_an_unset_home_is_the_user_database_home() -> None:
    assert resolve_home({}) == DB_HOME


@pytest.mark.parametrize("value", ["undefined", "null", "", " null"])
def test_vora_home_literals_fall_through_to_home_then_the_database(value: str, tmp_path: Path) -> None:
    assert resolve_home({"VORA_HOME": value, "HOME": str(tmp_path)}) == tmp_path
    assert resolve_home({"VORA_HOME": value, "HOME": "undefined"}) == DB_HOME


def test_vora_home_tilde_uses_the_real_home_not_a_bogus_home(tmp_path: Path) -> None:
    assert resolve_home({"VORA_HOME": "~/vh", "HOME": "null"}) == DB_HOME / "vh"
    assert resolve_home({"VORA_HOME": "~/vh", "HOME": str(tmp_path)}) == tmp_path / "vh"


@pytest.mark.parametrize("value", ["relative", "./x", "~x"])
def test_a_relative_vora_home_is_a_usage_error(value: str) -> None:
    with pytest.raises(VoraError) as caught:
        resolve_home({"VORA_HOME": value})
    assert caught.value.code == "usage"
    assert "VORA_HOME" in caught.value.message
