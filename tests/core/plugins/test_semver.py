"""Plugin version ranges as npm's `semver` reads them (core/plugins/semver.py).

The expected answers are the real `semver` package's (7.8.6, installed with the upstream release),
asked by `scripts/gen_semver_ranges.py` on node-semver's own `range-include`/`range-exclude` fixture
tables, on everyday plugin ranges, on 400 ranges drawn from npm's grammar, and on long and odd ranges
(past 4,096 characters, up to 1 MiB: semver has no length limit, so vora has none).
"""

from __future__ import annotations

import json
from itertools import groupby
from pathlib import Path

import pytest
from hang_guard import cpu_hang_guard
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.plugins import semver

DATA = Path(__file__).resolve().parents[2] / "data" / "upstream" / "semver-ranges.json"
RECORDED = json.loads(DATA.read_text(encoding="utf-8"))


def test_the_answers_come_from_npms_semver() -> None:
    assert RECORDED["semver"].startswith("7.")
    assert set(RECORDED["tables"]) == {"range-include", "range-exclude", "everyday", "generated", "long"}
    assert RECORDED["row"] == ["range", "version", "loose", "includePrerelease", "satisfies"]
    assert RECORDED["long_row"] == ["prefix", "unit", "times", "suffix", "version", "loose", "includePrerelease",
                                    "satisfies"]


@pytest.mark.parametrize("table", ["range-include", "range-exclude", "everyday", "generated"])
def test_every_recorded_answer_is_semvers(table: str) -> None:
    rows = RECORDED["tables"][table]
    assert len(rows) > 90
    wrong = [(rng, version, loose, pre, want) for rng, version, loose, pre, want in rows
             if semver.satisfies(version, rng, loose=loose, include_prerelease=pre) is not want]
    assert wrong == []


def test_the_fixture_tables_hold_both_verdicts_and_both_options() -> None:
    include, exclude = RECORDED["tables"]["range-include"], RECORDED["tables"]["range-exclude"]
    assert all(row[4] is True for row in include) and all(row[4] is False for row in exclude)
    assert any(row[2] for row in include) and any(row[3] for row in exclude)  # loose, includePrerelease


@pytest.mark.parametrize(("version", "range_text", "ok"), [
    ("2026.4.30", "2026.4.x || >=2027", True),  # an alternative npm accepts: the install is not refused
    ("2027.3.1", "2026.4.x || >=2027", True),
    ("2026.5.0", "2026.4.x || >=2027", False),
    ("1.9.0", "~1", True), ("2.0.0", "~1", False),
    ("0.0.7", "^0.0", True), ("0.1.0", "^0.0", False),
    ("1.4.0", "1.x", True), ("1.2.9", "1.2.*", True), ("1.3.0", "1.2.*", False),
    ("2.3.4", "1.2.3 - 2.3.4", True), ("2.3.5", "1.2.3 - 2.3.4", False),
    ("2026.4.24", ">= 2026.4.24", True), ("2026.4.12", ">= 2026.4.24", False),  # a space after the operator
    ("2026.4.30-beta.1", ">=2026.4.24", False),  # a prerelease satisfies no release range
    ("2026.4.24-rc.2", ">=2026.4.24-rc.1", True),  # ...but one of its own version's prereleases
    ("v2026.4.12", "2026.4.12", True), ("2026.4.12", "", True), ("2026.4.12", "*", True),
])
def test_everyday_ranges(version: str, range_text: str, ok: bool) -> None:
    assert semver.satisfies(version, range_text) is ok


def test_unreadable_ranges_and_versions_are_false_not_errors() -> None:
    assert semver.valid_range("not a range") is False
    assert semver.satisfies("1.2.3", "not a range") is False
    assert semver.satisfies("not a version", "*") is False
    assert semver.satisfies("", "*") is False
    assert semver.satisfies("1.2.3", ">=1.2.3\n") is True  # npm trims JavaScript's whitespace


