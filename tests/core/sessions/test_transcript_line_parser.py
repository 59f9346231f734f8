"""The transcript's line parser (the JSON scanner without its Python wrapper) accepts and refuses
exactly what the strict decoder does, with the same values."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.sessions.jsfmt import loads
from vora_cli.core.sessions.jsonl import parse_line


def verdict(parse: object, raw: bytes) -> tuple[str, object]:
    try:
        return "ok", parse(raw)  # type: ignore[operator]
    except (ValueError, RecursionError):
        return "bad", None


def strict(raw: bytes) -> object:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("utf-8", "replace")
    return loads(text)


CASES = [b'{"a":1}\n', b'  {"a":1}  \r\n', b'\t{"a":[1,2.0,3.5]}\n', b'{"a":1} x\n', b'{"a":1}{"b":2}\n', b"", b"\n",
         b"   \n", b'{"a":NaN}\n', b'{"a":Infinity}\n', b'{"a":', b"[1,2]\n", b'"s"\n', b'{"a":"\\ud83d"}\n',
         b'{"a":"\xff"}\n', b'\xef\xbb\xbf{"a":1}\n', b'{"a":1}\x0b\n', b'\x0c{"a":1}\n', b"20000.0\n", b"1e400\n"]


@pytest.mark.parametrize("raw", CASES)
def test_line_parser_agrees_with_the_strict_decoder(raw: bytes) -> None:
    assert verdict(parse_line, raw) == verdict(strict, raw)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b" ", b"\t", b"\n", b"\r", b"{", b"}", b"[", b"]", b'"a"', b":", b",", b"1", b"2.0",
                                 b"null", b"x", b"\xff", b"\x0b"]), max_size=16))
def test_line_parser_agrees_on_fragments(parts: list[bytes]) -> None:
    raw = b"".join(parts)
    assert verdict(parse_line, raw) == verdict(strict, raw)


def test_values_keep_the_javascript_number_form() -> None:
    assert parse_line(b'{"n":20000.0,"f":0.5}\n') == {"n": 20000, "f": 0.5}
    assert json.dumps(parse_line(b'{"n":20000.0}\n')) == '{"n": 20000}'
