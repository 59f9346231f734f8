"""The JSON5 parser: text to plain values, keeping the span of every member for the editor.

Spec: config.md, "The file" (JSON5). The scanner is one compiled regex that skips whitespace and
comments and matches the next token in C; Python only runs once per token, never per character.
The parser keeps the spans of every member (key, value, comma), which is all the editor needs.

Why one module: the token grammar and the code that reads its groups by number are one thing.
"""

from __future__ import annotations

import gc
import math
import re
from collections.abc import Iterator

from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.nesting import MAX_NESTING, TOO_DEEP
from vora_cli.core.strict_json import as_double, huge_integer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["line_col", "loads"]

# Trivia: JSON5 WhiteSpace and LineTerminator (ES5.1 7.2/7.3, BOM included) and comments. Inlined
# in every pattern below, so written to compile cheaply: a class holding characters above U+00FF
# in more than two runs makes `re` build a large table for each. Each union is the spelled-out
# set (tests/core/json5/test_json5_trivia.py checks every code point), and alternatives under a
# possessive `*+` match the same longest run as the one class did.
_WS = r"[\t-\r \xa0]++|[^\S\x1c-\x1f\x85]|\ufeff"
_LINE_COMMENT = r"//(?:[\t -~]++|[^\n-\r\u2028\u2029]++|[\v\f])*+"
_TRIVIA = _WS + "|" + _LINE_COMMENT + r"|/\*[^*]*+\*++(?:[^/*][^*]*+\*++)*+/"
_ID_START = r"(?:[^\W\d]|\$|\\u[0-9a-fA-F]{4})"
# unrolled ("a*(?:b a*)*") so the regex engine does not try an alternation per character, and
# possessive: a token is the longest match, so giving characters back can only waste time
_ID_PARTS = r"[\w$\u200c\u200d]*+(?:\\u[0-9a-fA-F]{4}[\w$\u200c\u200d]*+)*+"

# Strings, unrolled and possessive: an unterminated one fails after one pass over its line, with
# no backtracking into it (a per-character form backtracks over a long line).
_DSTR_BODY = r'[^"\\\n\r]*+(?:\\(?:\r\n|[\s\S])[^"\\\n\r]*+)*+'
_SSTR_BODY = r"[^'\\\n\r]*+(?:\\(?:\r\n|[\s\S])[^'\\\n\r]*+)*+"
_DSTR_RE = '"' + _DSTR_BODY + '"'
_SSTR_RE = "'" + _SSTR_BODY + "'"

# The scanner, one token at a time: for a top-level scalar, `value_at`'s error path and the
# precise error where the fast patterns below do not match. Compiled on first use (`_token`):
# a file that parses needs it only when its top-level value is a scalar.
# Groups, in order: 1 punctuation, 2 "string", 3 'string', 4 identifier, 5 number, 6 end, 7 bad.
_TOKEN_SOURCE = (
    "(?:" + _TRIVIA + ")*+(?:"
    r"([{}\[\]:,])"
    "|(" + _DSTR_RE + ")"
    "|(" + _SSTR_RE + ")"
    "|(" + _ID_START + _ID_PARTS + ")"
    r"|([+-]?(?:0[xX][0-9a-fA-F]+|(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|Infinity|NaN)(?![\w$.]))"
    r"|(\Z)"
    r"|([\s\S]))"
)
_PUNCT, _DSTR, _SSTR, _IDENT, _NUM, _END, _BAD = 1, 2, 3, 4, 5, 6, 7

# The fast path: one match per member "key: scalar," (or "key: {" / "key: ["), so Python runs
# once per member, not once per token. Anything it does not match goes to ``diagnose``.
# Possessive: the engine must never backtrack into a comment and find a "," inside it. Inside a
# member only blanks, as configs are written; a comment or line break around the colon is
# `_OBJ_MEMBER_ANY_SOURCE`'s (compiled on first use), a comma after one is found by `_AFTER`.
# Where the fast pattern matches, the full one matches the same spans: the blanks are followed by
# a character no trivia starts. Unrolled ("a*(?:b a*)*"), the rest as in `_TRIVIA`.
_T = (r"[\t-\r \xa0]*+(?:(?:" + _LINE_COMMENT + r"|/\*[^*]*+\*++(?:[^/*][^*]*+\*++)*+/|[^\S\x1c-\x1f\x85]|\ufeff)"
      r"[\t-\r \xa0]*+)*+")