# The long table's rows by recipe (prefix, unit, times, suffix): the range is prefix + unit * times + suffix.
LONG = {recipe: [row[4:] for row in rows]
        for recipe, rows in groupby(RECORDED["tables"]["long"], key=lambda row: tuple(row[:4]))}
MIB = 1024 * 1024


def _wrong(recipe: tuple[str, str, int, str]) -> list[tuple[str, bool, bool, bool]]:
    prefix, unit, times, suffix = recipe
    text = prefix + unit * times + suffix
    return [(version, loose, pre, want) for version, loose, pre, want in LONG[recipe]
            if semver.satisfies(version, text, loose=loose, include_prerelease=pre) is not want]


@pytest.mark.parametrize("recipe", [r for r in LONG if len(r[1]) * r[2] < MIB], ids=lambda r: f"{r[1]!r}x{r[2]}")
def test_a_long_range_is_read_as_semver_reads_it(recipe: tuple[str, str, int, str]) -> None:
    # around the 4,096 characters vora once refused past, and well beyond; the longest runs of what
    # `[v=\s]*` takes (`v`, `= `), read from each of their positions, run far past the hang guard
    with cpu_hang_guard(f"{recipe[1]!r} x {recipe[2]}"):
        assert _wrong(recipe) == []


@pytest.mark.slow
@pytest.mark.parametrize("recipe", [r for r in LONG if len(r[1]) * r[2] >= MIB], ids=lambda r: f"{r[1]!r}x{r[2]}")
def test_a_1_mib_range_is_read_in_linear_time(recipe: tuple[str, str, int, str]) -> None:
    # semver reads a range of any length: a 1 MiB one of comparators, each read once
    with cpu_hang_guard(f"a 1 MiB range of {recipe[1]!r}"):
        assert _wrong(recipe) == []


@settings(max_examples=3000)
@given(st.text(alphabet=st.sampled_from(list("vv==  \t<>1.0-a+x*|~^")), max_size=40))
def test_skipping_what_cannot_match_changes_nothing(text: str) -> None:
    # the linear search gives exactly the plain search's text (semver's `replace` of COMPARATORTRIM)
    plain = semver._re("comparator_trim").sub(lambda m: m.group(1) + m.group(2) + m.group(3), text)
    assert semver._trim_comparators(text) == plain


def test_a_huge_version_is_refused_without_work() -> None:
    with cpu_hang_guard("a 2 MiB version"):
        assert semver.satisfies("1" * (2 * MIB), "*") is False
        assert semver.parse_version("1.2.3-" + "a" * (2 * MIB)) is None


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("0123456789.xX*^~<>=|- v+abrc\t")), max_size=60),
       st.text(alphabet=st.sampled_from(list("0123456789.-+abrcv")), max_size=20),
       st.booleans(), st.booleans())
def test_any_text_gives_a_verdict(range_text: str, version: str, loose: bool, pre: bool) -> None:
    answer = semver.satisfies(version, range_text, loose=loose, include_prerelease=pre)
    assert answer in (True, False)
    if semver.parse_version(version) is not None and semver.valid_range(range_text):
        assert semver.satisfies(version, f"{range_text} || <0.0.0-0", loose=loose, include_prerelease=pre) is answer


@settings(max_examples=200)
@given(st.tuples(*(st.integers(0, 3000),) * 3), st.lists(st.sampled_from(["alpha", "1", "rc", "0"]), max_size=2))
def test_a_version_satisfies_itself_and_its_caret(parts: tuple[int, int, int], pre: list[str]) -> None:
    text = ".".join(map(str, parts)) + ("-" + ".".join(pre) if pre else "")
    assert semver.satisfies(text, text) and semver.satisfies(text, f"^{text}") and semver.satisfies(text, f"~{text}")
    assert semver.satisfies(text, f">={text}") and not semver.satisfies(text, f">{text}")
