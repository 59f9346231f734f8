"""Issue 12, point 7 (acceptance audit): the excerpt of an unparseable config line hides a value that
sat below a secret-named key earlier on the line, found from the line's start (not the window's), in
linear work on a 2 MiB line. Doctor showing such excerpts is in `tests/cli/doctor/test_messages.py`."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

import pytest
from hang_guard import cpu_hang_guard
from pattern_counting import wrap_patterns

from vora_cli.core import secrets
from vora_cli.core.secrets import hide_literal_values


def test_literals_are_found_from_the_line_start_not_the_window() -> None:
    line = '{ notes: "' + "x" * 100 + '", port: @ }'
    start = 50  # inside the string
    assert hide_literal_values(line, start, len(line)) == '<redacted>, port: @ }'


class _CountingPattern:
    """A compiled pattern that counts what it hands the regex engine: characters given to search
    (from `pos` to the match's end, or to `endpos`) and to finditer, and matches the caller reads."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.chars = 0
        self.matches = 0

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        found = self.pattern.search(string, pos, endpos)
        self.chars += (found.end() if found else min(endpos, len(string))) - pos
        self.matches += found is not None
        return found

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        self.chars += min(endpos, len(string)) - pos
        for found in self.pattern.finditer(string, pos, endpos):
            self.matches += 1
            yield found


@pytest.mark.parametrize("line", [
    "a" * 2_000_000, '"' + "b" * 2_000_000, "'\\" * 1_000_000, "a:" * 1_000_000, '"x",' * 500_000,
    "token: " + "QUJD" * 500_000,
], ids=["word", "open-string", "escapes", "pairs", "many-strings", "token"])
@pytest.mark.parametrize("at_end", [False, True], ids=["window-at-start", "window-at-end"])
def test_hiding_is_linear_on_a_2_mib_line(monkeypatch: pytest.MonkeyPatch, line: str, at_end: bool) -> None:
    """Doctor shows a 120-character window; the window may sit at the end of a 2 MiB line.

    Bounded by work, not time: the regex engine is handed each character at most twice, and
    Python reads one match per string literal before the window (only a string can reach into
    it) plus the window's own tokens, never a match per token of the whole line. The regex
    engine's own work (a backtracking pattern would take hours here) is held by a hang guard."""
    strings, literals = wrap_patterns(monkeypatch, _CountingPattern, secrets._STRING_LITERAL, secrets._LITERAL)
    start = len(line) - 120 if at_end else 0
    with cpu_hang_guard("hide_literal_values on a 2 MiB line"):
        hide_literal_values(line, start, start + 120, words_from=0)
    assert strings.chars + literals.chars <= 2 * len(line)
    quotes_before = line.count('"', 0, start) + line.count("'", 0, start)  # each string opens with one
    assert strings.matches <= quotes_before
    assert literals.matches <= 120 + 1  # the window's tokens, and one string reaching into it
