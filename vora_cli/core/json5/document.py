"""A lossless JSON5 document: parse, read positions, and edit without touching the rest.

Spec: config.md, "Writing the file: lossless". ``vora.json`` is written by hand, full of comments
and the operator's own layout; every edit here changes only the text of the edited value (or the
inserted/removed member) and leaves every other byte alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from vora_cli.core.config.path_syntax import format_config_path
from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.json5.parser import SAME_LINE_TRIVIA, Container, Member, Parser, line_col
from vora_cli.core.json5.style import TextStyle, key_text, learn_style, render_value
from vora_cli.core.json5.values import (
    dumps_json,
    get_or_none,
    join_surrogate_pairs,
    strict_eq,
    with_value,
    without_value,
)

__all__ = ["DuplicateKey", "Json5Document"]

Path = Sequence[str | int]
# What an edit rewrote: (start, end) of a value in the old text, and that value's path.
_Region = tuple[int, int, tuple[str | int, ...]]


def _describe(path: Path) -> str:
    return format_config_path(path) if path else "the top-level value"


@dataclass(frozen=True)
class DuplicateKey:
    """A key held twice by one object: the copy at `ignored` loses to the one at `effective`."""

    path: tuple[str | int, ...]
    ignored: tuple[int, int]  # (line, col) of the earlier copy
    effective: tuple[int, int]  # (line, col) of the later copy, the one a reader keeps


class Json5Document:
    """A parsed JSON5 text that edits itself losslessly; every edit returns a new document."""

    __slots__ = ("_maybe_duplicates", "_root", "filename", "text", "value")

    def __init__(self, text: str, value: Any, root: Member | None, filename: str) -> None:
        self.text = text
        self.value = value
        self._root = root  # the member spans; None until first needed (an edited document)
        self.filename = filename
        self._maybe_duplicates = True  # False once a parse has seen none

    @classmethod
    def parse(cls, text: str, *, filename: str = "<string>") -> Json5Document:
        parser = Parser(text, filename)
        value, root = parser.parse()
        doc = cls(text, value, root, filename)
        doc._maybe_duplicates = parser.duplicates
        return doc

    def __repr__(self) -> str:
        return f"Json5Document(filename={self.filename!r}, {len(self.text)} chars)"

    # -- reading ---------------------------------------------------------------------------

    def _root_member(self) -> Member:
        if self._root is None:
            self._root = Parser(self.text, self.filename).parse()[1]
        return self._root

    def _walk(self, path: Path) -> list[tuple[Container | None, Member]]:
        """The members along ``path`` as (parent container, member), as far as they exist."""
        root = self._root_member()
        chain: list[tuple[Container | None, Member]] = [(None, root)]
        member = root
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

    def duplicate_keys(self) -> list[DuplicateKey]:
        """Every key an object holds more than once: JSON5 allows it and the last one wins."""
        found: list[DuplicateKey] = []
        if not self._maybe_duplicates:
            return found

        def walk(node: Container, path: tuple[str | int, ...]) -> None:
            seen: dict[str, Member] = {}
            for i, m in enumerate(node.members):
                key = m.key
                if node.is_object and key is not None:
                    if key in seen:
                        found.append(DuplicateKey((*path, key), line_col(self.text, seen[key].kstart),
                                                  line_col(self.text, m.kstart)))
                    seen[key] = m
                if m.node is not None:
                    walk(m.node, (*path, key if node.is_object and key is not None else i))

        root = self._root_member()
        if root.node is not None:
            walk(root.node, ())
        return found

    def _refuse_duplicates(self, path: Path) -> None:
        """An edit through a key the object holds twice stops: never a silent write to the
        ignored copy, and never a removal that would bring the ignored copy back to life."""
        if not self._maybe_duplicates:
            return
        for node, member in self._walk(path)[1:]:
            if node is None or not node.is_object or member.key is None or node.count_of(member.key) < 2:
                continue
            copies = [line_col(self.text, m.kstart) for m in node.members if m.key == member.key]
            where = ", ".join(f"line {line}, col {col}" for line, col in copies)
            # Each ignored copy by line and column: copies often share a line (`{a: 1, a: 2}`).
            ignored = ", ".join(f"line {line}, col {col}" for line, col in copies[:-1])
            raise VoraError(
                "refused",
                f"{self.filename}: {_describe(path)}: the key {member.key!r} appears {len(copies)} times ({where}); "
                f"the gateway uses the last one and ignores {ignored}; nothing was written",
                "remove the ignored copy first (vora config edit), then run the command again",
            )

    def get_node_position(self, path: Path) -> tuple[int, int] | None:
        """(line, col), 1-based, of the member's key (or the array element) at ``path``."""
        chain = self._walk(path)
        if len(chain) != len(path) + 1:
            return None
        return line_col(self.text, chain[-1][1].kstart)

    # -- editing ---------------------------------------------------------------------------

    def set(self, path: Path, value: Any) -> Json5Document:
        """Set the value at ``path`` (creating missing objects); returns a new document."""
        path = tuple(join_surrogate_pairs(seg) for seg in path)
        value = join_surrogate_pairs(value)
        dumps_json(value)  # refuse what cannot be written before touching anything
        self._refuse_duplicates(path)
        if self._exists(path) and strict_eq(self._get(path), value):
            return self
        new_text, region = self._set_text(path, value)
        expected = with_value(self.value, path, value)
        return self._checked(new_text, region, expected, f"set {_describe(path)}")

    def unset(self, path: Path) -> Json5Document:
        """Remove the member or array element at ``path``; returns a new document."""
        path = tuple(join_surrogate_pairs(seg) for seg in path)
        if not path:
            raise VoraError("invalid", "cannot unset the top-level value", "name a key inside it")
        self._check_path(path, creating=False)
        self._refuse_duplicates(path)
        if not self._exists(path):
            raise VoraError("not_found", f"{_describe(path)} is not set", "check the path with vora config get")
        new_text, region = self._unset_text(path)
        expected = without_value(self.value, path)
        return self._checked(new_text, region, expected, f"unset {_describe(path)}")

    # -- editing internals -----------------------------------------------------------------

    def _checked(self, new_text: str, region: _Region, expected: Any, what: str) -> Json5Document:
        """Make sure the edited text holds exactly the intended change, parsing only what changed.

        An edit rewrites one region: the edited value, or the container a member was added to
        or removed from. Sound without a full re-parse: the text before and after the region
        must be byte-identical, and the region must parse as one value that ends exactly where
        the old one did (so the scanner sees the rest of the file as before) and equals the
        intended value there, strictly (1, 1.0 and true differ; NaN equals NaN).
        """
        start, old_end, at = region
        new_end = old_end + len(new_text) - len(self.text)
        old = self.text

        def fail(why: str) -> VoraError:
            return VoraError("internal", f"{what}: {why}; nothing was changed",
                             "report this as a bug with the config file attached (redact secrets)")

        if new_text[:start] != old[:start] or new_text[new_end:] != old[old_end:]:
            raise fail("the edited text changed outside the edited place")
        if "\x00" in new_text[start:new_end]:
            raise fail("the edited text holds a NUL byte")
        try:
            value, vs, ve = Parser(new_text, self.filename).value_at(start, len(at))
        except ParseError as exc:
            raise fail(f"the edited text does not parse ({exc.message})") from None
        if (vs, ve) != (start, new_end):
            raise fail("the edited value does not end where the old one did")
        if not strict_eq(value, get_or_none(expected, at)):
            raise fail("the edited text does not hold exactly the intended change")
        return Json5Document(new_text, with_value(self.value, at, value), None, self.filename)

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

    def _multiline(self, node: Container) -> bool:
        if node.members:
            return "\n" in self.text[node.start : node.members[0].kstart]
        return "\n" in self.text[node.start : node.end]

    def _indent_unit(self, chain: list[tuple[Container | None, Member]]) -> str:
        """The file's indent step, learnt from the nearest multi-line container on the path."""
        nodes = [m.node for _, m in chain if m.node is not None]
        for node in reversed(nodes):
            if node.members and self._multiline(node) and self._own_line(node.members[0].kstart):
                outer = self._line_indent(node.start)
                inner = self._line_indent(node.members[0].kstart)
                if inner.startswith(outer) and len(inner) > len(outer):
                    return inner[len(outer) :]
        return "  "

    def _style(self, chain: list[tuple[Container | None, Member]]) -> TextStyle:
        """How new text around this path should look: learnt from the nearest containers."""
        nodes = [m.node for _, m in reversed(chain) if m.node is not None]
        return learn_style(self.text, nodes, self._indent_unit(chain), self._eol())

    def _set_text(self, path: Path, value: Any) -> tuple[str, _Region]:
        self._check_path(path, creating=True)
        chain = self._walk(path)
        style = self._style(chain)
        text = self.text
        if len(chain) == len(path) + 1:  # replace an existing value
            parent, member = chain[-1]
            multiline = parent is None or self._multiline(parent)
            base = self._line_indent(member.kstart)
            if text[member.vstart] in "\"'":  # a string replacing a string keeps its quotes
                style = replace(style, string_quote=text[member.vstart])
            new = render_value(value, style, multiline=multiline and _spreads(value), base=base)
            return text[: member.vstart] + new + text[member.vend :], (member.vstart, member.vend, tuple(path))
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
        edits = self._insert(node, key if node.is_object else None, new_value, parent_multiline, style)
        return _apply(text, edits), (node.start, node.end, tuple(path[:found]))

    def _member_text(self, node: Container, key: str | int | None, value: Any, multiline: bool, base: str,
                     style: TextStyle) -> str:
        rendered = render_value(value, style, multiline=multiline and _spreads(value), base=base)
        if key is None:
            return rendered
        colon = ": "
        if node.members:
            last = node.members[-1]
            gap = self.text[last.kend : last.vstart]
            if re.fullmatch(r"[ \t]*:[ \t]*", gap):
                colon = gap
        return key_text(str(key), style) + colon + rendered

    def _insert(self, node: Container, key: str | int | None, value: Any, parent_multiline: bool,
                style: TextStyle) -> list[tuple[int, int, str]]:
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
                    indent = self._line_indent(node.start) + style.unit
                item = self._member_text(node, key, value, True, indent, style)
                m = SAME_LINE_TRIVIA.match(text, after)
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
                item = self._member_text(node, key, value, False, "", style)
                edits.append((after, after, sep + item + ("," if trailing else "")))
            return edits
        inner_start, inner_end = node.start + 1, node.end - 1
        inner = text[inner_start:inner_end]
        comma = "," if style.trailing_comma else ""  # a new multi-line member ends like the file's
        if "\n" in inner:
            close_ls = text.rfind("\n", 0, inner_end) + 1
            if text[close_ls:inner_end].strip(" \t") == "":
                indent = text[close_ls:inner_end] + style.unit
                item = self._member_text(node, key, value, True, indent, style) + comma
                return [(close_ls, close_ls, indent + item + eol)]
            indent = self._line_indent(node.start) + style.unit
            item = self._member_text(node, key, value, True, indent, style) + comma
            return [(inner_end, inner_end, eol + indent + item + eol + self._line_indent(node.start))]
        keep = inner if inner.strip() else ""
        if node.is_object and parent_multiline:
            outer = self._line_indent(node.start)
            indent = outer + style.unit
            item = self._member_text(node, key, value, True, indent, style) + comma
            return [(inner_start, inner_end, keep + eol + indent + item + eol + outer)]
        item = self._member_text(node, key, value, False, "", style)
        return [(inner_start, inner_end, item + keep)]

    def _unset_text(self, path: Path) -> tuple[str, _Region]:
        chain = self._walk(path)
        node, member = chain[-1]
        assert node is not None
        return _apply(self.text, self._remove(node, node.members.index(member))), (node.start, node.end, tuple(path[:-1]))

    def _remove(self, node: Container, i: int) -> list[tuple[int, int, str]]:
        text = self.text
        members = node.members
        m = members[i]
        n = len(members)
        edits: list[tuple[int, int, str]] = []
        end = m.comma + 1 if m.comma >= 0 else m.vend
        tm = SAME_LINE_TRIVIA.match(text, end)
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


def _spreads(value: Any) -> bool:
    return isinstance(value, dict | list) and bool(value)


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


