"""The one clock (`core/clock.py`, VORA_NOW_MS) and the one strict-JSON rule (`core/strict_json.py`), on the
core; devices and the doctor reading the same clock through `vora`: tests/cli/common/test_clock.py."""

from __future__ import annotations

import json
import math

import pytest
from devices_support import NOW

from vora_cli.core import clock, strict_json
from vora_cli.core.errors import VoraError


def test_now_ms_is_pinned_by_vora_now_ms_and_reads_the_given_env() -> None:
    assert clock.now_ms({"VORA_NOW_MS": "123"}) == 123
    assert clock.now_ms({"VORA_NOW_MS": str(NOW)}) == NOW
    before = clock.now_ms({})
    assert abs(before - clock.now_ms({"VORA_NOW_MS": ""})) < 60_000  # empty: the real clock


@pytest.mark.parametrize("bad", ["soon", "1.5", "12ms"])
def test_a_bad_vora_now_ms_is_a_usage_error_naming_the_variable(bad: str) -> None:
    with pytest.raises(VoraError) as caught:
        clock.now_ms({"VORA_NOW_MS": bad})
    assert caught.value.code == "usage" and "VORA_NOW_MS" in caught.value.message


def test_strings_for_printed_documents_and_overflow_literals_for_the_store() -> None:
    data = {"a": [math.inf, -math.inf, math.nan, 1.5], "b": ({"c": math.inf},)}
    assert strict_json.non_finite_as_strings(data) == {"a": ["Infinity", "-Infinity", "NaN", 1.5],
                                                       "b": [{"c": "Infinity"}]}
    text = strict_json.dumps_overflowing(data)
    assert text == '{"a": [1e400, -1e400, null, 1.5], "b": [{"c": 1e400}]}'
    again = json.loads(text)
    assert again["a"][:2] == [math.inf, -math.inf]  # JSON.parse reads 1e400 as Infinity too
    assert strict_json.dumps_overflowing({"x": 1}, indent=2) == '{\n  "x": 1\n}'


# `new Date(ms).toISOString()` in Node 24 (openclaw 2026.4.12's runtime), recorded once: every year
# from 1 to 9999 has four digits, the first day of year 1 and the last millisecond of 9999 included.
_NODE_ISO = {
    -62135596800000: "0001-01-01T00:00:00.000Z",
    -62103628800000: "0002-01-06T00:00:00.000Z",
    -61000000000000: "0036-12-26T11:33:20.000Z",
    -59011459200000: "0100-01-01T00:00:00.000Z",
    -30610224000001: "0999-12-31T23:59:59.999Z",
    -30610224000000: "1000-01-01T00:00:00.000Z",
    0: "1970-01-01T00:00:00.000Z",
    1764460500000: "2025-11-29T23:55:00.000Z",
    253402300799999: "9999-12-31T23:59:59.999Z",
}


@pytest.mark.parametrize("ms", sorted(_NODE_ISO))
def test_iso_times_are_javascripts_to_the_digit(ms: int) -> None:
    assert clock.iso_utc(ms) == _NODE_ISO[ms]
    assert clock.iso_utc(float(ms)) == _NODE_ISO[ms]  # a float ms reads the other way
    assert clock.iso_or_none(ms) == _NODE_ISO[ms]


@pytest.mark.parametrize("ms", [-62135596800001, 253402300800000, 8.6e15, -8.6e15])
def test_a_time_javascript_holds_outside_the_years_1_to_9999_is_none_not_a_crash(ms: float) -> None:
    assert clock.iso_or_none(ms) is None


def test_a_time_past_the_years_1_to_9999_is_an_overflow_error() -> None:
    from datetime import UTC, datetime

    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    first, last = (datetime(1, 1, 1, tzinfo=UTC) - epoch).days, (datetime(9999, 12, 31, tzinfo=UTC) - epoch).days
    for day in (first - 1, last + 1, first - 10**6, last + 10**6):
        with pytest.raises(OverflowError):
            clock.iso_utc(day * 86_400_000)
