"""The one bounded reader of JSON and TOML: nothing nested deeper than `MAX_NESTING` gets in, so a deep
value is a decode error at its place, never a `RecursionError` (docs/reliability.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_NESTING = 128
TOO_DEEP = f"nesting deeper than {MAX_NESTING} levels"


class TooDeep(json.JSONDecodeError):
    """JSON text that nests arrays and objects deeper than `MAX_NESTING`; `pos`, `lineno` and
    `colno` say where it first goes too deep."""

    def __init__(self, doc: str, pos: int) -> None:
        super().__init__(TOO_DEEP, doc, pos)


def deeper_than(value: Any, limit: int = MAX_NESTING) -> bool:
    """Whether `value` (parsed JSON or TOML) nests lists and dicts deeper than `limit`; `[]` is
    one level. Level by level, never recursive: a cost per container, not per byte. The dicts and
    the lists of a level are kept apart, and each child's type looked up once."""
    dicts = [value] if type(value) is dict else []
    lists = [value] if type(value) is list else []
    depth = 0
    while dicts or lists:
        depth += 1
        if depth > limit:
            return True
        below_dicts: list[dict[Any, Any]] = []
        below_lists: list[list[Any]] = []
        add_dict, add_list = below_dicts.append, below_lists.append
        for node in dicts:
            for child in node.values():
                kind = type(child)
                if kind is dict:
                    add_dict(child)
                elif kind is list:
                    add_list(child)
        for items in lists:
            for child in items:
                kind = type(child)
                if kind is dict:
                    add_dict(child)
                elif kind is list:
                    add_list(child)
        dicts, lists = below_dicts, below_lists
    return False


def parsed_deeper_than(value: Any, text: str | bytes, start: int = 0, end: int | None = None,
                       limit: int = MAX_NESTING) -> bool:
    """`deeper_than(value, limit)` for a value parsed from `text[start:end]`, its brackets counted
    first, at C speed: a value nested deeper than `limit` has more than `limit` opening brackets in
    its text (a bracket inside a string only counts one more), so the walk is left to the rare text
    that has that many."""
    stop = len(text) if end is None else end
    if isinstance(text, str):
        brackets = text.count("{", start, stop) + text.count("[", start, stop)
    else:
        brackets = text.count(b"{", start, stop) + text.count(b"[", start, stop)
    return brackets > limit and deeper_than(value, limit)


CUT = f"[nested deeper than {MAX_NESTING} levels: not shown]"


def cut_below(value: Any, limit: int = MAX_NESTING, marker: str = CUT) -> Any:
    """`value` with every list or dict below level `limit` replaced by `marker`, in place (for a
    parsed value a reader keeps and shows, such as a transcript entry: the gateway read it, so
    vora shows it, and says where it stopped). Level by level, never recursive."""
    level = [value] if type(value) is dict or type(value) is list else []
    depth = 1
    while level:
        below: list[Any] = []
        for node in level:
            for key, child in list(node.items() if type(node) is dict else enumerate(node)):
                if type(child) is dict or type(child) is list:
                    if depth >= limit:
                        node[key] = marker
                    else:
                        below.append(child)
        level = below
        depth += 1
    return value


def _huge_safe(parse_float: Callable[[str], Any] | None) -> Callable[[str], Any]:
    """A `parse_int` for the second reading of a text `json` refused an integer of: one past
    Python's int-from-text digit limit is read as `parse_float` reads a number (±Infinity, as
    `JSON.parse` holds it)."""
    from vora_cli.core.strict_json import huge_integer

    fallback = parse_float or huge_integer

    def parse_int(text: str) -> Any:
        try:
            return int(text)
        except ValueError:
            return fallback(text)

    return parse_int


def reading_huge_integers(decoder: json.JSONDecoder) -> json.JSONDecoder:
    """`decoder` again, reading an integer past `int()`'s digit limit as its `parse_float` reads a
    number: for the second reading of a text `decoder` raised a plain ValueError on."""
    import copy
    from json.scanner import make_scanner

    again = copy.copy(decoder)
    again.parse_int = _huge_safe(None if decoder.parse_float is float else decoder.parse_float)
    again.scan_once = make_scanner(again)  # type: ignore[attr-defined,arg-type]
    return again


