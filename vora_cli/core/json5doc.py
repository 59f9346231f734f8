"""A lossless JSON5 document: parse, read positions, and edit without touching the rest.

Spec: config.md, "The file" (JSON5) and "Writing the file: lossless". ``vora.json`` is written
by hand, full of comments and the operator's own layout; every edit here changes only the text
of the edited value (or the inserted/removed member) and leaves every other byte alone.

The scanner is one compiled regex that skips whitespace and comments and matches the next
token in C; Python only runs once per token, never per character. The parser keeps the spans
of every member (key, value, comma), which is all the editor needs.
"""

from __future__ import annotations

import gc
import json
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

from vora_cli.core.config_path import format_config_path
from vora_cli.core.errors import VoraError

__all__ = ["Json5Document", "dumps_json", "loads", "require_object"]

Path = Sequence[str | int]

# JSON5 WhiteSpace and LineTerminator (ES5.1 7.2/7.3), BOM included.
_WS = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
_TRIVIA = _WS + r"+|//[^\n\r\u2028\u2029]*|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/"
_ID_START = r"(?:[^\W\d]|\$|\\u[0-9a-fA-F]{4})"
# unrolled ("a*(?:b a*)*") so the regex engine does not try an alternation per character
_ID_PARTS = r"[\w$\u200c\u200d]*(?:\\u[0-9a-fA-F]{4}[\w$\u200c\u200d]*)*"

# Groups, in order: 1 punctuation, 2 "string", 3 'string', 4 identifier, 5 number, 6 end, 7 bad.
_TOKEN = re.compile(
    "(?:" + _TRIVIA + ")*+(?:"
    r"([{}\[\]:,])"
    r'|("(?:[^"\\\n\r]|\\(?:\r\n|[\s\S]))*")'
    r"|('(?:[^'\\\n\r]|\\(?:\r\n|[\s\S]))*')"
    "|(" + _ID_START + _ID_PARTS + ")"
    r"|([+-]?(?:0[xX][0-9a-fA-F]+|(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|Infinity|NaN)(?![\w$.]))"
    r"|(\Z)"
    r"|([\s\S]))"
)
_PUNCT, _DSTR, _SSTR, _IDENT, _NUM, _END, _BAD = 1, 2, 3, 4, 5, 6, 7

# The fast path: one match per member "key: scalar," (or "key: {" / "key: ["), so Python runs
# once per member, not once per token. Anything it does not match goes to ``diagnose``.
# Possessive: the engine must never backtrack into a comment and find a "," inside it.
_T = "(?:" + _TRIVIA + ")*+"
_DSTR_RE = r'"[^"\\\n\r]*(?:\\(?:\r\n|[\s\S])[^"\\\n\r]*)*"'
_SSTR_RE = r"'[^'\\\n\r]*(?:\\(?:\r\n|[\s\S])[^'\\\n\r]*)*'"
_NUM_RE = (
    r"[+-]?(?:0[xX][0-9a-fA-F]+|(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|Infinity|NaN)(?![\w$.])"
)
_SCALAR_RE = "(?:" + _DSTR_RE + "|" + _SSTR_RE + "|" + _NUM_RE + "|" + _ID_START + _ID_PARTS + ")"
_KEY_RE = "(?:" + _DSTR_RE + "|" + _SSTR_RE + "|" + _ID_START + _ID_PARTS + ")"
_OBJ_MEMBER = re.compile(_T + "(" + _KEY_RE + ")" + _T + ":" + _T + "(?:(" + _SCALAR_RE + ")(?:" + _T + "(,))?|([{[]))")
_ARR_ELEMENT = re.compile(_T + "(?:(" + _SCALAR_RE + ")(?:" + _T + "(,))?|([{[]))")
_AFTER = re.compile(_T + "(,)?")
_OBJ_CLOSE = re.compile(_T + "}")
_ARR_CLOSE = re.compile(_T + "]")
_WORDS: dict[str, Any] = {
    "true": True, "false": False, "null": None, "Infinity": math.inf, "+Infinity": math.inf,
    "-Infinity": -math.inf, "NaN": math.nan, "+NaN": math.nan, "-NaN": math.nan,
}

