"""vora's own files (completion scripts, .zshrc) use the one home rule: a HOME that says nothing is the
user database's home, never the current directory (issue 12 point 17, for vora's own files too)."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pytest

from vora_cli.core.shell_install import shell_files

DB_HOME = Path(pwd.getpwuid(os.getuid()).pw_dir)


@pytest.mark.parametrize("value", ["undefined", "null", "", "   ", "relative/dir", "."])
def test_a_home_that_says_nothing_is_the_user_database_home(value: str) -> None:
    assert shell_files("zsh", {"HOME": value}).rc == DB_HOME / ".zshrc"
    assert shell_files("bash", {"HOME": value}).rc == DB_HOME / ".bashrc"


def test_an_absolute_home_is_used(tmp_path: Path) -> None:
    # VORA_HOME is the gateway's home, not the operator's
    env = {"HOME": str(tmp_path), "VORA_HOME": str(tmp_path / "gateway")}
    assert shell_files("zsh", env).rc == tmp_path / ".zshrc"