_BLANKS = "[ \t]*+"
_NUM_RE = (
    r"[+-]?(?:0[xX][0-9a-fA-F]+|(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|Infinity|NaN)(?![\w$.])"
)
_SCALAR_RE = "(?:" + _DSTR_RE + "|" + _SSTR_RE + "|" + _NUM_RE + "|" + _ID_START + _ID_PARTS + ")"
_KEY_RE = "(?:" + _DSTR_RE + "|" + _SSTR_RE + "|" + _ID_START + _ID_PARTS + ")"
# A scalar, the usual kinds first, each in a group of its own so that the loops below read its
# value without looking at it again: a string's body, a plain integer.
_SCALAR_KINDS = ('"(' + _DSTR_BODY + ')"|\'(' + _SSTR_BODY + r")'|(0|[1-9][0-9]*+)(?![\w$.])|" + _NUM_RE
                 + "|" + _ID_START + _ID_PARTS)
# Groups of `_ARR_ELEMENT`: 1 the scalar's token, 2 and 3 a double- or single-quoted string's body,
# 4 a plain integer, 5 the comma after the scalar's blanks, 6 "{" or "[", 7 the closing "]" (the
# same match ends the container: no failed match and second look at the trivia per container).
# `_OBJ_MEMBER`'s are 1 the key and then the same, one number up (`k` below), "}" for "]".
_VALUE, _COMMA, _OPEN, _CLOSE_GROUP = 1, 5, 6, 7
_OBJ_MEMBER = re.compile(_T + "(?:(" + _KEY_RE + ")" + _BLANKS + ":" + _BLANKS + "(?:(" + _SCALAR_KINDS + ")"
                         + _BLANKS + "(,)?|([{[]))|(}))")
_OBJ_MEMBER_ANY_SOURCE = (_T + "(?:(" + _KEY_RE + ")" + _T + ":" + _T + "(?:(" + _SCALAR_KINDS + ")" + _BLANKS
                          + "(,)?|([{[]))|(}))")
# Also reads the top-level value.
_ARR_ELEMENT = re.compile(_T + "(?:(" + _SCALAR_KINDS + ")" + _BLANKS + "(,)?|([{[])|(]))")
_AFTER = re.compile(_T + "(,)?")
_WORDS: dict[str, Any] = {
    "true": True, "false": False, "null": None, "Infinity": math.inf, "+Infinity": math.inf,
    "-Infinity": -math.inf, "NaN": math.nan, "+NaN": math.nan, "-NaN": math.nan,
}

# Compiled on first use (`re`'s own cache keeps them): most configs escape nothing.
_ESCAPE_SOURCE = (
    r"\\(?:([\"'\\bfnrtv])|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(0)(?![0-9])|(\r\n|[\n\r\u2028\u2029])"
    r"|([0-9xu])|([\s\S]))"
)
_SINGLE_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_ID_ESCAPE_SOURCE = r"\\u([0-9a-fA-F]{4})"
# What may follow a value or comma on the same line: blanks, a line comment, block comments. A
# line ends at \n, \r, U+2028 or U+2029 (JSON5's line terminators): a line comment stops there.
# (Written without a class of three runs above U+00FF: see the trivia note above _WS.)
SAME_LINE_TRIVIA = r"(?:[ \t]+|//(?:[^\n-\r\u2028\u2029]++|[\v\f])*+|/\*(?:[^\n-\r\u2028\u2029]|[\v\f])*?\*/)*+"
LINE_ENDS = "\r\n\u2028\u2029"
_PARSE_HINT = "fix the JSON5 syntax at that place in the file"


def _token(text: str, pos: int) -> re.Match[str]:
    """The next token at ``pos`` (trivia skipped); it always matches (groups 6 end, 7 bad)."""
    m = re.compile(_TOKEN_SOURCE).match(text, pos)
    assert m is not None
    return m


def _unescape_id(name: str) -> str:
    return re.compile(_ID_ESCAPE_SOURCE).sub(lambda im: chr(int(im.group(1), 16)), name)


