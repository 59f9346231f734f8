"""Compact `js_stringify` writes through `json.dumps` when that writes as JavaScript does: the
result equals the Python walk for every value, fast path or not."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.sessions import jsfmt
from vora_cli.core.sessions.jsfmt import js_stringify


def walked(value: Any) -> str:
    parts: list[str] = []
    jsfmt._write(value, parts, None, 0)
    return "".join(parts)


KEYS = st.sampled_from(["a", "command", "0", "1", "10", "01", "-1", "9x", "é", "\ud83d", "\n", '"', "__proto__"])
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-(2**60), 2**60), st.floats(allow_nan=True),
                   st.sampled_from([2**53 - 1, 2**53, -(2**53), 20000.0, 1e21, 0.1]),
                   st.text(alphabet=st.sampled_from(["a", "é", "\ud83d", "\ude00", "\n", "\x00", "\u2028", '"', "\\"]),
                           max_size=6))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_compact_stringify_equals_the_walk(value: Any) -> None:
    assert js_stringify(value) == walked(value)


def test_the_fast_path_is_taken_only_where_json_dumps_agrees() -> None:
    assert jsfmt._written_alike({"command": "ls", "n": 3, "deep": [True, None, {"x": "é"}]})
    for value in ({"1": "a", "b": 2}, {"n": 2.5}, {"n": 2**53}, [1.0], {"t": (1, 2)}):
        assert not jsfmt._written_alike(value)
    assert js_stringify({"b": 1, "2": 0, "1": 0}) == '{"1":0,"2":0,"b":1}'  # integer-like keys first
    assert js_stringify({"s": "\ud83d", "n": 20000}) == '{"s":"\\\\ud83d","n":20000}'.replace("\\\\", "\\")
