"""The parser's trivia (whitespace and comments) is written to compile cheaply (issue 24): the same
sets as the JSON5 spec spells out, checked on every code point; comments and whitespace at every
token boundary read as the `json5` package reads them; unterminated comments and strings, deep
nesting and huge values keep their errors; and reading a config compiles no 64K-entry table."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import json5
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.errors import ParseError
from vora_cli.core.json5 import parser
from vora_cli.core.json5.parser import loads
from vora_cli.core.nesting import MAX_NESTING

# ES5.1 7.2 WhiteSpace and 7.3 LineTerminator, as JSON5 takes them (the BOM included).
SPEC_WHITESPACE = set("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | {
    chr(c) for c in range(0x2000, 0x200B)}
LINE_TERMINATORS = set("\n\r\u2028\u2029")
EVERY_CHARACTER = "".join(map(chr, range(0x110000)))


def test_the_whitespace_is_the_spec_s_on_every_code_point() -> None:
    found = set("".join(re.findall(parser._WS, EVERY_CHARACTER)))
    assert found == SPEC_WHITESPACE


def test_a_line_comment_ends_at_every_line_terminator_and_nothing_else() -> None:
    assert parser._LINE_COMMENT in parser._TRIVIA
    comment = re.compile(parser._LINE_COMMENT)
    body = parser._LINE_COMMENT.removeprefix("//(?:").removesuffix(")*+")
    # What the comment's body cannot take, of every code point (one C pass, no list of matches).
    assert set(re.sub(f"(?:{body})++", "", EVERY_CHARACTER)) == LINE_TERMINATORS
    for end in LINE_TERMINATORS:
        m = comment.match("// a \t\v\f é\u2027\u202a x" + end + "y")
        assert m is not None and m.end() == 14


@settings(max_examples=300)
@given(st.lists(st.sampled_from([" ", "\t", "\n", "\r", "\v", "\u00a0", "\u2028", "\u3000", "\ufeff", "//", "/*", "*/",
                                 "*", "/", "x", "\x1c", "\x85", "// c\n", "/* c */"]), max_size=8).map("".join))
def test_the_unrolled_trivia_of_the_member_patterns_reads_what_the_trivia_reads(text: str) -> None:
    """`_T` (a run of blanks and line breaks, then any other trivia each followed by such a run)
    takes the same text as `_TRIVIA` repeated, from every start."""
    unrolled, repeated = re.compile(parser._T), re.compile("(?:" + parser._TRIVIA + ")*+")
    for start in range(len(text) + 1):
        assert unrolled.match(text, start).end() == repeated.match(text, start).end()  # type: ignore[union-attr]


TRIVIA = st.lists(st.sampled_from([
    " ", "\t", "\n", "\r\n", "\r", "\v", "\f", "\u00a0", "\u2028", "\u2029", "\ufeff", "\u3000", "\u2003",
    "// line\n", "// line\r", "// x\u2028", "// \v\f x\u2029", "/* block */", "/**/", "/* * / ** */", "/* a\nb */",
]), max_size=3).map("".join)
SCALARS = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.none(), st.text("ab 'é\"", max_size=4),
                    st.floats(allow_nan=False, allow_infinity=False, width=32))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "b$", "c d", "e"]), inner, max_size=3)),
    max_leaves=8)


def _with_trivia(value: object, draw: st.DrawFn) -> str:
    """`value` as JSON5 with drawn trivia at every token boundary (and a drawn trailing comma)."""
    t = lambda: draw(TRIVIA)  # noqa: E731
    if isinstance(value, dict):
        parts = [t() + (k if k.replace("$", "").isalpha() else json.dumps(k)) + t() + ":" + t()
                 + _with_trivia(v, draw) + t() for k, v in value.items()]
        return "{" + ",".join(parts) + (draw(st.sampled_from(["", ","])) if parts else "") + t() + "}"
    if isinstance(value, list):
        parts = [t() + _with_trivia(v, draw) + t() for v in value]
        return "[" + ",".join(parts) + (draw(st.sampled_from(["", ","])) if parts else "") + t() + "]"
    return json.dumps(value)


@st.composite
def documents(draw: st.DrawFn) -> str:
    return draw(TRIVIA) + _with_trivia(draw(VALUES), draw) + draw(TRIVIA)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(documents())
def test_trivia_at_every_token_boundary_reads_as_json5_does(text: str) -> None:
    assert loads(text) == json5.loads(text)


@pytest.mark.parametrize(("text", "where", "what"), [
    ("{a: 1 /* never closed", (1, 7), "unterminated block comment"),
    ("{a: /* x */ 1, b: /* never", (1, 19), "unterminated block comment"),
    ("{a /* x */ : 'never closed}", (1, 14), "unterminated string"),
    ("[1, // to the end", (1, 1), "unclosed array"),
    ("{a:\n  'x\n'}", (2, 3), "unterminated string"),
    ("// only a comment\n", (2, 1), "empty document"),
    ("{a: 1} /* after */ x", (1, 20), "unexpected text after the top-level value"),
    ("{a: 1\u2028b: 2}", (1, 7), "expected ',' or '}'"),
    ("{a\u00a0:\u2029 1 // c\u2028 ,}", None, None),
])
def test_unterminated_comments_and_strings_keep_their_position(
        text: str, where: tuple[int, int] | None, what: str | None) -> None:
    if where is None:
        assert loads(text) == json5.loads(text) == {"a": 1}
        return
    with pytest.raises(ParseError) as caught:
        loads(text)
    assert (caught.value.line, caught.value.col) == where
    assert what in caught.value.message


@pytest.mark.parametrize("gap", ["", " ", "/* c */", "\n// c\n"])
def test_deep_nesting_with_trivia_stops_at_the_limit(gap: str) -> None:
    ok = (gap + "[") * MAX_NESTING + "1" + (gap + "]") * MAX_NESTING
    assert loads(ok) is not None
    with pytest.raises(ParseError) as caught:
        loads("{a:" + gap + ok + gap + "}")
    assert "nest" in caught.value.message


def test_huge_values_and_comments_read_whole() -> None:
    big = "x" * (2 * 1024 * 1024)
    text = f"/* {big} */ {{a: '{big}', // {big}\n b: [\"{big}\"]}}"
    assert loads(text) == {"a": big, "b": [big]}


GUARD = """
import re, re._compiler as rc
from re._constants import BIGCHARSET
compiled, tables = [], []
orig_compile, orig_charset = rc.compile, rc._optimize_charset
def compile(p, flags=0):
    compiled.append(p)
    return orig_compile(p, flags)