def _int_refused(exc: ValueError, options: dict[str, Any]) -> bool:
    """Whether `json` may have raised `exc` for an integer past the digit limit (its own `int`
    raises a plain ValueError), so reading again with `_huge_safe` can help. A decode error is the
    text's, and a caller's own `parse_int` answers for itself."""
    return not isinstance(exc, json.JSONDecodeError) and options.get("parse_int") is None


def loads(text: str | bytes, **options: Any) -> Any:
    """`json.loads(text, **options)`, refusing nesting deeper than `MAX_NESTING` with `TooDeep`.
    Every JSON reader of vora calls this (a test keeps `json.loads` out of everything else).
    An integer of more digits than `int()` reads is what `JSON.parse` reads: the text is read
    again for it, so no ordinary number pays."""
    try:
        value = json.loads(text, **options)
    except RecursionError:
        raise _too_deep(text) from None
    except ValueError as exc:
        if not _int_refused(exc, options):
            raise
        return loads(text, **{**options, "parse_int": _huge_safe(options.get("parse_float"))})
    if parsed_deeper_than(value, text):
        raise _too_deep(text)
    return value


def raw_decode(decoder: json.JSONDecoder, text: str, pos: int) -> tuple[Any, int]:
    """`decoder.raw_decode(text, pos)`, bounded as `loads` is (for readers that walk a document
    member by member)."""
    try:
        value, end = decoder.raw_decode(text, pos)
    except RecursionError:
        raise _too_deep(text, pos) from None
    except ValueError as exc:
        if decoder.parse_int is not int or isinstance(exc, json.JSONDecodeError):
            raise
        return raw_decode(reading_huge_integers(decoder), text, pos)
    if parsed_deeper_than(value, text, pos, end):
        raise _too_deep(text, pos)
    return value, end


