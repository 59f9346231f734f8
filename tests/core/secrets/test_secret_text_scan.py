"""`secret_values_in_text` scans only the lines that hold a secret word, and finds what a scan of
the whole text finds (issue 24: `doctor` on a config over the 2 MiB limit scanned all of it,
twice). The oracle is the definition: every `_MEMBER` match of the whole text, left to right,
but for those inside a secret value found."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from install_support import make_install
from pattern_counting import wrap_patterns

from vora_cli.core import secrets
from vora_cli.core.config import loading
from vora_cli.core.doctor.runner import run_doctor
from vora_cli.core.secrets import MIN_SCRUB_LENGTH, is_secret_name, secret_values_in_text


def whole_scan(text: str) -> list[str]:
    out = []
    taken = 0  # a match inside a secret value found is part of that value
    for m in re.finditer(secrets._MEMBER, text):
        if m.start() < taken:
            continue
        found = secrets._member_value(text, m)
        if found is not None and is_secret_name(m.group("name")):
            start, end, quote = found
            taken = end
            value = text[start + len(quote) : end]
            if quote and value.endswith(quote):
                value = value[: -len(quote)]
            if len(value.strip()) >= MIN_SCRUB_LENGTH:
                out.append(value)
    return out


# Pieces that make members, strings, comments and the line breaks a match may run across
# (`name \n : value`), with the secret words in several cases and a Unicode case fold (K, ſ).
PIECES = ["token", "apiKey", "api_key", "API-KEY", "Password", "secret", "cookie", "private_key", "authorization",
          "\n", "\n", "\r\n", " ", "\t", ":", ": ", "  :", "\n:", '"', "'", ",", "{", "}", "[", "]", "a", "b1", "x-",
          "$", "\\", '\\"', "//", "Basic ", "Cookie: ", "/*", "*/", "abc", "'tok'", '"xyz"', "\u212a", "\u017fecret", "é", "\u2028"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join))
def test_the_line_scan_finds_what_the_whole_scan_finds(text: str) -> None:
    assert secret_values_in_text(text) == whole_scan(text)


# A value past `_LONG_VALUE` characters is skipped by a new scan from its end: these put one (or
# a string, a comment or blanks around it) among the pieces, members and secret words inside it.
LONG_PIECES = ["A" * 1100, "ab: " * 300, "token: " + "Q" * 1200, '"' + "z " * 700, "'" + "w" * 1500 + "'",
               "password: " * 200, " " * 1500, "/*" + "c" * 1100]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.sampled_from(LONG_PIECES), max_size=30).map("".join))
def test_a_scan_that_skips_a_long_value_finds_what_the_whole_scan_finds(text: str) -> None:
    assert secret_values_in_text(text) == whole_scan(text)


@pytest.mark.parametrize("text", [
    '{ gateway: { auth: { token: "' + "QUJD" * 500_000 + "\n} } }\n",  # unterminated, to its line's end
    "{ channels: { slack: { botToken: " + "QUJD" * 500_000 + " } } }\n",  # unquoted
    '{"token":"' + "x" * 100_000 + '", "password": "' + "y" * 5_000 + '", "apiKey": "zzzzzzzzzzzz"}',
    "token: " + "a: " * 50_000 + "\npassword: " + "b" * 3_000 + " secret: cccccccccccc",
    ("token: '" + "k" * 2_000 + "'\n" + "x: 1\n" * 50) * 40,
])
def test_long_values_are_found_as_the_whole_scan_finds_them(text: str) -> None:
    assert secret_values_in_text(text) == whole_scan(text)


@pytest.mark.parametrize("text", [
    "a\n" + "  : token x\n" * 20_000,  # every line continues a member of the line before
    "\n" * 200_000 + ": token value",  # blank lines between a name and its colon
    "token: abcd\n" * 20_000,  # more secret words than the line scan is worth: one whole scan
    "token: abc, " * 20_000,  # one long line
    ("x: 1\n" * 20 + "apiKey\n\n :token-value\n") * 500,
])
def test_dense_and_continued_lines(text: str) -> None:
    assert secret_values_in_text(text) == whole_scan(text)


class CountingPattern:
    """`_MEMBER` with its `finditer` calls counted."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.calls = 0

    def finditer(self, *args: Any) -> Any:
        self.calls += 1
        return self.pattern.finditer(*args)


def test_text_without_a_secret_word_is_not_scanned(monkeypatch: pytest.MonkeyPatch) -> None:
    (counting,) = wrap_patterns(monkeypatch, CountingPattern, secrets._MEMBER)
    text = "// notes\n{\n" + "  section: { name: 'block', values: [1, 2, 3] },\n" * 40_000 + "}\n"
    assert secret_values_in_text(text) == []
    assert counting.calls == 0
    assert secret_values_in_text(text + "// apiKey: sk-live-123\n") == ["sk-live-123"]
    assert counting.calls == 1


def test_doctor_reads_a_config_over_the_limit_once_for_its_secrets(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    config = state / "vora.json"
    config.write_text("{\n  gateway: { auth: { token: 'tok-in-a-big-file' } },\n"
                      + "  // a long comment line\n" * 100_000 + "}\n")
    config.chmod(0o644)
    assert config.stat().st_size > loading.MAX_CONFIG_BYTES
    reads: list[Path] = []
    original = loading.raw_config_text

    def counting(path: Path) -> str | None:
        reads.append(path)
        return original(path)

    monkeypatch.setattr(loading, "raw_config_text", counting)
    report = run_doctor(make_install(state))
    assert reads == [config]
    checks = {c.id: c for c in report.checks}
    assert checks["config-secrets"].status == "warn"  # the raw text holds a token, readable by others
    assert all("tok-in-a-big-file" not in repr(c) for c in report.checks)