def charset(*a, **k):
    out = orig_charset(*a, **k)
    tables.extend(op for op, _ in out[0] if op is BIGCHARSET)
    return out
rc.compile, rc._optimize_charset = compile, charset
from vora_cli.core.json5.parser import loads
loads("// a config\\n{\\n  gateway: { port: 18789, bind: 'loopback' }, /* x */\\n  list: [1, 'a', true,],\\n}\\n")
loads("18790")  # a CLI VALUE
import json
print(json.dumps([[p for p in compiled if isinstance(p, str)], len(tables)]))
"""


def test_reading_a_config_compiles_few_patterns_and_no_64k_table() -> None:
    """Counted, not timed: the patterns the parser compiles to read a plain commented config and
    a scalar (`config set`'s VALUE) (its scanner, escapes and full member pattern wait for a file that needs them), and that
    none of them makes `re` build a 64K-entry character table in Python."""
    out = subprocess.run([sys.executable, "-c", GUARD], capture_output=True, text=True, check=True).stdout
    patterns, tables = json.loads(out)
    assert tables == 0
    for waits in (parser._TOKEN_SOURCE, parser._ESCAPE_SOURCE, parser._OBJ_MEMBER_ANY_SOURCE, parser._ID_ESCAPE_SOURCE):
        assert waits not in patterns
    assert len(patterns) <= 13  # the parser's own 5 and what its imports (errors, nesting) compile