_ESCAPE = re.compile(
    r"\\(?:([\"'\\bfnrtv])|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|(0)(?![0-9])|(\r\n|[\n\r\u2028\u2029])"
    r"|([0-9xu])|([\s\S]))"
)
_SINGLE_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_ID_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")
# What may follow a value or comma on the same line: blanks, a line comment, block comments.
_SAME_LINE_TRIVIA = re.compile(r"(?:[ \t]+|//[^\n\r]*|/\*[^\n\r]*?\*/)*+")
_MAX_DEPTH = 400
_PARSE_HINT = "fix the JSON5 syntax at that place in the file"


class _Member(tuple[Any, ...]):
    """One object member or array element: where its key, value and comma are in the text.

    A tuple built in C (``_Member((key, kstart, kend, vstart, vend, comma, node))``): a parse
    makes one per member, and a Python ``__init__`` per member costs a fifth of the parse.
    ``kstart == vstart`` for an array element; ``comma`` is -1 when there is none; ``node`` is the
    container node when the value is an object or array.
    """

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
    def node(self) -> _Container | None:
        return self[6]  # type: ignore[no-any-return]


class _Container:
    __slots__ = ("end", "is_object", "members", "start")

    def __init__(self, is_object: bool, start: int, end: int, members: list[_Member]) -> None:
        self.is_object = is_object
        self.start = start  # position of "{" or "["
        self.end = end  # position just after "}" or "]"
        self.members = members

    def index_of(self, key: str) -> int:
        for i, m in enumerate(self.members):
            if m.key == key:
                return i
        return -1


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    line_start = text.rfind("\n", 0, pos) + 1
    col = pos - line_start + 1
    if line == 1 and text.startswith("\ufeff") and pos > 0:
        col -= 1  # editors do not show the BOM: do not count it
    return line, col


