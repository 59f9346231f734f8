"""Text rules vora shares with the gateway: its names (`NAME_RE`, spec README "Profiles"), and JavaScript's
strings: lengths in UTF-16 code units, `trimEnd`'s whitespace, a code-unit sort (docs/context.md).
"""

from __future__ import annotations

import re

# Both letter cases spelled out, as the gateway's `/^[a-z0-9][a-z0-9_-]{0,63}$/i` reads them: Python's
# IGNORECASE also took U+0130, U+0131, U+017F and U+212A (they fold to i, s and k), which
# JavaScript's /i does not, and is costlier to compile on every run. `\Z`: `$` takes a final newline.
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\Z")

# C0/C1 control characters (but newline and tab), the line and paragraph separators U+2028/U+2029
# and the bidi overrides: text from files, devices or a gateway must not drive the terminal or
# break a table row or one-line message in two. Lone surrogates cannot be encoded at all: they
# are shown as escapes too. The one home of the rule (`cli/output.py`, `core/doctor/ci_formats.py`).
# Compiled where used (`re`'s cache keeps them): printable text, the common case, never needs them.
_UNSAFE = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
_UNSAFE_IN_A_LINE = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def escape_controls(text: str) -> str:
    """`text` with every character a terminal would act on shown as an escape (`\\x1b`, `\\u2028`);
    newlines and tabs are kept."""
    if text.isprintable():  # the common case, checked in C (bidi overrides are not printable)
        return text
    return re.compile(_UNSAFE).sub(_escape, text)


def one_line(text: str) -> str:
    """`escape_controls`, and a newline or tab shown as `\\n`/`\\t` too: for what must stay one line
    (a table cell, a log line, an error message), so a name with a newline cannot add a row or
    forge the next line."""
    if text.isprintable():
        return text
    return re.compile(_UNSAFE_IN_A_LINE).sub(_escape, text)

# What JavaScript's trimEnd removes (WhiteSpace + LineTerminator). Python's str.rstrip()
# differs: it also strips U+001C-U+001F and U+0085 and keeps U+FEFF.
JS_WHITESPACE = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def utf16_len(s: str) -> int:
    """Length in UTF-16 code units, as JavaScript's ``String.length``."""
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def utf16_slice(s: str, start: int, stop: int) -> str:
    """``s.slice(start, stop)`` in JavaScript terms (non-negative bounds); may split a pair."""
    if s.isascii():
        return s[start:stop]
    data = s.encode("utf-16-le", "surrogatepass")
    return data[2 * start : 2 * stop].decode("utf-16-le", "surrogatepass")


def js_trim_end(s: str) -> str:
    """``s.trimEnd()``: JavaScript's whitespace set, not Python's."""
    return s.rstrip(JS_WHITESPACE)


def js_trim(s: str) -> str:
    """``s.trim()``: JavaScript's whitespace set at both ends (a path value is trimmed so)."""
    return s.strip(JS_WHITESPACE)


def estimate_tokens(chars: int) -> int:
    """The gateway's token estimate: ``ceil(chars / 4)``."""
    return -(-chars // 4)


def utf16_sort_key(s: str) -> str:
    """JavaScript's default sort key (UTF-16 code units): code point order, except that a
    character outside the BMP sorts as its surrogate pair, so such characters become their two
    halves; every other string is its own key."""
    if s.isascii() or max(s) < "\U00010000":
        return s
    return "".join(c if c < "\U00010000" else _surrogate_pair(ord(c)) for c in s)


def _surrogate_pair(code: int) -> str:
    code -= 0x10000
    return chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF))
