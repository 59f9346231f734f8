"""The one bounded reader (`vora_cli/core/nesting.py`, issue 22 class 2): its limit, where its
errors point, the TOML statement it names for `vora settings unset`, and that nothing in vora
reads JSON or TOML around it (the matrix of readers is `tests/cli/common/test_deep_nesting.py`)."""

from __future__ import annotations

import json
import math
import re
import tomllib
from pathlib import Path

import pytest

from vora_cli.core import nesting
from vora_cli.core.nesting import MAX_NESTING, TomlTooDeep, TooDeep, cut_below, deeper_than, toml_loads
from vora_cli.core.strict_json import refuse_non_finite

PACKAGE = Path(__file__).resolve().parents[2] / "vora_cli"


@pytest.mark.parametrize("text", [lambda n: "[" * n + "]" * n, lambda n: '{"a":' * (n - 1) + "{}" + "}" * (n - 1)])
def test_the_limit_counts_every_level_and_the_error_points_at_the_first_too_deep_bracket(text) -> None:
    assert deeper_than(nesting.loads(text(MAX_NESTING))) is False
    for levels in (MAX_NESTING + 1, 100_000):
        with pytest.raises(TooDeep) as raised:
            nesting.loads(text(levels))
        found = raised.value
        assert isinstance(found, json.JSONDecodeError) and found.msg == "nesting deeper than 128 levels"
        assert text(levels)[found.pos] in "[{" and text(levels)[:found.pos].count(text(levels)[found.pos]) == MAX_NESTING


def test_brackets_inside_strings_do_not_count_and_positions_are_lines_and_columns() -> None:
    inner = ", ".join(['"[[[[{{{{\\"[["'] * 50)
    text = '{\n  "a": ' + "[" * MAX_NESTING + inner + "]" * MAX_NESTING + "}"
    with pytest.raises(TooDeep) as raised:
        nesting.loads(text)
    assert (raised.value.lineno, raised.value.colno) == (2, 7 + MAX_NESTING)  # the bracket opening level 129
    assert nesting.loads("[" + inner + "]")


def test_an_unterminated_string_full_of_escaped_quotes_is_scanned_once() -> None:
    text = "[" * (MAX_NESTING + 1) + '"' + '\\"' * 1_000_000
    with pytest.raises(ValueError):  # the parse fails; the position scan must not be quadratic
        nesting.loads(text)


def test_cut_below_keeps_the_first_levels_and_marks_the_cut() -> None:
    value: object = {}
    for _ in range(300):
        value = {"a": value}
    cut = cut_below(value)
    assert not deeper_than(cut)
    node = cut
    for _ in range(MAX_NESTING - 1):
        node = node["a"]  # type: ignore[index]
    assert node == {"a": nesting.CUT}


@pytest.mark.parametrize(("text", "key", "kept"), [
    ('a = 1\nprofile = ' + "[" * 200 + "]" * 200 + "\nb = 2\n", "profile", "a = 1\nb = 2\n"),
    ('color = "x"\n[doctor]\nskip = ' + "{a=" * 200 + "1" + "}" * 200 + "\nfail_on = 'warn'\n",
     "doctor.skip", "color = \"x\"\n[doctor]\nfail_on = 'warn'\n"),
    ("x = 1\n[" + ".".join(["a"] * 200) + "]\nq = 1\n[b]\nc = 2\n", "a." + ".".join(["a"] * 199), "x = 1\n[b]\nc = 2\n"),
    ('p = ["[[[[", \'{{{\', """\n[[[[""", # [[[[\n 1]\nq = ' + "[" * 300 + "]" * 300, "q", 'p = ["[[[[", \'{{{\', """\n[[[[""", # [[[[\n 1]\n'),
])
def test_toml_names_the_statement_that_nests_too_deep_and_its_whole_span(text: str, key: str, kept: str) -> None:
    with pytest.raises(TomlTooDeep) as raised:
        toml_loads(text)
    deep = raised.value
    assert deep.key == key and deep.owned_by(key.split(".")[0])
    assert text[:deep.start] + text[deep.end:] == kept
    assert "nests deeper than 128 levels" in str(deep)


def test_toml_at_the_limit_parses() -> None:
    assert toml_loads("k = " + "[" * (MAX_NESTING - 1) + "]" * (MAX_NESTING - 1) + "\n")