class _Parser:
    def __init__(self, text: str, filename: str) -> None:
        self.text = text
        self.filename = filename

    def error(self, pos: int, what: str) -> VoraError:
        text = self.text
        line, col = _line_col(text, pos)
        snippet = text[pos : pos + 20]
        cut = len(snippet)
        for stop in ("\n", "\r"):
            i = snippet.find(stop)
            if i >= 0:
                cut = min(cut, i)
        snippet = snippet[:cut]
        return VoraError("parse_error", f"{self.filename}:{line}:{col}: {what} (found {snippet!r})", _PARSE_HINT)

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
            return self.error(s, f"unexpected character {c!r}, expected {expected}")
        return self.error(s, f"unexpected {text[s : m.end(g)][:20]!r}, expected {expected}")  # type: ignore[arg-type]

    def parse(self) -> tuple[Any, _Member]:
        # A big file makes hundreds of thousands of containers the cycle collector would scan
        # again and again for nothing (none of them can form a cycle): pause it while parsing.
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return self._parse()
        finally:
            if was_enabled:
                gc.enable()

    def _parse(self) -> tuple[Any, _Member]:
        text = self.text
        nul = text.find("\x00")
        if nul >= 0:
            raise self.error(nul, "NUL byte in the file")
        m = _TOKEN.match(text, 0)
        assert m is not None
        if m.lastindex == _END:
            raise self.error(m.start(_END), "empty document, expected a value")
        value, node, vs, ve = self.value(m, 0)
        m = _TOKEN.match(text, ve)
        assert m is not None
        if m.lastindex != _END:
            s = m.start(m.lastindex)  # type: ignore[arg-type]
            raise self.error(s, "unexpected text after the top-level value")
        return value, _Member((None, vs, vs, vs, ve, -1, node))

    def value(self, m: re.Match[str], depth: int) -> tuple[Any, _Container | None, int, int]:
        g = m.lastindex
        s, e = m.span(g)  # type: ignore[arg-type]
        text = self.text
        if g == _PUNCT:
            c = text[s]
            if c == "{":
                return self.obj(s, depth + 1)
            if c == "[":
                return self.arr(s, depth + 1)
            raise self.bad_token(m, "a value")
        if g in (_DSTR, _SSTR):
            return self.string(s, e), None, s, e
        if g == _NUM:
            t = text[s:e]
            if "x" in t or "X" in t:
                v: Any = -int(t[3:], 16) if t[0] == "-" else int(t.lstrip("+")[2:], 16)
            elif "." in t or "e" in t or "E" in t or t[-1] in "yN":
                v = float(t)
            else:
                v = int(t)
            return v, None, s, e
        if g == _IDENT:
            t = text[s:e]
            if t == "true":
                return True, None, s, e
            if t == "false":
                return False, None, s, e
            if t == "null":
                return None, None, s, e
            if t == "Infinity":
                return math.inf, None, s, e
            if t == "NaN":
                return math.nan, None, s, e
            raise self.error(s, f"unexpected word {t[:20]!r}, expected a value (strings need quotes)")
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
                raise self.error(base + em.start(), f"bad escape {em.group()!r}")
            return em.group(7)

        out = _ESCAPE.sub(repl, body)
        if any("\ud800" <= c <= "\udfff" for c in out):
            try:
                out = out.encode("utf-16", "surrogatepass").decode("utf-16")
            except UnicodeDecodeError:
                pass  # a lone surrogate stays as written
        return out

    def key(self, m: re.Match[str]) -> tuple[str, int, int]:
        g = m.lastindex
        s, e = m.span(g)  # type: ignore[arg-type]
        if g in (_DSTR, _SSTR):
            return self.string(s, e), s, e
        if g == _IDENT:
            t = self.text[s:e]
            if "\\" in t:
                t = _ID_ESCAPE.sub(lambda im: chr(int(im.group(1), 16)), t)
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
            raise self.error(s, f"unexpected word {t[:20]!r}, expected a value (strings need quotes)")
        if "x" in t or "X" in t:
            return -int(t[3:], 16) if t[0] == "-" else int(t.lstrip("+")[2:], 16)
        if "." in t or "e" in t or "E" in t or t[-1] in "yN":
            return float(t)
        return int(t)

    def diagnose(self, pos: int, depth: int, in_object: bool, expect_more: bool, start: int) -> VoraError:
        """The precise error at ``pos``, where the fast member pattern did not match."""
        text = self.text
        closer = "}" if in_object else "]"
        m = _TOKEN.match(text, pos)
        assert m is not None
        if m.lastindex == _END:
            kind, opener = ("object", "{") if in_object else ("array", "[")
            return self.error(start, f"unclosed {kind}: this {opener!r} is never closed")
        if not expect_more:
            return self.bad_token(m, f"',' or {closer!r}")
        if in_object:
            key, _ks, ke = self.key(m)
            m = _TOKEN.match(text, ke)
            assert m is not None
            if m.lastindex != _PUNCT or text[m.start(1)] != ":":
                return self.bad_token(m, f"':' after key {key!r}")
            m = _TOKEN.match(text, m.end(1))
            assert m is not None
            if m.lastindex == _END:
                return self.error(start, "unclosed object: this '{' is never closed")
        try:
            self.value(m, depth)
        except VoraError as exc:
            return exc
        return self.bad_token(m, "a value")

    def obj(self, start: int, depth: int) -> tuple[Any, _Container, int, int]:
        if depth > _MAX_DEPTH:
            raise self.error(start, "nesting too deep")
        text = self.text
        member = _OBJ_MEMBER.match
        members: list[_Member] = []
        add = members.append
        out: dict[str, Any] = {}
        pos = start + 1
        expect_more = True
        while True:
            m = member(text, pos)
            if m is None or not expect_more:
                close = _OBJ_CLOSE.match(text, pos)
                if close is not None:
                    end = close.end()
                    return out, _Container(True, start, end, members), start, end
                raise self.diagnose(pos, depth, True, expect_more, start)
            ks, ke = m.span(1)
            key = m.group(1)
            kc = key[0]
            if kc == '"' or kc == "'":
                key = key[1:-1]
                if "\\" in key:
                    key = self.string(ks, ke)
            elif "\\" in key:
                key = _ID_ESCAPE.sub(lambda im: chr(int(im.group(1), 16)), key)
            if key in out:
                first = next(x for x in members if x.key == key)
                fl, fc = _line_col(text, first.kstart)
                raise self.error(ks, f"duplicate key {key!r} (first at line {fl}, col {fc})")
            vs = m.start(4)
            if vs >= 0:
                v, node, vs, ve = (self.obj if text[vs] == "{" else self.arr)(vs, depth + 1)
                a = _AFTER.match(text, ve)
                assert a is not None
                comma = a.start(1)
                pos = a.end()
            else:
                vs, ve = m.span(2)
                t = m.group(2)
                c = t[0]
                if c == '"' or c == "'":
                    v = t[1:-1]
                    if "\\" in v:
                        v = self.string(vs, ve)
                elif t in _WORDS:
                    v = _WORDS[t]
                else:
                    v = self.scalar(vs, ve)
                node = None
                comma = m.start(3)
                pos = m.end()
            out[key] = v
            add(_Member((key, ks, ke, vs, ve, comma, node)))
            expect_more = comma >= 0

    def arr(self, start: int, depth: int) -> tuple[Any, _Container, int, int]:
        if depth > _MAX_DEPTH:
            raise self.error(start, "nesting too deep")
        text = self.text
        element = _ARR_ELEMENT.match
        members: list[_Member] = []
        add = members.append
        out: list[Any] = []
        push = out.append
        pos = start + 1
        expect_more = True
        while True:
            m = element(text, pos)
            if m is None or not expect_more:
                close = _ARR_CLOSE.match(text, pos)
                if close is not None:
                    end = close.end()
                    return out, _Container(False, start, end, members), start, end
                raise self.diagnose(pos, depth, False, expect_more, start)
            vs = m.start(3)
            if vs >= 0:
                v, node, vs, ve = (self.obj if text[vs] == "{" else self.arr)(vs, depth + 1)
                a = _AFTER.match(text, ve)
                assert a is not None
                comma = a.start(1)
                pos = a.end()
            else:
                vs, ve = m.span(1)
                t = m.group(1)
                c = t[0]
                if c == '"' or c == "'":
                    v = t[1:-1]
                    if "\\" in v:
                        v = self.string(vs, ve)
                elif t in _WORDS:
                    v = _WORDS[t]
                else:
                    v = self.scalar(vs, ve)
                node = None
                comma = m.start(2)
                pos = m.end()
            push(v)
            add(_Member((None, vs, vs, vs, ve, comma, node)))
            expect_more = comma >= 0


