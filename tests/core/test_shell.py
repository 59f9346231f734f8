"""Issue 12 point 20: a word vora prints in a command (`vora_cli/core/shell.py`) comes back as one
shell word, quoted only when it must be. The commands vora prints, through the real `vora`, are in
`tests/cli/output/test_printed_commands.py`."""

from __future__ import annotations

import re
import shlex

import pytest

from vora_cli.core.shell import command_line, shell_quote

AWKWARD = ["my engine", "it's", "a$b", "tab\there", "ünï", "-starts-with-dash", ""]


@pytest.mark.parametrize("word", [*AWKWARD, "plain", "@scope/name", "/abs/path.js", "a=b,c:d"])
def test_shell_quote_round_trips(word: str) -> None:
    assert shlex.split(command_line("vora", "x", word)) == ["vora", "x", word]
    if re.fullmatch(r"[\w@%+=:,./-]+", word, re.ASCII):
        assert shell_quote(word) == word  # nothing to quote: printed as is