def _short(key: str) -> str:
    """A key as quoted in an error message: a huge key must not make a huge message."""
    return repr(key) if len(key) <= 40 else repr(key[:40]) + "…"


class Member(tuple["Any", ...]):
    """One object member or array element: where its key, value and comma are in the text.

    A tuple built in C (``Member((key, kstart, kend, vstart, vend, comma, node))``), so a parse
    runs no Python ``__init__`` per member. ``kstart == vstart`` for an array element; ``comma``
    is -1 when there is none; ``node`` is the container node for an object or array value."""

    __slots__ = ()

    @property
    def key(self) -> str | None:
        return self[0]  # type: ignore[no-any-return]

    @property
    def kstart(self) -> int:
        return self[1]  # type: ignore[no-any-return]

    @property
    def kend(self) -> int:
        return self[2]  # type: ignore[no-any-return]

    @property
    def vstart(self) -> int:
        return self[3]  # type: ignore[no-any-return]

    @property
    def vend(self) -> int:
        return self[4]  # type: ignore[no-any-return]

    @property
    def comma(self) -> int:
        return self[5]  # type: ignore[no-any-return]

    @property
    def node(self) -> Container | None:
        return self[6]  # type: ignore[no-any-return]


class Container:
    """An object or array in the text; its members' spans are scanned on first use (`members`),
    since a parse records only where each container ends (`Parser.ends`). Look-ups stay linear
    in the container however often asked: `first` resumes where the last stopped, `index_of`
    indexes each key's last member once."""

    __slots__ = ("_firsts", "_index", "_lasts", "_members", "_scan", "_scanned", "_scanner", "end", "is_object",
                 "start")

    def __init__(self, is_object: bool, start: int, end: int, members: list[Member] | None = None,
                 scanner: Parser | None = None) -> None:
        self.is_object = is_object
        self.start = start  # position of "{" or "["
        self.end = end  # position just after "}" or "]"
        self._members = members
        self._scanner = scanner
        self._scanned: list[Member] | None = None  # the members read so far, while `_members` is unknown
        self._scan: Iterator[Member] | None = None
        self._firsts: dict[str | None, Member] | None = None  # each key's first member, of those read
        self._lasts: dict[str | None, int] | None = None
        # Where each key's last member and the last member start, when the parse noted them (the
        # top-level object's: `Parser.root_index`): one member is then read without the others.
        self._index: tuple[dict[str, int], int] | None = None

    @property
    def members(self) -> list[Member]:
        members = self._members
        if members is None:
            for _member in self._read_on():
                pass
            members = self._members
            assert members is not None
        return members

    def _read_on(self) -> Iterator[Member]:
        """The members not yet read, reading the text on from where the last look-up stopped."""
        if self._members is None:
            if self._scan is None:
                assert self._scanner is not None
                self._scan = self._scanner.scan(self)
                self._scanned = []
            scanned = self._scanned
            assert scanned is not None
            for member in self._scan:
                scanned.append(member)
                yield member
            self._members, self._scan = scanned, None

    def index_of(self, key: str) -> int:
        """The index of the member that holds ``key``'s value: the last one (JSON5 last-wins)."""
        lasts = self._lasts
        if lasts is None:
            lasts = self._lasts = {m.key: i for i, m in enumerate(self.members)}
        return lasts.get(key, -1)

    def holder(self, key: str) -> Member | None:
        """The member that holds ``key``'s value (the last of its key), reading only it when the
        parse noted where it starts."""
        if self._members is None and self._index is not None:
            at = self._index[0].get(key)
            return None if at is None else self._one(at)
        i = self.index_of(key)
        return self.members[i] if i >= 0 else None

    def head(self, n: int) -> list[Member]:
        """The first ``n`` members (fewer when there are fewer), reading no further than them."""
        if self._members is None:
            for _member in self._read_on():
                if len(self._scanned or ()) >= n:
                    break
        return (self._members if self._members is not None else self._scanned or [])[:n]

    def last(self) -> Member | None:
        """The last member, reading only it when the parse noted where it starts."""
        if self._members is None and self._index is not None:
            return self._one(self._index[1]) if self._index[1] >= 0 else None
        return self.members[-1] if self.members else None

    def _one(self, at: int) -> Member:
        assert self._scanner is not None
        return next(self._scanner.scan(self, at))

    def count_of(self, key: str) -> int:
        return sum(1 for m in self.members if m.key == key)

    def first(self, seg: str | int) -> Member | None:
        """The first member at ``seg`` (a key of an object, an index of an array), scanning no
        further than it: the one that holds the value when no key is held twice."""
        if not self.is_object:
            if not isinstance(seg, int) or seg < 0:
                return None
            known = self._members if self._members is not None else self._scanned or []
            if seg < len(known):
                return known[seg]
            for member in self._read_on():
                if len(self._scanned or ()) > seg:
                    return member
            return None
        firsts = self._firsts
        if firsts is None:
            firsts = self._firsts = {}
            for m in self._members if self._members is not None else self._scanned or ():
                firsts.setdefault(m.key, m)
        found = firsts.get(seg)  # type: ignore[arg-type]
        if found is not None or self._members is not None:
            return found
        for member in self._read_on():
            firsts.setdefault(member.key, member)
            if member.key == seg:
                return member
        return None