def loads(text: str, *, filename: str = "<string>") -> Any:
    """Parse JSON5 text to plain values (dict, list, str, int, float, bool, None)."""
    return _Parser(text, filename).parse()[0]


def dumps_json(value: Any, indent: str | None = None) -> str:
    """Render a new value as plain JSON (``Infinity``/``NaN`` for non-finite floats)."""
    try:
        return json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=True)
    except (TypeError, ValueError) as exc:
        raise VoraError("invalid", f"value cannot be written as JSON: {exc}") from None


def require_object(doc_or_value: Any, filename: str) -> dict[str, Any]:
    """The top-level value of a config file must be an object; return it."""
    value = doc_or_value.value if isinstance(doc_or_value, Json5Document) else doc_or_value
    if not isinstance(value, dict):
        found = "array" if isinstance(value, list) else type(value).__name__
        raise VoraError(
            "invalid",
            f"{filename}: the top-level value must be an object, found {found}",
            "wrap the settings in { ... }",
        )
    return value


def _strict_eq(a: Any, b: Any) -> bool:
    """Equality that tells 1, 1.0 and True apart, keeps key order, and has NaN == NaN."""
    if a is b:
        return True
    ta = type(a)
    if ta is not type(b):
        return False
    if ta is dict:
        if len(a) != len(b) or list(a) != list(b):
            return False
        return all(_strict_eq(v, b[k]) for k, v in a.items())
    if ta is list:
        return len(a) == len(b) and all(_strict_eq(x, y) for x, y in zip(a, b, strict=True))
    if ta is float:
        return bool(a == b or (a != a and b != b))
    return bool(a == b)


