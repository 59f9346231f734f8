"""A lossless JSON5 document: parse, read positions, and edit without touching the rest: an edit changes
only the edited value's text (docs/config.md, "Lossless").
"""

from __future__ import annotations

from collections.abc import Sequence

from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.json5.parser import Container, LineIndex, Member, Parser, line_col
from vora_cli.core.json5.path_syntax import format_config_path
from vora_cli.core.json5.values import (
    dumps_json,
    get_or_none,
    join_surrogate_pairs,
    same_value,
    strict_eq,
    with_value,
    without_value,
)
from vora_cli.core.records import dataclass, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.json5.style import TextStyle

# The text-editing modules (`splice`, `style`) are imported by the methods that edit: a command
# that only reads a config (doctor, validate, context, sessions) never loads them.

__all__ = ["DuplicateKey", "Json5Document"]

Path = Sequence[str | int]
# What an edit rewrote: (start, end) of a value in the old text, and that value's path.
_Region = tuple[int, int, tuple[str | int, ...]]
# Where each container ends, by its start, and the (start, end) of the top-level value.
Layout = tuple[dict[int, int], tuple[int, int]]


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

    __slots__ = ("_layout", "_lines", "_maybe_duplicates", "_move", "_root", "filename", "text", "value")

    def __init__(self, text: str, value: Any, root: Member | None, filename: str) -> None:
        self.text = text
        self.value = value
        self._root = root  # the member spans; None until first needed (an edited document)
        self.filename = filename
        self._maybe_duplicates = True  # False once a parse has seen none
        self._layout: Layout | None = None  # where the containers are, when known without a parse
        # (layout, start, old end, new end, region ends) of the edit that made this document: its
        # layout is derived from them when first needed (`_known_layout`)
        self._move: tuple[Layout, int, int, int, dict[int, int]] | None = None
        self._lines: LineIndex | None = None

    @classmethod
    def parse(cls, text: str, *, filename: str = "<string>") -> Json5Document:
        parser = Parser(text, filename)
        return cls._parsed(parser, parser.parse())

    @classmethod
    def _parsed(cls, parser: Parser, value: Any) -> Json5Document:
        doc = cls(parser.text, value, parser.root(), parser.filename)
        doc._maybe_duplicates = parser.duplicates
        doc._layout = (parser.ends, parser.top)
        return doc

    def __repr__(self) -> str:
        return f"Json5Document(filename={self.filename!r}, {len(self.text)} chars)"

    # -- reading ---------------------------------------------------------------------------

    def _known_layout(self) -> Layout | None:
        """Where the containers are without a parse: the parse's, or the one derived from the edit
        that made this document (when first asked: most edited documents are only written)."""
        if self._move is not None:
            self._layout, self._move = _moved(*self._move), None
        return self._layout

    def _root_member(self) -> Member:
        if self._root is None:
            parser = Parser(self.text, self.filename)
            layout = self._known_layout()
            if layout is None:
                parser.parse()
            else:
                parser.ends, parser.top = layout
            self._root = parser.root()
        return self._root

    def line_col(self, pos: int) -> tuple[int, int]:
        """(line, col), 1-based, of a position in the text: linear in the text over all the
        positions asked of this document (`LineIndex`)."""
        lines = self._lines
        if lines is None:
            lines = self._lines = LineIndex(self.text)
        return lines.line_col(pos)

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
                found = node.holder(seg)
            else:
                if not isinstance(seg, int) or isinstance(seg, bool):
                    break
                found = node.members[seg] if 0 <= seg < len(node.members) else None
            if found is None:
                break
            member = found
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
                        found.append(DuplicateKey((*path, key), self.line_col(seen[key].kstart),
                                                  self.line_col(m.kstart)))
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
        """(line, col), 1-based, of the member's key (or the array element) at ``path``. In a text
        that holds no key twice the first member found is the one: each container is scanned only
        as far as it."""
        if self._maybe_duplicates:
            chain = self._walk(path)
            return self.line_col(chain[-1][1].kstart) if len(chain) == len(path) + 1 else None
        member: Member | None = self._root_member()
        for seg in path:
            node = member.node if member is not None else None
            if node is None or isinstance(seg, bool) or isinstance(seg, str) != node.is_object:
                return None
            member = node.first(seg)
        return self.line_col(member.kstart) if member is not None else None

    # -- editing ---------------------------------------------------------------------------

    def set(self, path: Path, value: Any) -> Json5Document:
        """Set the value at ``path`` (creating missing objects); returns a new document."""
        path = tuple(join_surrogate_pairs(seg) for seg in path)
        value = join_surrogate_pairs(value)
        dumps_json(value)  # refuse what cannot be written before touching anything
        self._refuse_duplicates(path)
        if self._exists(path) and same_value(self._get(path), value):
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
        """Make sure the edited text holds exactly the intended change, parsing only what changed:
        the text around the edited region must be byte-identical, and the region must parse as one
        value that ends where the old one did and strictly equals the intended value (1, 1.0 and
        true differ; NaN equals NaN)."""
        start, old_end, at = region
        new_end = old_end + len(new_text) - len(self.text)
        old = self.text

        def fail(why: str) -> VoraError:
            return VoraError("internal", f"{what}: {why}; nothing was changed",
                             "report this as a bug with the config file attached (redact secrets)")

        # (the ends are compared without a copy of the new text's: on a big file they are most of it)
        if not new_text.startswith(old[:start]) or not new_text.endswith(old[old_end:]):
            raise fail("the edited text changed outside the edited place")
        if "\x00" in new_text[start:new_end]:
            raise fail("the edited text holds a NUL byte")
        reader = Parser(new_text, self.filename)
        try:
            value, vs, ve = reader.value_at(start, len(at))
        except ParseError as exc:
            raise fail(f"the edited text does not parse ({exc.message})") from None
        if (vs, ve) != (start, new_end):
            raise fail("the edited value does not end where the old one did")
        if not strict_eq(value, get_or_none(expected, at)):
            raise fail("the edited text does not hold exactly the intended change")
        doc = Json5Document(new_text, with_value(self.value, at, value), None, self.filename)
        doc._maybe_duplicates = self._maybe_duplicates or reader.duplicates
        layout = self._known_layout()
        if layout is not None:
            doc._move = (layout, start, old_end, new_end, reader.ends)
        return doc

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
            if isinstance(v, dict):
                if not isinstance(seg, str):
                    raise VoraError(
                        "invalid", f"{here} is an object; index [{seg}] does not apply ({_describe(path)})"
                    )
                if seg not in v:
                    _check_new_steps(path, depth + 1, creating)
                    return
                v = v[seg]
            elif isinstance(v, list):
                if not isinstance(seg, int) or isinstance(seg, bool):
                    raise VoraError(
                        "invalid", f"{here} is an array; key {seg!r} does not apply ({_describe(path)})",
                        "use an index such as [0]",
                    )
                if seg < 0 or seg > len(v) or (seg == len(v) and not creating):
                    raise VoraError(
                        "not_found",
                        f"{_describe(path)}: index {seg} is past the end of {here} (length {len(v)})",
                        f"an append uses index [{len(v)}]" if creating else None,
                    )
                if seg == len(v):
                    _check_new_steps(path, depth + 1, creating)
                    return
                v = v[seg]
            else:
                kind = "null" if v is None else type(v).__name__
                raise VoraError(
                    "invalid",
                    f"{_describe(path)}: {here} is a {kind}, not an object or array",
                    f"unset {here} first, or set it to an object",
                )

    def _style(self, chain: list[tuple[Container | None, Member]]) -> TextStyle:
        """How new text around this path should look: learnt from the nearest containers."""
        from vora_cli.core.json5.splice import eol_of, indent_unit
        from vora_cli.core.json5.style import learn_style

        nodes = [m.node for _, m in reversed(chain) if m.node is not None]
        return learn_style(self.text, nodes, indent_unit(self.text, chain), eol_of(self.text))

    def _set_text(self, path: Path, value: Any) -> tuple[str, _Region]:
        from vora_cli.core.json5.splice import apply_edits, insert_edits, is_multiline, line_indent, spreads
        from vora_cli.core.json5.style import render_value

        self._check_path(path, creating=True)
        chain = self._walk(path)
        style = self._style(chain)
        text = self.text
        if len(chain) == len(path) + 1:  # replace an existing value
            parent, member = chain[-1]
            multiline = parent is None or is_multiline(text, parent)
            base = line_indent(text, member.kstart)
            if text[member.vstart] in "\"'":  # a string replacing a string keeps its quotes
                style = replace(style, string_quote=text[member.vstart])
            new = render_value(value, style, multiline=multiline and spreads(value), base=base)
            return apply_edits(text, [(member.vstart, member.vend, new)]), (member.vstart, member.vend, tuple(path))
        # insert: the deepest existing node is a container; build the rest as nested objects
        found = len(chain) - 1
        parent_of_node, holder = chain[-1]
        node = holder.node
        assert node is not None
        new_value: Any = value
        for seg in reversed(path[found + 1 :]):  # an index makes a new array (`_check_new_steps`: [0])
            new_value = [new_value] if isinstance(seg, int) else {seg: new_value}
        key = path[found]
        parent_multiline = parent_of_node is None or is_multiline(text, parent_of_node)
        edits = insert_edits(text, node, key if node.is_object else None, new_value, parent_multiline, style)
        return apply_edits(text, edits), (node.start, node.end, tuple(path[:found]))

    def _unset_text(self, path: Path) -> tuple[str, _Region]:
        from vora_cli.core.json5.splice import apply_edits, remove_edits

        chain = self._walk(path)
        node, member = chain[-1]
        assert node is not None
        # by where it starts: the member the walk read alone is not the object a full read makes
        edits = remove_edits(self.text, node, next(i for i, m in enumerate(node.members) if m.kstart == member.kstart))
        return apply_edits(self.text, edits), (node.start, node.end, tuple(path[:-1]))


def _moved(layout: Layout, start: int, old_end: int, new_end: int, region: dict[int, int]) -> Layout:
    """The layout after the text between `start` and `old_end` became text up to `new_end` that
    holds the containers `region` (one value, parsed on its own: `_checked`). What ends before the
    region stays, what starts after it moves, what encloses it grows: a pass over the ends, no
    parse (a second edit of the same document walks it)."""
    ends, (top_start, top_end) = layout
    shift = new_end - old_end
    moved = dict(region)
    for s, e in ends.items():
        if e <= start:
            moved[s] = e
        elif s >= old_end:
            moved[s + shift] = e + shift
        elif s < start:  # encloses the region (a container cannot straddle one of its values)
            moved[s] = e + shift
    return moved, (top_start, top_end + shift)


def _check_new_steps(path: Path, start: int, creating: bool) -> None:
    """The steps of `path` from `start` on are created: a new array's only index is [0]."""
    if not creating:
        return
    for depth in range(start, len(path)):
        seg = path[depth]
        if isinstance(seg, int) and seg != 0:
            raise VoraError(
                "not_found",
                f"{_describe(path)}: index {seg} is past the end of {_describe(path[:depth])} (a new array, length 0)",
                "an append uses index [0]",
            )
