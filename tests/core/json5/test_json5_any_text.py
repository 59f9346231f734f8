"""Any Python string — lone surrogates included — is written as UTF-8 text that reads back the
same (issue 12, point 9), and duplicate keys read last-wins (point 19). Core only, no CLI."""

from __future__ import annotations

import json5
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.parser import loads
from vora_cli.core.json5.style import quote_string
from vora_cli.core.json5.values import join_surrogate_pairs

# Lone surrogates are rare in `st.characters()`: draw them on purpose (\ud800, \udcff from argv, ...).
ANY_TEXT = st.text(st.one_of(st.characters(), st.integers(0xD800, 0xDFFF).map(chr)), max_size=20)
STYLES = ["{}", "{\n  a: 'x',\n}\n", '{\n  "a": "x"\n}\n', "{a: 1, b: [1]}"]


@given(key=ANY_TEXT.filter(lambda k: k != ""), value=ANY_TEXT, style=st.sampled_from(STYLES))
def test_any_string_key_and_value_round_trip_through_utf8(key: str, value: str, style: str) -> None:
    doc = Json5Document.parse(style).set((key,), value).set(("list",), [value, {key: value}])
    data = doc.text.encode("utf-8")  # never a UnicodeEncodeError
    again = Json5Document.parse(data.decode("utf-8"))
    # A high+low surrogate pair is one character in JSON5 (UTF-16 strings): it reads back joined.
    key, value = join_surrogate_pairs(key), join_surrogate_pairs(value)
    assert again.value[key] == value
    assert again.value["list"] == [value, {key: value}]


@pytest.mark.parametrize(
    ("text", "expected", "dups"),
    [
        ("{a: 1, a: 2}", {"a": 2}, [(("a",), (1, 2), (1, 8))]),
        ("{x: {a: 1, b: 0, a: 2}}", {"x": {"a": 2, "b": 0}}, [(("x", "a"), (1, 6), (1, 18))]),
        ("[{a: 1, 'a': 2}]", [{"a": 2}], [((0, "a"), (1, 3), (1, 9))]),
        ('{"a": 1, a: 2, \'a\': 3}', {"a": 3}, [(("a",), (1, 2), (1, 10)), (("a",), (1, 10), (1, 16))]),
        ("{a: 1, b: {a: 2}}", {"a": 1, "b": {"a": 2}}, []),
    ],
)
def test_duplicate_keys_read_last_wins(text: str, expected: object, dups: list[object]) -> None:
    doc = Json5Document.parse(text)
    assert doc.value == expected
    assert [(d.path, d.ignored, d.effective) for d in doc.duplicate_keys()] == dups


def test_an_edit_through_a_duplicated_key_is_refused_and_elsewhere_allowed() -> None:
    doc = Json5Document.parse("{x: {a: 1}, y: 0, x: {a: 2}}")
    for edit in (lambda d: d.set(("x", "a"), 3), lambda d: d.unset(("x",)), lambda d: d.set(("x", "b"), 1)):
        with pytest.raises(VoraError) as caught:
            edit(doc)
        assert caught.value.code == "refused" and "appears 2 times" in caught.value.message
    assert doc.set(("y",), 1).text == "{x: {a: 1}, y: 1, x: {a: 2}}"
    assert doc.set(("z",), 1).value == {"x": {"a": 2}, "y": 0, "z": 1}


@pytest.mark.parametrize(
    ("escaped", "code_points"),
    [
        ('"\\ud800\\udc00"', [0x10000]),
        ('"\\ud800\\ud800\\udc00"', [0xD800, 0x10000]),
        ('"\\udc00\\ud800"', [0xDC00, 0xD800]),
        ("'\\udbff\\udfffx\\udfff'", [0x10FFFF, ord("x"), 0xDFFF]),
    ],
)
def test_escaped_pairs_join_and_lone_surrogates_stay(escaped: str, code_points: list[int]) -> None:
    doc = Json5Document.parse("{a: " + escaped + "}")
    assert [ord(c) for c in doc.value["a"]] == code_points
    again = Json5Document.parse(doc.set(("b",), doc.value["a"]).text)
    assert again.value["b"] == doc.value["a"]


@settings(max_examples=300, deadline=None)
@given(st.text(), st.sampled_from(["'", '"']))
def test_any_string_in_either_quote_reads_back_the_same(value: str, quote: str) -> None:
    text = quote_string(value, quote)
    assert text[0] == text[-1] == quote
    assert loads(text) == value
    assert json5.loads(text) == value