def _merge(target: Any, patch: Any) -> Any:
    """RFC 7386 merge patch on plain values (new containers on the patched paths only)."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = _merge(out.get(k), v)
    return out


def _patch_ops(target: dict[str, Any], patch: dict[str, Any], prefix: tuple[str | int, ...]) -> Iterator[
    tuple[str, tuple[str | int, ...], Any]
]:
    for k, pv in patch.items():
        path = (*prefix, k)
        if pv is None:
            if k in target:
                yield ("unset", path, None)
        elif isinstance(pv, dict) and isinstance(target.get(k), dict):
            yield from _patch_ops(target[k], pv, path)
        else:
            new = _merge(None, pv)
            if not (k in target and _strict_eq(target[k], new)):
                yield ("set", path, new)


def _describe(path: Path) -> str:
    return format_config_path(path) if path else "the top-level value"


class Json5Document:
    """A parsed JSON5 text that edits itself losslessly; every edit returns a new document."""

    __slots__ = ("_root", "filename", "text", "value")

    def __init__(self, text: str, value: Any, root: _Member, filename: str) -> None:
        self.text = text
        self.value = value
        self._root = root
        self.filename = filename

    @classmethod
    def parse(cls, text: str, *, filename: str = "<string>") -> Json5Document:
        value, root = _Parser(text, filename).parse()
        return cls(text, value, root, filename)

    def __repr__(self) -> str:
        return f"Json5Document(filename={self.filename!r}, {len(self.text)} chars)"

    # -- reading ---------------------------------------------------------------------------

    def _walk(self, path: Path) -> list[tuple[_Container | None, _Member]]:
        """The members along ``path`` as (parent container, member), as far as they exist."""
        chain: list[tuple[_Container | None, _Member]] = [(None, self._root)]
        member = self._root
        for seg in path:
            node = member.node
            if node is None:
                break
            if node.is_object:
                if not isinstance(seg, str):
                    break
                i = node.index_of(seg)
            else:
                if not isinstance(seg, int) or isinstance(seg, bool):
                    break
                i = seg if 0 <= seg < len(node.members) else -1
            if i < 0:
                break
            member = node.members[i]
            chain.append((node, member))
        return chain

    def get_node_position(self, path: Path) -> tuple[int, int] | None:
        """(line, col), 1-based, of the member's key (or the array element) at ``path``."""
        chain = self._walk(path)
        if len(chain) != len(path) + 1:
            return None
        return _line_col(self.text, chain[-1][1].kstart)

    # -- editing ---------------------------------------------------------------------------

    def set(self, path: Path, value: Any) -> Json5Document:
        """Set the value at ``path`` (creating missing objects); returns a new document."""
        path = tuple(path)
        dumps_json(value)  # refuse what cannot be written before touching anything
        if self._exists(path) and _strict_eq(self._get(path), value):
            return self
        new_text = self._set_text(path, value)
        expected = _with(self.value, path, value)
        return self._checked(new_text, expected, f"set {_describe(path)}", focus=path)

    def unset(self, path: Path) -> Json5Document:
        """Remove the member or array element at ``path``; returns a new document."""
        path = tuple(path)
        if not path:
            raise VoraError("invalid", "cannot unset the top-level value", "name a key inside it")
        self._check_path(path, creating=False)
        if not self._exists(path):
            raise VoraError("not_found", f"{_describe(path)} is not set", "check the path with vora config get")
        new_text = self._unset_text(path)
        expected = _without(self.value, path)
        return self._checked(new_text, expected, f"unset {_describe(path)}", focus=path[:-1])

    def merge_patch(self, patch: Any) -> Json5Document:
        """Apply an RFC 7386 merge patch; one resulting text, checked as a whole."""
        if not isinstance(patch, dict) or not isinstance(self.value, dict):
            return self.set((), _merge(None, patch))
        ops = list(_patch_ops(self.value, patch, ()))
        if not ops:
            return self
        doc: Json5Document = self
        for op, path, value in ops:
            text = doc._set_text(path, value) if op == "set" else doc._unset_text(path)
            doc = doc._reparse(text, "merge patch")
        return self._checked(doc.text, _merge(self.value, patch), "merge patch", doc)

    # -- editing internals -----------------------------------------------------------------

    def _reparse(self, text: str, what: str) -> Json5Document:
        try:
            return Json5Document.parse(text, filename=self.filename)
        except VoraError as exc:
            raise VoraError(
                "internal", f"{what}: the edited text does not parse ({exc.message}); nothing was changed"
            ) from None

    def _checked(
        self, new_text: str, expected: Any, what: str, doc: Json5Document | None = None, focus: Path = ()
    ) -> Json5Document:
        """Re-parse the edited text and make sure exactly the intended change happened."""
        new = doc if doc is not None else self._reparse(new_text, what)
        # ``==`` runs in C; it cannot tell 1 from 1.0 or True, so the edited part is compared
        # strictly as well. NaN makes ``==`` false: then the whole tree is compared strictly.
        if new.value == expected:
            ok = _strict_eq(_get_or_none(new.value, focus), _get_or_none(expected, focus))
        else:
            ok = _strict_eq(new.value, expected)
        if not ok:
            raise VoraError(
                "internal",
                f"{what}: the edited text does not hold exactly the intended change; nothing was changed",
                "report this as a bug with the config file attached (redact secrets)",
            )
        return new

    def _exists(self, path: Path) -> bool:
        return len(self._walk(path)) == len(path) + 1

    def _get(self, path: Path) -> Any:
        v = self.value
        for seg in path:
            v = v[seg]
        return v

    def _check_path(self, path: Path, *, creating: bool) -> None:
        """Raise for a path that walks through a scalar, indexes an object, or runs past an end."""
        v = self.value
        for depth, seg in enumerate(path):
            here = _describe(path[:depth])
            last = depth == len(path) - 1
            if isinstance(v, dict):
                if not isinstance(seg, str):
                    raise VoraError(
                        "invalid", f"{here} is an object; index [{seg}] does not apply ({_describe(path)})"
                    )
                if seg not in v:
                    return
                v = v[seg]
            elif isinstance(v, list):
                if not isinstance(seg, int) or isinstance(seg, bool):
                    raise VoraError(
                        "invalid", f"{here} is an array; key {seg!r} does not apply ({_describe(path)})",
                        "use an index such as [0]",
                    )
                if seg < 0 or seg > len(v) or (seg == len(v) and not (creating and last)):
                    raise VoraError(
                        "not_found",
                        f"{_describe(path)}: index {seg} is past the end of {here} (length {len(v)})",
                        f"an append uses index [{len(v)}]" if creating else None,
                    )
                if seg == len(v):
                    return
                v = v[seg]
            else:
                kind = "null" if v is None else type(v).__name__
                raise VoraError(
                    "invalid",
                    f"{_describe(path)}: {here} is a {kind}, not an object or array",
                    f"unset {here} first, or set it to an object",
                )

    def _eol(self) -> str:
        i = self.text.find("\n")
        return "\r\n" if i > 0 and self.text[i - 1] == "\r" else "\n"

    def _line_indent(self, pos: int) -> str:
        """The blanks at the start of the line holding ``pos``."""
        text = self.text
        ls = text.rfind("\n", 0, pos) + 1
        m = re.compile(r"[ \t]*").match(text, ls)
        assert m is not None
        return m.group()

    def _own_line(self, pos: int) -> bool:
        """Whether only blanks come before ``pos`` on its line."""
        text = self.text
        ls = text.rfind("\n", 0, pos) + 1
        return text[ls:pos].strip(" \t\ufeff") == ""

    def _multiline(self, node: _Container) -> bool:
        if node.members:
            return "\n" in self.text[node.start : node.members[0].kstart]
        return "\n" in self.text[node.start : node.end]

    def _indent_unit(self, chain: list[tuple[_Container | None, _Member]]) -> str:
        """The file's indent step, learnt from the nearest multi-line container on the path."""
        nodes = [m.node for _, m in chain if m.node is not None]
        for node in reversed(nodes):
            if node.members and self._multiline(node) and self._own_line(node.members[0].kstart):
                outer = self._line_indent(node.start)
                inner = self._line_indent(node.members[0].kstart)
                if inner.startswith(outer) and len(inner) > len(outer):
                    return inner[len(outer) :]
        return "  "

    def _render(self, value: Any, multiline: bool, base: str, unit: str) -> str:
        if multiline and isinstance(value, dict | list) and value:
            return dumps_json(value, unit).replace("\n", self._eol() + base)
        return dumps_json(value)

    def _set_text(self, path: Path, value: Any) -> str:
        self._check_path(path, creating=True)
        chain = self._walk(path)
        unit = self._indent_unit(chain)
        text = self.text
        if len(chain) == len(path) + 1:  # replace an existing value
            parent, member = chain[-1]
            multiline = parent is None or self._multiline(parent)
            base = self._line_indent(member.kstart)
            new = self._render(value, multiline, base, unit)
            return text[: member.vstart] + new + text[member.vend :]
        # insert: the deepest existing node is a container; build the rest as nested objects
        found = len(chain) - 1
        parent_of_node, holder = chain[-1]
        node = holder.node
        assert node is not None
        new_value: Any = value
        for seg in reversed(path[found + 1 :]):
            new_value = {seg: new_value}
        key = path[found]
        parent_multiline = parent_of_node is None or self._multiline(parent_of_node)
        edits = self._insert(node, key if node.is_object else None, new_value, parent_multiline, unit)
        return _apply(text, edits)

    def _member_text(self, node: _Container, key: str | int | None, value: Any, multiline: bool, base: str,
                     unit: str) -> str:
        rendered = self._render(value, multiline, base, unit)
        if key is None:
            return rendered
        colon = ": "
        if node.members:
            last = node.members[-1]
            gap = self.text[last.kend : last.vstart]
            if re.fullmatch(r"[ \t]*:[ \t]*", gap):
                colon = gap
        return json.dumps(key, ensure_ascii=False) + colon + rendered

    def _insert(self, node: _Container, key: str | int | None, value: Any, parent_multiline: bool,
                unit: str) -> list[tuple[int, int, str]]:
        text = self.text
        eol = self._eol()
        members = node.members
        if members:
            last = members[-1]
            trailing = last.comma >= 0
            after = last.comma + 1 if trailing else last.vend
            edits: list[tuple[int, int, str]] = []
            if not trailing:
                edits.append((last.vend, last.vend, ","))
            if self._multiline(node):
                if self._own_line(last.kstart):
                    indent = self._line_indent(last.kstart)
                elif self._own_line(members[0].kstart):
                    indent = self._line_indent(members[0].kstart)
                else:
                    indent = self._line_indent(node.start) + unit
                item = self._member_text(node, key, value, True, indent, unit)
                m = _SAME_LINE_TRIVIA.match(text, after)
                assert m is not None
                q = m.end()
                at = q if q == len(text) or text[q] in "\r\n" else after
                edits.append((at, at, eol + indent + item + ("," if trailing else "")))
            else:
                sep = " "
                if len(members) >= 2 and members[-2].comma >= 0:
                    gap = text[members[-2].comma + 1 : last.kstart]
                    if gap.strip(" \t") == "":
                        sep = gap
                item = self._member_text(node, key, value, False, "", unit)
                edits.append((after, after, sep + item + ("," if trailing else "")))
            return edits
        inner_start, inner_end = node.start + 1, node.end - 1
        inner = text[inner_start:inner_end]
        if "\n" in inner:
            close_ls = text.rfind("\n", 0, inner_end) + 1
            if text[close_ls:inner_end].strip(" \t") == "":
                indent = text[close_ls:inner_end] + unit
                item = self._member_text(node, key, value, True, indent, unit)
                return [(close_ls, close_ls, indent + item + eol)]
            indent = self._line_indent(node.start) + unit
            item = self._member_text(node, key, value, True, indent, unit)
            return [(inner_end, inner_end, eol + indent + item + eol + self._line_indent(node.start))]
        keep = inner if inner.strip() else ""
        if node.is_object and parent_multiline:
            outer = self._line_indent(node.start)
            indent = outer + unit
            item = self._member_text(node, key, value, True, indent, unit)
            return [(inner_start, inner_end, keep + eol + indent + item + eol + outer)]
        item = self._member_text(node, key, value, False, "", unit)
        return [(inner_start, inner_end, item + keep)]

    def _unset_text(self, path: Path) -> str:
        chain = self._walk(path)
        node, member = chain[-1]
        assert node is not None
        return _apply(self.text, self._remove(node, node.members.index(member)))

    def _remove(self, node: _Container, i: int) -> list[tuple[int, int, str]]:
        text = self.text
        members = node.members
        m = members[i]
        n = len(members)
        edits: list[tuple[int, int, str]] = []
        end = m.comma + 1 if m.comma >= 0 else m.vend
        tm = _SAME_LINE_TRIVIA.match(text, end)
        assert tm is not None
        q = tm.end()
        at_eol = q == len(text) or text[q] in "\r\n"
        if self._own_line(m.kstart) and at_eol:
            # The member owns its line(s): drop them, with its own trailing comment.
            ls = text.rfind("\n", 0, m.kstart) + 1
            if text.startswith("\r\n", q):
                q += 2
            elif q < len(text):
                q += 1
            start, stop = ls, q
        elif i < n - 1:
            # Shares a line with the next member: drop "key: value, " up to the next thing.
            blanks = re.compile(r"[ \t]*").match(text, end)
            assert blanks is not None
            start, stop = m.kstart, blanks.end()
        else:
            start = m.kstart
            while start > 0 and text[start - 1] in " \t":
                start -= 1
            stop = end
        if i == n - 1 and i > 0 and m.comma < 0 and members[i - 1].comma >= 0:
            # The previous comma was there only to separate this member (no trailing commas here).
            c = members[i - 1].comma
            edits.append((c, c + 1, ""))
        if n == 1:
            rest = text[node.start + 1 : start] + text[stop : node.end - 1]
            if rest.strip() == "":
                return [(node.start + 1, node.end - 1, "")]
        edits.append((start, stop, ""))
        return edits


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping (start, stop, replacement) edits; equal starts keep their order."""
    out: list[str] = []
    pos = 0
    for start, stop, rep in sorted(edits, key=lambda e: e[0]):
        out.append(text[pos:start])
        out.append(rep)
        pos = max(pos, stop)
    out.append(text[pos:])
    return "".join(out)


def _with(tree: Any, path: Path, value: Any) -> Any:
    """``tree`` with ``value`` at ``path``: copies along the path, shares everything else."""
    if not path:
        return value
    seg, rest = path[0], path[1:]
    if isinstance(tree, dict):
        out = dict(tree)
        out[seg] = _with(tree.get(seg) if seg in tree else {}, rest, value)
        return out
    if isinstance(tree, list):
        assert isinstance(seg, int)
        lst = list(tree)
        if seg == len(lst):
            lst.append(_with({}, rest, value))
        else:
            lst[seg] = _with(lst[seg], rest, value)
        return lst
    return _with({}, path, value)


def _get_or_none(tree: Any, path: Path) -> Any:
    for seg in path:
        try:
            tree = tree[seg]
        except (KeyError, IndexError, TypeError):
            return None
    return tree


def _without(tree: Any, path: Path) -> Any:
    seg, rest = path[0], path[1:]
    if isinstance(tree, dict):
        out = dict(tree)
        if rest:
            out[seg] = _without(tree[seg], rest)
        else:
            del out[seg]
        return out
    lst = list(tree)
    assert isinstance(seg, int)
    if rest:
        lst[seg] = _without(lst[seg], rest)
    else:
        del lst[seg]
    return lst
