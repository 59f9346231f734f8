"""One voice (`core/wording.py`, docs/terminal.md "One voice"): one size formatter, one plural,
one similarity floor for every "did you mean", one rounding for a limit vora suggests."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vora_cli.core.wording import closest, edit_distance, plural, round_up, size_text


@pytest.mark.parametrize(("count", "shown"), [
    (0, "0 B"), (812, "812 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (9_300, "9.1 KiB"),
    (1_048_575, "1.0 MiB"), (3_250_586, "3.1 MiB"), (2 * 1024**3, "2.0 GiB"), (5 * 1024**4, "5.0 TiB"),
    (None, "missing"),
])
def test_sizes_are_binary_with_one_decimal(count: int | None, shown: str) -> None:
    assert size_text(count) == shown


@given(st.integers(0, 2**60))
def test_a_size_never_shows_1024_of_a_unit(count: int) -> None:
    number, unit = size_text(count).split(" ")
    assert unit in ("B", "KiB", "MiB", "GiB", "TiB")
    assert unit == "TiB" or float(number) < 1024


@pytest.mark.parametrize(("count", "word", "shown"), [
    (1, "production dependency", "1 production dependency"),
    (3, "production dependency", "3 production dependencies"),
    (0, "file", "0 files"), (1, "file", "1 file"), (2, "key", "2 keys"), (2, "match", "2 matches"),
    (1_200, "session", "1,200 sessions"),
])
def test_plural(count: int, word: str, shown: str) -> None:
    assert plural(count, word) == shown


@pytest.mark.parametrize(("word", "candidates", "guess"), [
    ("nope", ["copyme", "my-engine"], None),  # issue 38: nothing rather than a wrong guess
    ("--bogus", ["--verbose", "--enabled", "--json"], None),
    ("botTokn", ["botToken", "webhookUrl"], "botToken"),
    ("prot", ["port", "bind"], "port"),
    ("fial-on", ["fail-on", "fix"], "fail-on"),  # two neighbours swapped: one edit
    ("confg", ["config", "context"], "config"),
    ("editorial", ["editor"], None),
    ("a", ["b"], None),
    ("Config", ["config"], "config"),
])
def test_a_guess_only_within_the_typo_limit(word: str, candidates: list[str], guess: str | None) -> None:
    assert closest(word, candidates) == guess


@given(st.text("abcde", max_size=8), st.text("abcde", max_size=8))
def test_edit_distance_is_symmetric_and_bounded(a: str, b: str) -> None:
    limit = 3
    assert edit_distance(a, b, limit) == edit_distance(b, a, limit)
    assert edit_distance(a, b, limit) <= limit + 1
    assert (edit_distance(a, b, limit) == 0) == (a == b)


@pytest.mark.parametrize(("value", "rounded"), [
    (27_666.1, 28_000), (29_590, 30_000), (165_000, 170_000), (934, 940), (28_000, 28_000), (7.2, 8),
])
def test_round_up_to_two_figures(value: float, rounded: int) -> None:
    assert round_up(value) == rounded