def bounded(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """`parse` (a JSON decoder's own function on text), bounded as `loads` is."""

    def run(text: str) -> Any:
        try:
            value = parse(text)
        except RecursionError:
            raise _too_deep(text) from None
        if parsed_deeper_than(value, text):
            raise _too_deep(text)
        return value

    return run


# A JSON string, possibly unterminated (then it runs to the end: linear on any input), or one bracket.
# Compiled on first use (`re`'s cache keeps it): only a text nested too deep is scanned.
_JSON_TOKEN = r'"(?:[^"\\]++|\\[\s\S]?)*+(?:"|\Z)|[\[\]{}]'


def _too_deep(text: str | bytes, start: int = 0) -> TooDeep:
    """The error at the first bracket that opens level `MAX_NESTING + 1` (only on the way out:
    a Python step per bracket up to that place)."""
    doc = text.decode("utf-8", "replace") if isinstance(text, bytes | bytearray) else text
    depth = 0
    for match in re.compile(_JSON_TOKEN).finditer(doc, start):
        char = doc[match.start()]
        if char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return TooDeep(doc, match.start())
        elif char in "]}":
            depth -= 1
    return TooDeep(doc, start)


# -- TOML ------------------------------------------------------------------------------------------

class TomlTooDeep(ValueError):
    """A TOML statement (a `key = value`, or a table header and its keys) nesting deeper than
    `MAX_NESTING`: its 1-based line, its dotted key as written, and its span in the text."""

    def __init__(self, line: int, key: str, start: int, end: int) -> None:
        shown = key if len(key) <= 60 else key[:60] + "…"
        self.what = f"{f'the value of {shown!r}' if key else 'the file'} nests deeper than {MAX_NESTING} levels"
        super().__init__(f"line {line}: {self.what}")
        self.line, self.key, self.start, self.end = line, key, start, end

    def owned_by(self, key: str) -> bool:
        """Whether removing `key` removes this statement (it is `key` or below it)."""
        return bool(self.key) and (self.key == key or self.key.startswith(key + "."))


def toml_loads(text: str) -> dict[str, Any]:
    """`tomllib.loads(text)`, refusing nesting deeper than `MAX_NESTING` (arrays, inline tables,
    dotted keys and table headers alike) with `TomlTooDeep`."""
    import tomllib

    try:
        table = tomllib.loads(text)
    except RecursionError:
        table = None
    except ValueError as exc:
        if isinstance(exc, tomllib.TOMLDecodeError):
            raise
        raise _toml_huge_integer(text) from None
    if table is None or deeper_than(table):
        found = deep_toml_statement(text)
        if found is None:  # nothing the scan can name: the file as a whole
            raise TomlTooDeep(1, "", 0, len(text))
        raise found
    return table


def _toml_huge_integer(text: str) -> ValueError:
    """The decode error for the integer `tomllib` could not convert (`int()` refuses one of more
    digits than its limit, to bound its quadratic work; TOML itself holds 64 bits), at its line."""
    import sys
    import tomllib

    limit = sys.get_int_max_str_digits()  # not 0: `int()` raised for it
    # where a value starts (after `=`, `[`, `,` or at a line's start in an array): not in a string
    # that merely holds the digits, as far as a pattern can tell
    found = re.compile(r"(?:[=\[,]|^)[ \t]*+[+-]?[0-9](?:_?[0-9]){" + str(limit) + ",}+", re.M).search(text)
    line = text.count("\n", 0, found.start()) + 1 if found else None
    where = f" (line {line})" if line else ""
    return tomllib.TOMLDecodeError(f"an integer of more digits than TOML holds{where}")


# Tokens a TOML statement is made of, as far as nesting goes: comments and the four string
# forms (each possibly unterminated, then to the end of its line or of the text: linear), the
# brackets, `=`, `.` and the newline. Everything else is a bare key or a value's text. Compiled
# on first use (`re`'s cache keeps it): only a file nested too deep is scanned.
_TOML_TOKEN = (
    r'#[^\n]*+'
    r'|"""(?:[^"\\]++|\\[\s\S]?|"(?!""))*+(?:"""|\Z)'
    r"|'''(?:[^']++|'(?!''))*+(?:'''|\Z)"
    r'|"(?:[^"\\\n]++|\\.?)*+"?'
    r"|'[^'\n]*+'?"
    r"|[\[\]{}=.\n]"
)


def deep_toml_statement(text: str) -> TomlTooDeep | None:
    """The first statement of `text` whose nesting (the root table, then table header parts,
    dotted key parts and brackets, as `deeper_than` counts the parsed table) goes past
    `MAX_NESTING`, with the span that removing it takes out: a key's own
    lines, or a table header with every key up to the next header."""
    table: list[str] = []  # the current header's parts
    key: list[str] = []  # the statement's key parts so far
    depth = 0  # brackets open in the value
    line = 1
    start = 0  # where the statement (or header) starts
    in_value = header = False
    at_line_start = True
    part = ""
    deep: tuple[int, str, int] | None = None  # line, key, start of the too-deep statement
    header_deep = False
    pos = 0
    for match in re.compile(_TOML_TOKEN).finditer(text):
        bare = text[pos:match.start()].strip()
        pos = match.end()
        token = match.group(0)
        if not in_value and bare:
            part += bare
        if token == "\n":
            line += 1
            if depth == 0:
                if deep is not None and not header_deep:
                    return TomlTooDeep(deep[0], deep[1], deep[2], match.end())
                in_value = header = False
                key, part = [], ""
                at_line_start = True
            continue
        if token.startswith("#"):
            continue
        if at_line_start and depth == 0 and not in_value and token == "[" and not header:
            if deep is not None and header_deep:  # the deep header's keys end at the next header
                return TomlTooDeep(deep[0], deep[1], deep[2], _line_start(text, match.start()))
            header, start, table = True, _line_start(text, match.start()), []
            at_line_start = False
            continue
        at_line_start = False
        if header:
            if token == ".":
                table.append(part)
                part = ""
            elif token == "]":
                if part:
                    table.append(part)
                    part = ""
                if 1 + len(table) > MAX_NESTING and deep is None:
                    deep, header_deep = (line, ".".join(table), start), True
            elif token[0] in "\"'":
                part += token.strip("\"'")
            continue
        if not in_value:
            if token == ".":
                key.append(part)
                part = ""
            elif token == "=":
                key.append(part)
                part = ""
                in_value = True
                if deep is None:
                    start = _line_start(text, match.start())
                if len(table) + len(key) > MAX_NESTING and deep is None:
                    deep, header_deep = (line, ".".join([*table, *key]), start), False
            elif token[0] in "\"'":
                part += token.strip("\"'")
            continue
        if token in "[{":
            depth += 1
            if len(table) + len(key) + depth > MAX_NESTING and deep is None:
                deep, header_deep = (line, ".".join([*table, *key]), start), False
        elif token in "]}":
            depth = max(0, depth - 1)
    if deep is not None:
        return TomlTooDeep(deep[0], deep[1], deep[2], len(text))
    return None


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1
