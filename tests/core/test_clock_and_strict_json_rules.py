"""The one clock (`core/clock.py`, VORA_NOW_MS) and the one strict-JSON rule (`core/strict_json.py`), on the
core; devices and the doctor reading the same clock through `vora`: tests/cli/test_cli_clock.py."""

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
