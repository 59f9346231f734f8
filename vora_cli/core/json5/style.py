"""New text that looks like its neighbours: the key quoting, string quotes, brace spacing, trailing commas
and indent step an edit copies from the file around it (docs/config.md, "New text looks like its neighbours").
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from vora_cli.core.json5.parser import Container
from vora_cli.core.json5.values import dumps_json, escape_surrogates
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# ASCII identifiers only: every JSON5 reader takes them bare. The literal words stay quoted
# (JSON5 allows them as keys, but some readers do not).
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")
_WORDS = frozenset({"true", "false", "null", "Infinity", "NaN"})
_ESCAPE_OR_QUOTE = re.compile(r"\\(.)|'", re.DOTALL)
_MEMBERS_LOOKED_AT = 64  # per container: enough to learn a style, bounded on a large file


@dataclass(frozen=True)
class TextStyle:
    """How a config text writes things, so new text matches its neighbours."""
    key_quote: str  # "" for bare identifier keys, else '"' or "'"
    string_quote: str  # '"' or "'"
    brace_space: bool  # inline objects written `{ a: 1 }` rather than `{a: 1}`
    trailing_comma: bool  # multi-line containers end their last member with a comma
    unit: str  # one indent step
    eol: str  # "\n" or "\r\n"


def learn_style(text: str, nodes: Sequence[Container], unit: str, eol: str) -> TextStyle:
    """The style of the containers around an edit, nearest first (`nodes`: deepest first)."""
    key_quote: str | None = None
    string_quote: str | None = None
    brace_space: bool | None = None
    trailing: bool | None = None
    for node in nodes:
        members = node.head(_MEMBERS_LOOKED_AT)
        if trailing is None and members and "\n" in text[node.start : members[0].kstart]:
            last = node.last()
            assert last is not None
            trailing = last.comma >= 0
        for member in members:
            if key_quote is None and member.key is not None:
                c = text[member.kstart]
                # A key quoted because it must be (`"1"`, `"a-b"`) says nothing of the file's habit.
                if c not in "\"'" or can_be_bare(member.key):
                    key_quote = c if c in "\"'" else ""
            child = member.node
            if child is None:
                c = text[member.vstart]
                if string_quote is None and c in "\"'":
                    string_quote = c
            # only a one-line object shows its brace spacing: a multi-line one's members are not read
            elif brace_space is None and child.is_object and text.find("\n", child.start, child.end) < 0 \
                    and child.members:
                brace_space = text[child.start + 1] in " \t"
        if key_quote is not None and string_quote is not None and brace_space is not None and trailing is not None:
            break
    return TextStyle(
        key_quote='"' if key_quote is None else key_quote,
        string_quote=string_quote or (key_quote if key_quote else '"'),
        brace_space=bool(brace_space),
        trailing_comma=bool(trailing),
        unit=unit,
        eol=eol,
    )


def quote_string(value: str, quote: str) -> str:
    body = escape_surrogates(json.dumps(value, ensure_ascii=False)[1:-1])
    if quote == '"':
        return '"' + body + '"'

    def swap(m: re.Match[str]) -> str:
        if m.group(0) == "'":
            return "\\'"
        return '"' if m.group(1) == '"' else m.group(0)

    return "'" + _ESCAPE_OR_QUOTE.sub(swap, body) + "'"


def can_be_bare(key: str) -> bool:
    """Whether every JSON5 reader takes `key` unquoted (an ASCII identifier, not a literal word)."""
    return bool(_IDENTIFIER.match(key)) and key not in _WORDS


def key_text(key: str, style: TextStyle) -> str:
    if style.key_quote == "" and can_be_bare(key):
        return key
    return quote_string(key, style.key_quote or style.string_quote)


def render_value(value: Any, style: TextStyle, *, multiline: bool, base: str) -> str:
    """`value` as new JSON5 text in `style`; a non-empty container spreads over lines when `multiline`,
    each line after the first starting with `base` plus indent steps."""
    if isinstance(value, str):
        return quote_string(value, style.string_quote)
    if isinstance(value, dict):
        if not value:
            return "{}"
        if multiline:
            inner = base + style.unit
            items = [f"{key_text(k, style)}: {render_value(v, style, multiline=True, base=inner)}"
                     for k, v in value.items()]
            return _spread("{", "}", items, style, base)
        pad = " " if style.brace_space else ""
        inline = ", ".join(f"{key_text(k, style)}: {render_value(v, style, multiline=False, base='')}"
                           for k, v in value.items())
        return "{" + pad + inline + pad + "}"
    if isinstance(value, list | tuple):
        if not value:
            return "[]"
        if multiline:
            inner = base + style.unit
            return _spread("[", "]", [render_value(v, style, multiline=True, base=inner) for v in value], style,
                           base)
        return "[" + ", ".join(render_value(v, style, multiline=False, base="") for v in value) + "]"
    return dumps_json(value)


def _spread(open_: str, close: str, items: list[str], style: TextStyle, base: str) -> str:
    inner = base + style.unit
    eol = style.eol
    return (open_ + eol + inner + ("," + eol + inner).join(items) + ("," if style.trailing_comma else "")
            + eol + base + close)