# Reading JSON or TOML anywhere else would skip the bound. vora's own package data (the gateway's
# schema it ships) is not input; the transcript scan's in-place C scan counts its lines only and
# catches RecursionError, and what it shows is re-read bounded (`read_entries`); the session
# store's member reader checks each member it parses with the C scanner (`storefile._too_deep`).
ALLOWED = {"core/nesting.py", "core/config/gateway.py"}
RAW = re.compile(r"\bjson\.loads?\(|\btomllib\.loads?\(|(?<!nesting)\.raw_decode\(|JSONDecoder\(")


def test_no_reader_goes_around_the_bound() -> None:
    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ALLOWED:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if RAW.search(line) and not line.lstrip().startswith(("#", '"""')) and "`json.loads" not in line:
                found.append(f"{rel}: {line.strip()}")
    assert sorted(found) == ["core/devices/store.py: _DECODER = json.JSONDecoder()",
                     "core/sessions/jsonl.py: DECODER = json.JSONDecoder(parse_float=js_load_float, "
                     "parse_constant=refuse_non_finite)"]


# -- the bound's shortcuts: brackets counted first, lines scanned directly (issue h28) ---------------

def _depth(value: object) -> int:
    """How deep a parsed value nests, by recursion (the definition `deeper_than` walks level by level)."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _nested(rng, depth: int = 0) -> object:
    roll = rng.random()
    if depth > 140 or roll < 0.3:
        return rng.choice([1, "x[", None, 2.5, "{{", "]}"])
    if roll < 0.65:
        return [_nested(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {str(i): _nested(rng, depth + 1) for i in range(rng.randrange(3))}


def test_the_walk_and_the_bracket_count_before_it_answer_as_the_depth_is() -> None:
    import random

    rng = random.Random(128)
    for _ in range(3000):
        value = _nested(rng)
        padding = " " * rng.choice([0, 5000, 20_000])
        text = json.dumps(value) + padding
        for limit in (1, 2, 3, 5, MAX_NESTING):
            want = _depth(value) > limit
            assert deeper_than(value, limit) is want
            assert nesting.parsed_deeper_than(value, text, limit=limit) is want
            assert nesting.parsed_deeper_than(value, text.encode(), limit=limit) is want
    for levels in (MAX_NESTING, MAX_NESTING + 1):
        deep = '["' + "{" * 9000 + '", ' + "[" * levels + "]" * levels + "]"  # brackets in a string, then a deep list
        assert nesting.parsed_deeper_than(json.loads(deep), deep) is (levels + 1 > MAX_NESTING)


# -- an integer past `int()`'s digit limit (Python refuses more than 4,300 digits from text) -----

HUGE = "9" * 5000


def test_json_reads_a_huge_integer_as_the_infinity_json_parse_gives() -> None:
    text = f'{{"a": {HUGE}, "b": [-{HUGE}, 1, 2.5], "c": 7}}'
    assert nesting.loads(text) == {"a": math.inf, "b": [-math.inf, 1, 2.5], "c": 7}
    # the caller's parse_float reads it (a session store's `js_load_float`, a refusing hook)
    assert nesting.loads(f"[{HUGE}]", parse_float=lambda t: ("float", len(t))) == [("float", 5000)]
    # the caller's own hooks still answer: NaN refused again, a decode error is the text's
    with pytest.raises(ValueError, match="NaN is not JSON"):
        nesting.loads(f"[{HUGE}, NaN]", parse_constant=refuse_non_finite)
    with pytest.raises(json.JSONDecodeError):
        nesting.loads(f"[{HUGE}, ]")
    decoder = json.JSONDecoder()
    assert nesting.raw_decode(decoder, f"  [{HUGE}] tail", 2) == ([math.inf], 5004)
    assert decoder.parse_int is int  # the caller's decoder is left as it was


def test_a_huge_integer_costs_one_reading_more_never_quadratic_work() -> None:
    calls: list[str] = []

    def hook(item: dict[str, object]) -> dict[str, object]:
        calls.append("obj")
        return item

    # two readings at most, whatever the length (the second is linear: `float()` of the digits)
    assert nesting.loads(f'{{"a": {"9" * 2_000_000}}}', object_hook=hook) == {"a": math.inf}
    assert len(calls) <= 2


def test_toml_names_the_line_of_an_integer_too_long_to_read() -> None:
    with pytest.raises(tomllib.TOMLDecodeError, match=r"line 3"):
        toml_loads(f'a = 1\nb = "{HUGE}"\nc = {HUGE}\n')
    with pytest.raises(tomllib.TOMLDecodeError, match=r"line 2"):
        toml_loads(f"a = 1\nc = {'9_' * 4400}9\n")
