"""The config path syntax of the command line (spec: config.md, "Paths on the command line").

``agents.list[0].id``, ``plugins.entries["my.plugin"].enabled``, ``a.b\\.c``. Parsing gives
segments: a ``str`` is an object key, an ``int`` an array index. A bare numeric dotted segment
(``channels.discord.123456``) stays a ``str``: only :func:`resolve_segments`, which sees the
tree, knows whether the node there is an array (index) or an object (key, e.g. a Discord id).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Segment = str | int  # an object key, or an array index
ConfigPath = tuple[Segment, ...]

_HINT = (
    'write keys separated by dots, indexes in brackets and odd keys quoted: '
    'agents.list[0].id, plugins.entries["my.plugin"].enabled, a.b\\.c'
)
_BARE_KEY = r"[A-Za-z_$][A-Za-z0-9_$-]*\Z"
_NUMERIC = r"[0-9]+\Z"


def _short_digits(digits: str) -> str:
    return digits if len(digits) <= 24 else digits[:24] + "…"


def _fail(text: str, position: int, what: str) -> VoraError:
    shown = text if len(text) <= 200 else text[:200] + "…"
    return VoraError("usage", f"invalid config path {shown!r}: {what} at position {position}", _HINT)


def _read_escaped(text: str, i: int, stops: str) -> tuple[str, int]:
    """The characters from ``i`` up to one of ``stops`` (or the end), a backslash taking the next
    one as it is; returns them and where the scan stopped."""
    n = len(text)
    buf: list[str] = []
    while i < n and text[i] not in stops:
        if text[i] == "\\":
            if i + 1 >= n:
                raise _fail(text, i, "trailing backslash")
            i += 1
        buf.append(text[i])
        i += 1
    return "".join(buf), i


def parse_config_path(text: str) -> tuple[Segment, ...]:
    """Split a command-line config path into key (str) and index (int) segments."""
    if text == "":
        raise VoraError("usage", "invalid config path '': the path is empty", _HINT)
    segments: list[Segment] = []
    i = 0
    n = len(text)
    # ``expect_key`` is true at the start and after a dot: a bare key must follow there.
    expect_key = True
    while i < n:
        c = text[i]
        if c == "[":
            start = i
            i += 1
            if i < n and text[i] in "\"'":
                quote = text[i]
                i += 1
                key, i = _read_escaped(text, i, quote)
                if i >= n:
                    raise _fail(text, start, "unclosed quote in bracket")
                i += 1  # closing quote
                if i >= n or text[i] != "]":
                    raise _fail(text, start, "unclosed bracket")
                i += 1
                segments.append(key)
            else:
                close = text.find("]", i)
                if close < 0:
                    raise _fail(text, start, "unclosed bracket")
                inner = text[i:close].strip()
                if not re.match(_NUMERIC, inner):
                    raise _fail(text, start, f"bad index [{text[i:close]}] (an index is a number >= 0)")
                try:
                    segments.append(int(inner))
                except ValueError:  # more digits than `int()` reads: past any array
                    raise _fail(text, start, f"index [{_short_digits(inner)}] is too large") from None
                i = close + 1
            expect_key = False
            if i < n:
                if text[i] == ".":
                    i += 1
                    expect_key = True
                    if i >= n:
                        raise _fail(text, i, "empty segment")
                elif text[i] != "[":
                    raise _fail(text, i, f"unexpected {text[i]!r} after ']'")
            continue
        if not expect_key:
            raise _fail(text, i, f"unexpected {c!r}")
        start = i
        key, i = _read_escaped(text, i, ".[")
        if i == start:
            raise _fail(text, start, "empty segment")
        segments.append(key)
        expect_key = False
        if i < n and text[i] == ".":
            i += 1
            expect_key = True
            if i >= n:
                raise _fail(text, i, "empty segment")
    return tuple(segments)


def resolve_segments(tree: Any, segments: Sequence[Segment]) -> tuple[Segment, ...]:
    """Turn numeric ``str`` segments into indexes where the node at that point is an array; under
    an object they stay keys. Past where the path leaves the tree the rest is kept as given
    (``set`` creates objects there)."""
    out: list[Segment] = []
    node: Any = tree
    for seg in segments:
        if isinstance(node, list) and isinstance(seg, str) and re.match(_NUMERIC, seg):
            try:
                seg = int(seg)
            except ValueError:  # more digits than `int()` reads: past any array, so a key it lacks
                pass
        out.append(seg)
        if isinstance(node, dict) and isinstance(seg, str):
            node = node.get(seg)
        elif isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
            node = node[seg]
        else:
            node = None
    return tuple(out)


def format_config_path(segments: Sequence[Segment]) -> str:
    """The inverse of :func:`parse_config_path`: keys that need it are quoted in brackets."""
    parts: list[str] = []
    for seg in segments:
        if isinstance(seg, bool) or not isinstance(seg, str | int):
            raise TypeError(f"path segment must be str or int, not {type(seg).__name__}")
        if isinstance(seg, int):
            parts.append(f"[{seg}]")
        elif re.match(_BARE_KEY, seg) or (re.match(_NUMERIC, seg) and parts):
            parts.append(("." if parts else "") + seg)
        else:
            escaped = seg.replace("\\", "\\\\").replace('"', '\\"')
            parts.append(f'["{escaped}"]')
    return "".join(parts) if parts else "."
