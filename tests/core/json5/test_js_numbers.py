"""Numbers as JavaScript reads and prints them: what the gateway sees in a config.

The expected answers are Node's (`tests/data/upstream/js-numbers-node.json`, recorded once by
`scripts/gen_js_numbers.py` with the json5 parser the gateway uses): groups of spellings of one
value (`3`, `3.00`, `3e0`, `0x3`; `-0` and `1e-400`; a 400-digit integer and `Infinity`; 2,800
literals from seeded random doubles), each with `String(n)` and `JSON.stringify(n)`. vora must
read every literal JSON5 reads (and no other), print it as `String(n)`, and take two literals for
the same Number exactly when JavaScript does (`String` equal: the shortest round-trip digits
name one double, `-0` prints `0`, NaN is NaN).
"""

from __future__ import annotations

import json
import math
import struct
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vora_cli.cli.json_text import to_json
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.parser import loads
from vora_cli.core.json5.values import same_value
from vora_cli.core.strict_json import js_number, same_number

DATA = json.loads((Path(__file__).resolve().parents[2] / "data" / "upstream" / "js-numbers-node.json").read_text())
GROUPS: list[list[list[Any]]] = DATA["groups"]
READ = [(lit, string, js) for group in GROUPS for lit, string, js in group if string is not None]


def _read(literal: str) -> Any:
    return loads(literal, filename="VALUE")


def test_the_answers_come_from_the_gateways_json5() -> None:
    assert DATA["json5"] == "2.2.3" and DATA["node"].startswith("v24.")
    assert len(READ) > 2500 and any(string is None for g in GROUPS for _l, string, _j in g)


@pytest.mark.parametrize("group", range(len(GROUPS)))
def test_vora_reads_and_prints_each_literal_as_javascript(group: int) -> None:
    for literal, string, js in GROUPS[group]:
        if string is None:  # JSON5 refuses it: so does vora
            with pytest.raises(VoraError):
                _read(literal)
            continue
        value = _read(literal)
        assert js_number(value) == string, literal
        shown = to_json(value, js_numbers=True)
        # JSON.stringify writes a non-finite number as null; vora's documents spell it as a string
        assert shown == (js if js != "null" else json.dumps(string)), literal


def test_two_literals_are_one_number_exactly_when_javascript_says_so() -> None:
    """Every pair inside a group and a sample across groups: same_number agrees with String()."""
    values = [(lit, string, _read(lit)) for lit, string, _js in READ]
    pairs = [(a, b) for group in GROUPS for a, b in combinations([r for r in group if r[1] is not None], 2)]
    across = list(zip(values[::7], values[3::11], strict=False))
    checked = 0
    for (la, sa, *_), (lb, sb, *_) in [*pairs, *((a[:2], b[:2]) for a, b in across)]:
        assert same_number(_read(la), _read(lb)) is (sa == sb), (la, lb)
        assert same_value([_read(la)], [_read(lb)]) is (sa == sb)
        checked += 1
    assert checked > 5000


def _double(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_a_double_prints_as_a_literal_that_reads_back_as_the_same_number(bits: int) -> None:
    value = _double(bits)
    text = js_number(value)
    again = _read(text)
    assert same_number(value, again)
    if math.isfinite(value):
        assert float(again) == value and len(text.replace("-", "").replace(".", "").split("e")[0].strip("0")) <= 17


@given(st.integers(min_value=-(10**30), max_value=10**30), st.integers(min_value=0, max_value=3))
def test_an_integer_and_its_float_spellings_are_one_number(n: int, zeros: int) -> None:
    spellings = [str(n), f"{n}.{'0' * zeros}" if zeros else f"{n}.0", f"{n}e0", hex(n).replace("0x", "0x", 1)]
    read = [_read(s) for s in spellings]
    assert all(same_number(read[0], r) for r in read)
    assert len({js_number(r) for r in read}) == 1
    assert same_number(n, n + 1) is (float(n) == float(n + 1))  # past 2**53 neighbours are one double


def test_booleans_strings_and_containers_are_not_numbers() -> None:
    assert not same_value(True, 1) and not same_value(0, False) and not same_value("3", 3)
    assert same_value({"a": [1, 2.0]}, {"a": [1.0, 2]}) and not same_value({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert same_value(math.nan, math.nan) and same_value(-0.0, 0)


@pytest.mark.parametrize("literal", [g[0] for group in GROUPS for g in group if len(g[0]) > 4300])
def test_a_literal_too_long_for_int_reads_as_javascript_in_every_place_a_value_stands(literal: str) -> None:
    """An object member, an array element and a value after a comment take different paths
    through the parser; each reads the recorded Infinity."""
    (expected,) = [string for group in GROUPS for lit, string, _js in group if lit == literal]
    for text in (f"{{a: {literal}}}", f"{{a: {literal},}}", f"[{literal}, 1]", f"[1, /* c */ {literal}]",
                 f"{{a: /* c */ {literal}}}", f"{{'a': {literal} // c\n}}"):
        value = loads(text, filename="VALUE")
        found = value["a"] if isinstance(value, dict) else next(v for v in value if v != 1)
        assert js_number(found) == expected, text[:40]
