"""Issue 12, point 7 (acceptance audit): doctor's excerpt of an unparseable config line never shows
a value that sat below a secret-named key earlier on that line — whether the error itself is below
it (hidden) or a secret subtree closed before it on the same line (not hidden)."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hang_guard import cpu_hang_guard

from vora_cli.core import secrets
from vora_cli.core.secrets import hide_literal_values

MARK = "ZQXVmarker"

SHAPES = {
    # The error is below the secret-named key; a value parsed before it is on the line.
    "array of strings": '{ apiKeys: [ "' + MARK + '1", ' + MARK + "2 ] }\n",
    "map below a token key": '{ botTokens: { main: "' + MARK + '" oops: 1 } }\n',
    "closed array before the error": '{ apiKeys: [ "' + MARK + '" ], port: 12 34 }\n',
    "number below cookie": "{ cookie: { a: 12345678" + MARK[:0] + ", b: 1 2 } }\n",
    # The secret subtree closes on the error's line, the error is outside it: not hidden.
    "subtree closing on the line": '{ botTokens: {\n  main: "' + MARK + '" }, port: 12 34 }\n',
    "array of objects closing": '{ creds: [ {\n privateKey: "x" }, { privateKey:\n "' + MARK
    + '" } ], port: 1 2 }\n',
    "secret after the error": '{ port: 12 34, apiKeys: [ "' + MARK + '" ] }\n',
}


@pytest.mark.parametrize("text", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("json_mode", [False, True])
def test_doctor_excerpt_hides_values_of_secrets(state_dir: Path, vora, text: str, json_mode: bool) -> None:
    (state_dir / "vora.json").write_text(text)
    run = vora("doctor", "--json", "--only", "config-syntax") if json_mode else vora("doctor")
    assert run.exit_code == 1
    shown = run.stdout + run.stderr
    assert MARK not in shown
    assert "12345678" not in shown
    assert "config-syntax" in shown


def test_the_excerpt_still_shows_the_shape(state_dir: Path, vora) -> None:
    (state_dir / "vora.json").write_text('{ botTokens: {\n  main: "' + MARK + '" }, port: 18789 18790 }\n')
    check = vora("doctor", "--json", "--only", "config-syntax").json()["checks"][0]
    assert check["details"][0] == "2 | main: <redacted> }, port: 18789 18790 }"


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
    strings = _CountingPattern(secrets._STRING)
    literals = _CountingPattern(secrets._LITERAL)
    monkeypatch.setattr(secrets, "_STRING", strings)
    monkeypatch.setattr(secrets, "_LITERAL", literals)
    start = len(line) - 120 if at_end else 0
    with cpu_hang_guard("hide_literal_values on a 2 MiB line"):
        hide_literal_values(line, start, start + 120, words_from=0)
    assert strings.chars + literals.chars <= 2 * len(line)
    quotes_before = line.count('"', 0, start) + line.count("'", 0, start)  # each string opens with one
    assert strings.matches <= quotes_before
    assert literals.matches <= 120 + 1  # the window's tokens, and one string reaching into it
