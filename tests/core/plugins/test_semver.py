"""Plugin version ranges as npm's `semver` reads them (core/plugins/semver.py).

The expected answers are the real `semver` package's (7.8.6, installed with the upstream release),
asked by `scripts/gen_semver_ranges.py` on node-semver's own `range-include`/`range-exclude` fixture
tables, on everyday plugin ranges and on 400 ranges drawn from npm's grammar.
"""

from __future__ import annotations

import json
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
    assert set(RECORDED["tables"]) == {"range-include", "range-exclude", "everyday", "generated"}
    assert RECORDED["row"] == ["range", "version", "loose", "includePrerelease", "satisfies"]


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


def test_a_huge_range_is_refused_without_work() -> None:
    with cpu_hang_guard("a 2 MiB range"):
        assert semver.satisfies("1.2.3", ">=1.2.3 " * (2 * 1024 * 1024 // 8)) is False
        assert semver.satisfies("1.2.3", "1" * (2 * 1024 * 1024)) is False
        assert semver.satisfies("1" * (2 * 1024 * 1024), "*") is False


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