class LineIndex:
    """Lines and columns of positions in one text, for a caller that asks for many: each asks
    `line_col` (a count of the text before it) until those counts have read the text once, then
    the line starts are indexed and each answer is a binary search."""

    __slots__ = ("_counted", "_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._counted = 0
        self._starts: list[int] | None = None

    def line_col(self, pos: int) -> tuple[int, int]:
        starts = self._starts
        if starts is None:
            self._counted += pos
            if self._counted <= len(self.text):
                return line_col(self.text, pos)
            starts = self._starts = _line_starts(self.text)
        from bisect import bisect_right

        line = bisect_right(starts, pos)
        col = pos - starts[line - 1] + 1
        if line == 1 and self.text.startswith("\ufeff") and pos > 0:
            col -= 1  # editors do not show the BOM: do not count it
        return line, col


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at != -1:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    line_start = text.rfind("\n", 0, pos) + 1
    col = pos - line_start + 1
    if line == 1 and text.startswith("\ufeff") and pos > 0:
        col -= 1  # editors do not show the BOM: do not count it
    return line, col



class Parser:
    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self.filename = filename
        self.duplicates = False  # whether some object holds a key twice (the last one wins)
        # Where each container ends, by the position of its "{" or "[": all a parse keeps of the
        # layout (`members` scans a container's members from it when the editor asks).
        self.ends: dict[int, int] = {}
        self.top = (0, 0)  # where the top-level value starts and ends, once parsed
        # Where each key's last member of the top-level object starts, and where its last member
        # does: an edit reads the one member it goes through, not every one (`Container.holder`).
        self.root_index: tuple[int, dict[str, int], list[int]] | None = None

    def error(self, pos: int, what: str, quoted: str | None = None, then: str = "") -> ParseError:
        """The error at `pos`, quoting up to 20 characters found there. The quote is hidden when
        the line names a secret before it or inside it; `obj` hides it too
        when the position is anywhere below a secret-named key."""
        text = self.text
        line, col = line_col(text, pos)
        snippet = text[pos : pos + 20]
        cut = len(snippet)
        for stop in ("\n", "\r"):
            i = snippet.find(stop)
            if i >= 0:
                cut = min(cut, i)
        snippet = snippet[:cut]
        line_start = max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos)) + 1
        from vora_cli.core.secrets import mentions_secret_name  # errors only: a read does not pay for it

        hidden = mentions_secret_name(text, line_start, pos + cut)
        return ParseError(self.filename, line, col, what, _PARSE_HINT, quoted=quoted, then=then, found=snippet,
                          hidden=hidden)

    def bad_token(self, m: re.Match[str], expected: str) -> VoraError:
        g = m.lastindex
        s = m.start(g)  # type: ignore[arg-type]
        text = self.text
        if g == _END:
            return self.error(s, f"unexpected end of file, expected {expected}")
        c = text[s]
        if g == _BAD:
            if c in "\"'":
                return self.error(s, "unterminated string (a string must close on its own line)")
            if text.startswith("/*", s):
                return self.error(s, "unterminated block comment")
            if c in "0123456789+-.":
                return self.error(s, "invalid number")
            return self.error(s, "unexpected character ", c, f", expected {expected}")
        return self.error(s, "unexpected ", text[s : m.end(g)][:20], f", expected {expected}")  # type: ignore[arg-type]

    def parse(self) -> Any:
        """The value of the whole text; `ends` and `top` then say where its containers are."""
        # A big file makes hundreds of thousands of containers the cycle collector would scan
        # again and again for nothing (none of them can form a cycle): pause it while parsing.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._parse()
        except ParseError as exc:
            if exc.hidden or not exc.key_path:
                raise
            from vora_cli.core.secrets import is_secret_path

            # below one of the gateway's secret paths (`channels.feishu.encryptKey`): a secret too
            raise exc.hiding_values() if is_secret_path(exc.key_path) else exc from None
        finally:
            if was_enabled:
                gc.enable()

    def root(self) -> Member:
        """The top-level value as a member (after `parse`, or with `ends` and `top` known): the
        members of its containers are scanned when first read (`Container.members`)."""
        vs, ve = self.top
        node = Container(self.text[vs] == "{", vs, ve, scanner=self) if vs in self.ends else None
        if node is not None and self.root_index is not None and self.root_index[0] == vs:
            node._index = (self.root_index[1], self.root_index[2][0])
        return Member((None, vs, vs, vs, ve, -1, node))

    def value_at(self, start: int, depth: int) -> tuple[Any, int, int]:
        """The one value whose first token is at ``start``, inside ``depth`` containers:
        (value, start, end). The editor checks an edited region with it, not the whole file."""
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            text = self.text
            m = _ARR_ELEMENT.match(text, start)
            if m is None or m.start(_CLOSE_GROUP) >= 0:
                value, vs, ve = self.value(_token(text, start), depth)  # raises
            elif m.start(_OPEN) >= 0:
                vs = m.start(_OPEN)
                value, ve = (self.obj if text[vs] == "{" else self.arr)(vs, depth + 1)
            else:
                # A scalar read as a member's is (number before word: the check in the editor
                # compares its end with the edited region's, so a reading that differs fails).
                vs, ve = m.span(_VALUE)
                value = self.scalar(vs, ve)
        finally:
            if was_enabled:
                gc.enable()
        return value, vs, ve

    def _parse(self) -> Any:
        text = self.text
        nul = text.find("\x00")
        if nul >= 0:
            raise self.error(nul, "NUL byte in the file")
        first = _ARR_ELEMENT.match(text, 0)
        if first is not None and first.start(_CLOSE_GROUP) < 0:  # the usual document (an object), or a scalar such as a CLI VALUE
            if first.start(_OPEN) >= 0:
                vs = first.start(_OPEN)
                value, ve = (self.obj if text[vs] == "{" else self.arr)(vs, 1)
            else:
                vs, ve = first.span(_VALUE)
                value = self.scalar(vs, ve)
            rest = _AFTER.match(text, ve)
            assert rest is not None
            if rest.start(1) < 0 and rest.end() == len(text):
                self.top = (vs, ve)
                return value
        # Anything else is read again token by token, for the scanner's exact error. (A scalar the
        # two read differently, "Infinity" then U+200C, is never followed by the end of the file.)
        self.ends.clear()
        m = _token(text, 0)
        if m.lastindex == _END:
            raise self.error(m.start(_END), "empty document, expected a value")
        value, vs, ve = self.value(m, 0)
        m = _token(text, ve)
        if m.lastindex != _END:
            s = m.start(m.lastindex)  # type: ignore[arg-type]
            raise self.error(s, "unexpected text after the top-level value")
        self.top = (vs, ve)
        return value

    def value(self, m: re.Match[str], depth: int) -> tuple[Any, int, int]:
        """The value whose first token ``m`` is: (value, start, end)."""
        g = m.lastindex
        s, e = m.span(g)  # type: ignore[arg-type]
        text = self.text
        v: Any
        if g == _PUNCT:
            c = text[s]
            if c == "{" or c == "[":
                v, end = (self.obj if c == "{" else self.arr)(s, depth + 1)
                return v, s, end
            raise self.bad_token(m, "a value")
        if g in (_DSTR, _SSTR):
            return self.string(s, e), s, e
        if g == _NUM:
            t = text[s:e]
            if "x" in t or "X" in t:
                v = _hex(t)
            elif "." in t or "e" in t or "E" in t or t[-1] in "yN":
                v = float(t)
            else:
                try:
                    v = int(t)
                except ValueError:
                    v = huge_integer(t)
            return v, s, e
        if g == _IDENT:
            t = text[s:e]
            if t == "true":
                return True, s, e
            if t == "false":
                return False, s, e
            if t == "null":
                return None, s, e
            if t == "Infinity":
                return math.inf, s, e
            if t == "NaN":
                return math.nan, s, e
            raise self.error(s, "unexpected word ", t[:20], ", expected a value (strings need quotes)")
        raise self.bad_token(m, "a value")

    def string(self, s: int, e: int) -> str:
        body = self.text[s + 1 : e - 1]
        if "\\" not in body:
            return body
        base = s + 1

        def repl(em: re.Match[str]) -> str:
            g = em.lastindex
            if g == 1:
                return _SINGLE_ESCAPES[em.group(1)]
            if g == 2 or g == 3:
                return chr(int(em.group(g), 16))
            if g == 4:
                return "\0"
            if g == 5:
                return ""  # line continuation
            if g == 6:
                raise self.error(base + em.start(), "bad escape ", em.group())
            return em.group(7)

        out = re.compile(_ESCAPE_SOURCE).sub(repl, body)
        if any("\ud800" <= c <= "\udfff" for c in out):
            # Escaped pairs join into one character (strings are UTF-16); a lone one stays.
            out = out.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
        return out

    def key(self, m: re.Match[str]) -> tuple[str, int, int]:
        g = m.lastindex
        s, e = m.span(g)  # type: ignore[arg-type]
        if g in (_DSTR, _SSTR):
            return self.string(s, e), s, e
        if g == _IDENT:
            t = self.text[s:e]
            if "\\" in t:
                t = _unescape_id(t)
            return t, s, e
        raise self.bad_token(m, "a key or '}'")

    def scalar(self, s: int, e: int) -> Any:
        text = self.text
        c = text[s]
        if c == '"' or c == "'":
            return self.string(s, e)
        t = text[s:e]
        if t in _WORDS:
            return _WORDS[t]
        if c not in "0123456789+-.":
            raise self.error(s, "unexpected word ", t[:20], ", expected a value (strings need quotes)")
        return _number(t)

    def diagnose(self, pos: int, depth: int, in_object: bool, expect_more: bool, start: int,
                 last_key: str | None = None) -> VoraError:
        """The precise error at ``pos``, where the fast member pattern did not match; its quote is
        hidden when it is in a secret-named member's value or right after one (``last_key``)."""
        from vora_cli.core.secrets import is_secret_name

        error = self._diagnose(pos, depth, in_object, expect_more, start)
        if isinstance(error, ParseError) and not expect_more:
            if is_secret_name(last_key):
                return error.hiding_values()
            error.inside(last_key)  # right after that member's value: judged as inside it
        return error

    def _diagnose(self, pos: int, depth: int, in_object: bool, expect_more: bool, start: int) -> VoraError:
        text = self.text
        closer = "}" if in_object else "]"
        m = _token(text, pos)
        if m.lastindex == _END:
            kind, opener = ("object", "{") if in_object else ("array", "[")
            return self.error(start, f"unclosed {kind}: this {opener!r} is never closed")
        if not expect_more:
            return self.bad_token(m, f"',' or {closer!r}")
        key: str | None = None
        if in_object:
            key, _ks, ke = self.key(m)
            m = _token(text, ke)
            if m.lastindex != _PUNCT or text[m.start(1)] != ":":
                return self.bad_token(m, f"':' after key {_short(key)}")
            m = _token(text, m.end(1))
            if m.lastindex == _END:
                return self.error(start, "unclosed object: this '{' is never closed")
        try:
            self.value(m, depth)
        except ParseError as exc:
            from vora_cli.core.secrets import is_secret_name

            if not in_object:
                return exc
            return exc.hiding_values().inside(key) if is_secret_name(key) else exc.inside(key)
        except VoraError as exc:
            return exc
        return self.bad_token(m, "a value")

    def obj(self, start: int, depth: int) -> tuple[dict[str, Any], int]:
        """The object whose "{" is at ``start``: (value, end). Records where it ends (`ends`)."""
        if depth > MAX_NESTING:
            raise self.error(start, TOO_DEEP)
        text = self.text
        member = _OBJ_MEMBER.match
        out: dict[str, Any] = {}
        key: str | None = None
        v: Any
        pos = start + 1
        expect_more = True
        starts: dict[str, int] | None = None
        if depth == 1:  # the top-level object
            starts, last = {}, [-1]
            self.root_index = (start, starts, last)
        while True:
            m = member(text, pos) if expect_more else None
            if m is None:
                if not expect_more and text.startswith("}", pos):  # after a value and its trivia
                    end = self.ends[start] = pos + 1
                    return out, end
                if expect_more:  # trivia inside the member, or no member at all
                    m = re.compile(_OBJ_MEMBER_ANY_SOURCE).match(text, pos)
                if m is None:
                    raise self.diagnose(pos, depth, True, expect_more, start, key)
            key, t, dq, sq, n, comma, brace, _closing = m.groups()
            if key is None:  # its "}"
                end = self.ends[start] = m.end()
                return out, end
            kc = key[0]
            if kc == '"' or kc == "'":
                key = key[1:-1]
                if "\\" in key:
                    key = self.string(*m.span(1))
            elif "\\" in key:
                key = _unescape_id(key)
            if key in out:
                # Valid JSON5, and the gateway takes the last one (spec config.md): read it
                # last-wins; `Json5Document.duplicate_keys` finds them when asked.
                self.duplicates = True
            if starts is not None:
                starts[key] = last[0] = pos
            try:  # free in Python 3.11 until something raises
                if brace is not None:
                    v, ve = (self.obj if brace == "{" else self.arr)(m.end() - 1, depth + 1)
                    if text.startswith(",", ve):  # the usual "},": no pattern needed
                        pos = ve + 1
                    else:
                        a = _AFTER.match(text, ve)
                        assert a is not None
                        expect_more = a.start(1) >= 0
                        pos = a.end()
                else:
                    if dq is not None:
                        v = dq if "\\" not in dq else self.string(*m.span(2))
                    elif n is not None:
                        try:  # free in Python 3.11 until something raises
                            v = int(n)
                        except ValueError:
                            v = huge_integer(n)
                    elif sq is not None:
                        v = sq if "\\" not in sq else self.string(*m.span(2))
                    elif t in _WORDS:
                        v = _WORDS[t]
                    else:  # another number, or a word that is no value
                        v = self.scalar(*m.span(2))
                    if comma is None:  # a comma after a comment or a line break, or none
                        a = _AFTER.match(text, m.end(2))
                        assert a is not None
                        expect_more = a.start(1) >= 0
                        pos = a.end()
                    else:
                        pos = m.end()
            except ParseError as exc:
                # Anything below a secret-named key is a secret: so is what the parser found there.
                from vora_cli.core.secrets import is_secret_name

                raise (exc.hiding_values() if is_secret_name(key) else exc).inside(key) from None
            out[key] = v

    def arr(self, start: int, depth: int) -> tuple[list[Any], int]:
        """The array whose "[" is at ``start``: (value, end). Records where it ends (`ends`)."""
        # Reads a value like `obj` does, written twice on purpose: this loop runs once per member
        # of the whole config, and a shared helper would add a call and a result tuple to each.
        if depth > MAX_NESTING:
            raise self.error(start, TOO_DEEP)
        text = self.text
        element = _ARR_ELEMENT.match
        out: list[Any] = []
        push = out.append
        v: Any
        pos = start + 1
        expect_more = True
        while True:
            m = element(text, pos) if expect_more else None
            if m is None:
                if not expect_more and text.startswith("]", pos):  # after a value and its trivia
                    end = self.ends[start] = pos + 1
                    return out, end
                raise self.diagnose(pos, depth, False, expect_more, start)
            t, dq, sq, n, comma, brace, _closing = m.groups()
            if brace is not None:
                try:  # free in Python 3.11 until something raises
                    v, ve = (self.obj if brace == "{" else self.arr)(m.end() - 1, depth + 1)
                except ParseError as exc:
                    raise exc.inside(len(out)) from None
                if text.startswith(",", ve):
                    pos = ve + 1
                else:
                    a = _AFTER.match(text, ve)
                    assert a is not None
                    expect_more = a.start(1) >= 0
                    pos = a.end()
            elif t is None:  # its "]"
                end = self.ends[start] = m.end()
                return out, end
            else:
                if dq is not None:
                    v = dq if "\\" not in dq else self.string(*m.span(1))
                elif n is not None:
                    try:  # free in Python 3.11 until something raises
                        v = int(n)
                    except ValueError:
                        v = huge_integer(n)
                elif sq is not None:
                    v = sq if "\\" not in sq else self.string(*m.span(1))
                elif t in _WORDS:
                    v = _WORDS[t]
                else:
                    v = self.scalar(*m.span(1))
                if comma is None:  # a comma after a comment or a line break, or none
                    a = _AFTER.match(text, m.end(1))
                    assert a is not None
                    expect_more = a.start(1) >= 0
                    pos = a.end()
                else:
                    pos = m.end()
            push(v)

    def members(self, node: Container) -> list[Member]:
        """Every member of ``node``: `scan` to its end."""
        return list(self.scan(node))

    def scan(self, node: Container, at: int | None = None) -> Iterator[Member]:
        """The spans of ``node``'s members, read from text whose layout this parser holds (so
        every pattern below matches: a failed match is the closing bracket); a member that is
        itself a container takes its end from `ends` and is scanned only if it is read in turn.
        `at`: where a member starts (as the parse went), to read from it on."""
        text = self.text
        ends = self.ends
        is_object = node.is_object
        pattern, k = (_OBJ_MEMBER, 1) if is_object else (_ARR_ELEMENT, 0)
        pos = node.start + 1 if at is None else at
        while True:
            m = pattern.match(text, pos)
            if m is None:
                m = re.compile(_OBJ_MEMBER_ANY_SOURCE).match(text, pos) if is_object else None
                assert m is not None, "trivia inside the member"
            if m.start(_CLOSE_GROUP + k) >= 0:
                assert m.end() == node.end, "a layout of this text"
                return
            if is_object:
                ks, ke = m.span(1)
                key: str | None = m.group(1)
                assert key is not None
                if key[0] == '"' or key[0] == "'":
                    key = self.string(ks, ke)
                elif "\\" in key:
                    key = _unescape_id(key)
            else:
                key = None
            vs, comma = m.start(_OPEN + k), m.start(_COMMA + k)
            if vs >= 0:
                ve = ends[vs]
                child: Container | None = Container(text[vs] == "{", vs, ve, None, self)
                comma = -1
            else:
                vs, ve = m.span(_VALUE + k)
                child = None
            if not is_object:
                ks = ke = vs
            if comma >= 0:
                pos = m.end()
            elif text.startswith(",", ve):  # the usual "},"
                comma, pos = ve, ve + 1
            else:  # a comma after a comment or a line break, or none
                a = _AFTER.match(text, ve)
                assert a is not None
                comma = a.start(1)
                pos = a.end()
            yield Member((key, ks, ke, vs, ve, comma, child))
            if comma < 0:  # `pos` is past the trivia after it: at the closing bracket
                assert pos + 1 == node.end and text[pos] in "}]", "a layout of this text"
                return


def _hex(t: str) -> int | float:
    """A hex number token's value. Past the largest double it is the ±Infinity JavaScript reads, as
    `as_double` holds it: kept as an int, one of thousands of digits could not even be printed."""
    v = -int(t[3:], 16) if t[0] == "-" else int(t.lstrip("+")[2:], 16)
    return v if v.bit_length() <= 1024 else as_double(v)


def _number(t: str) -> int | float:
    """The value of a number token (`_NUM_RE`, `Infinity` and `NaN` apart: `_WORDS`)."""
    if "x" in t or "X" in t:
        return _hex(t)
    if "." in t or "e" in t or "E" in t or t[-1] in "yN":
        return float(t)
    try:
        return int(t)
    except ValueError:
        return huge_integer(t)


def loads(text: str, *, filename: str = "<string>") -> Any:
    """Parse JSON5 text to plain values (dict, list, str, int, float, bool, None)."""
    return Parser(text, filename).parse()


