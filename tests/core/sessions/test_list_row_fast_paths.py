"""The shortcuts a list of 100,000 sessions takes per row (issue 24) answer what the general
rule they stand in front of answers: a session key's agent and rest, a number test, an ISO time."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.clock import iso_utc
from vora_cli.core.sessions.jsfmt import is_finite_number, is_number
from vora_cli.core.sessions.store import parse_key


def _parse_key_general(key: str) -> tuple[str, str] | None:
    parts = [p for p in key.lower().split(":") if p]
    if len(parts) < 3 or parts[0] != "agent":
        return None
    return parts[1], ":".join(parts[2:])


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@settings(max_examples=2000)
@given(st.one_of(st.text(alphabet="agentAGENT:İ\u212a1x", max_size=24), st.text(max_size=24)))
def test_a_key_parses_as_the_general_rule_parses_it(key: str) -> None:
    parse_key.cache_clear()
    assert parse_key(key) == _parse_key_general(key)


def test_keys_with_empty_parts_take_the_general_rule() -> None:
    for key in ("agent:main:main", "agent::main:x", "agent:main", "agent:main:", "agent:a:b:c", "AGENT:X:Y",
                "agent:a::b", ":agent:a:b", "agent:a:b:", "agent:İ:x"):
        parse_key.cache_clear()
        assert parse_key(key) == _parse_key_general(key), key


class _Int(int):
    pass


def test_the_number_tests_answer_as_isinstance_does() -> None:
    for value in (0, -1, 2**80, 0.5, -0.0, math.inf, -math.inf, math.nan, True, False, None, "1", _Int(3), [1]):
        number = isinstance(value, int | float) and not isinstance(value, bool)
        assert is_number(value) is number, value
        assert is_finite_number(value) is (number and math.isfinite(value)), value


def _iso_general(ms: int) -> str:
    """JavaScript's `toISOString` by datetime: every year in four digits (strftime's %Y does not pad)."""
    moment = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)
    return f"{moment.year:04d}-" + moment.strftime("%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@settings(max_examples=2000)
@given(st.integers(-62_135_596_800_000, 253_402_300_799_999))
def test_an_iso_time_is_written_as_javascript_writes_it(ms: int) -> None:
    assert iso_utc(ms) == _iso_general(ms)


def test_iso_edges() -> None:
    edges: list[Any] = [0, 1, -1, 999, -30_610_224_000_000, -30_610_224_000_001, -62_135_596_800_000,
                        253_402_300_799_999]
    for ms in edges:
        assert iso_utc(ms) == _iso_general(ms), ms
