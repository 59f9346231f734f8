"""Where new text goes in a JSON5 text and what it looks like: the (start, stop, replacement) edits that
insert or remove one member of a container, in the file's own layout; `Json5Document` decides what.
"""

from __future__ import annotations

import re

from vora_cli.core.json5.parser import LINE_ENDS, SAME_LINE_TRIVIA, Container, Member
from vora_cli.core.json5.style import TextStyle, key_text, render_value

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["apply_edits", "eol_of", "indent_unit", "insert_edits", "is_multiline", "line_indent", "own_line",
           "remove_edits", "spreads"]

Edit = tuple[int, int, str]


def eol_of(text: str) -> str:
    """The file's line ending, from its first line."""
    i = text.find("\n")
    return "\r\n" if i > 0 and text[i - 1] == "\r" else "\n"


def line_indent(text: str, pos: int) -> str:
    """The blanks at the start of the line holding ``pos``."""
    ls = text.rfind("\n", 0, pos) + 1
    m = re.compile(r"[ \t]*").match(text, ls)
    assert m is not None
    return m.group()


def own_line(text: str, pos: int) -> bool:
    """Whether only blanks come before ``pos`` on its line."""
    ls = text.rfind("\n", 0, pos) + 1
    return text[ls:pos].strip(" \t\ufeff") == ""


def is_multiline(text: str, node: Container) -> bool:
    """Whether the container breaks a line before its first member (or inside, when empty)."""
    first = node.head(1)
    if first:
        return "\n" in text[node.start : first[0].kstart]
    return "\n" in text[node.start : node.end]


def indent_unit(text: str, chain: list[tuple[Container | None, Member]]) -> str:
    """The file's indent step, learnt from the nearest multi-line container on the path."""
    nodes = [m.node for _, m in chain if m.node is not None]
    for node in reversed(nodes):
        first = node.head(1)
        if first and is_multiline(text, node) and own_line(text, first[0].kstart):
            outer = line_indent(text, node.start)
            inner = line_indent(text, first[0].kstart)
            if inner.startswith(outer) and len(inner) > len(outer):
                return inner[len(outer) :]
    return "  "


def _member_text(text: str, node: Container, key: str | int | None, value: Any, multiline: bool, base: str,
                 style: TextStyle) -> str:
    rendered = render_value(value, style, multiline=multiline and spreads(value), base=base)
    if key is None:
        return rendered
    colon = ": "
    if node.members:
        last = node.members[-1]
        gap = text[last.kend : last.vstart]
        if re.fullmatch(r"[ \t]*:[ \t]*", gap):
            colon = gap
    return key_text(str(key), style) + colon + rendered


def insert_edits(text: str, node: Container, key: str | int | None, value: Any, parent_multiline: bool,
                 style: TextStyle) -> list[Edit]:
    eol = eol_of(text)
    members = node.members
    if members:
        last = members[-1]
        trailing = last.comma >= 0
        after = last.comma + 1 if trailing else last.vend
        edits: list[Edit] = []
        if not trailing:
            edits.append((last.vend, last.vend, ","))
        if is_multiline(text, node):
            if own_line(text, last.kstart):
                indent = line_indent(text, last.kstart)
            elif own_line(text, members[0].kstart):
                indent = line_indent(text, members[0].kstart)
            else:
                indent = line_indent(text, node.start) + style.unit
            item = _member_text(text, node, key, value, True, indent, style)
            m = re.compile(SAME_LINE_TRIVIA).match(text, after)
            assert m is not None
            q = m.end()
            at = q if q == len(text) or text[q] in LINE_ENDS else after
            edits.append((at, at, eol + indent + item + ("," if trailing else "")))
        else:
            sep = " "
            if len(members) >= 2 and members[-2].comma >= 0:
                gap = text[members[-2].comma + 1 : last.kstart]
                if gap.strip(" \t") == "":
                    sep = gap
            item = _member_text(text, node, key, value, False, "", style)
            edits.append((after, after, sep + item + ("," if trailing else "")))
        return edits
    inner_start, inner_end = node.start + 1, node.end - 1
    inner = text[inner_start:inner_end]
    comma = "," if style.trailing_comma else ""  # a new multi-line member ends like the file's
    if "\n" in inner:
        close_ls = text.rfind("\n", 0, inner_end) + 1
        if text[close_ls:inner_end].strip(" \t") == "":
            indent = text[close_ls:inner_end] + style.unit
            item = _member_text(text, node, key, value, True, indent, style) + comma
            return [(close_ls, close_ls, indent + item + eol)]
        indent = line_indent(text, node.start) + style.unit
        item = _member_text(text, node, key, value, True, indent, style) + comma
        return [(inner_end, inner_end, eol + indent + item + eol + line_indent(text, node.start))]
    keep = inner if inner.strip() else ""
    if node.is_object and parent_multiline:
        outer = line_indent(text, node.start)
        indent = outer + style.unit
        item = _member_text(text, node, key, value, True, indent, style) + comma
        return [(inner_start, inner_end, keep + eol + indent + item + eol + outer)]
    item = _member_text(text, node, key, value, False, "", style)
    pad = " " if node.is_object and style.brace_space and not keep else ""  # `{}` becomes `{ a: 1 }` where the file spaces its braces
    return [(inner_start, inner_end, pad + item + keep + pad)]


def remove_edits(text: str, node: Container, i: int) -> list[Edit]:
    members = node.members
    m = members[i]
    n = len(members)
    edits: list[Edit] = []
    end = m.comma + 1 if m.comma >= 0 else m.vend
    tm = re.compile(SAME_LINE_TRIVIA).match(text, end)
    assert tm is not None
    q = tm.end()
    at_eol = q == len(text) or text[q] in LINE_ENDS
    if own_line(text, m.kstart) and at_eol:
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


def spreads(value: Any) -> bool:
    return isinstance(value, dict | list) and bool(value)


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping (start, stop, replacement) edits; equal starts keep their order."""
    out: list[str] = []
    pos = 0
    for start, stop, rep in sorted(edits, key=lambda e: e[0]):
        out.append(text[pos:start])
        out.append(rep)
        pos = max(pos, stop)
    out.append(text[pos:])
    return "".join(out)
