"""Plain-value helpers shared by the JSON5 parser's callers and the document editor."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from vora_cli.core.errors import VoraError
from vora_cli.core.strict_json import same_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Path = Sequence[str | int]
# Compiled where used (`re`'s cache keeps it; its 2,048-character range is costly to compile):
# ASCII text, nearly all of it, never needs it.
_SURROGATE = "[\ud800-\udfff]"


def escape_surrogates(text: str) -> str:
    """`text` with every lone surrogate (a `"\\ud800"` read from a file, a non-UTF-8 byte from argv or
    a file name) as a `\\uXXXX` escape: such text can be written as UTF-8, and reads back the same."""
    if text.isascii():
        return text
    return re.compile(_SURROGATE).sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def join_surrogate_pairs(value: Any) -> Any:
    """`value` with every high+low surrogate pair in its strings (and keys) joined into the one
    character it stands for: written as two `\\uXXXX` escapes, a pair reads back as that one
    character (JSON5 strings are UTF-16), so the editor writes what will be read."""
    if isinstance(value, str):
        if value.isascii() or re.compile(_SURROGATE).search(value) is None:
            return value
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    if isinstance(value, dict):
        return {join_surrogate_pairs(k): join_surrogate_pairs(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [join_surrogate_pairs(v) for v in value]
    return value


def dumps_json(value: Any, indent: str | None = None) -> str:
    """Render a new value as plain JSON (``Infinity``/``NaN`` for non-finite floats)."""
    try:
        return escape_surrogates(json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=True))
    except (TypeError, ValueError) as exc:
        raise VoraError("invalid", f"value cannot be written as JSON: {exc}") from None


def require_object(value: Any, filename: str) -> dict[str, Any]:
    """The top-level value of a config file must be an object; return it."""
    if not isinstance(value, dict):
        found = "array" if isinstance(value, list) else type(value).__name__
        raise VoraError(
            "invalid",
            f"{filename}: the top-level value must be an object, found {found}",
            "wrap the settings in { ... }",
        )
    return value


def same_value(a: Any, b: Any) -> bool:
    """Whether two parsed values are the same to the gateway: numbers as the Number JavaScript
    reads (`3` and `3.00`, `1e3` and `1000`, `0x10` and `16`, `-0` and `0`: `same_number`), every
    other value as `strict_eq` (true is no number, key order counts). A `config set` of the same
    value is "No change", its text untouched."""
    if a is b:
        return True
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return same_number(a, b)
    if ta is not tb:
        return False
    if ta is dict:
        if len(a) != len(b) or list(a) != list(b):
            return False
        return all(same_value(v, b[k]) for k, v in a.items())
    if ta is list:
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return strict_eq(a, b)


def strict_eq(a: Any, b: Any) -> bool:
    """Equality that tells 1, 1.0 and True apart, keeps key order, and has NaN == NaN: what the
    editor checks its own text against (the text it wrote must read back as exactly the value)."""
    if a is b:
        return True
    ta = type(a)
    if ta is not type(b):
        return False
    if ta is dict:
        if len(a) != len(b) or list(a) != list(b):
            return False
        return all(strict_eq(v, b[k]) for k, v in a.items())
    if ta is list:
        return len(a) == len(b) and all(strict_eq(x, y) for x, y in zip(a, b, strict=True))
    if ta is float:
        return bool(a == b or (a != a and b != b))
    return bool(a == b)


def with_value(tree: Any, path: Path, value: Any) -> Any:
    """``tree`` with ``value`` at ``path``: copies along the path, shares everything else."""
    if not path:
        return value
    seg, rest = path[0], path[1:]
    if isinstance(tree, dict):
        out = dict(tree)
        out[seg] = with_value(tree[seg] if seg in tree else _new_container(rest), rest, value)
        return out
    if isinstance(tree, list):
        assert isinstance(seg, int)
        lst = list(tree)
        if seg == len(lst):
            lst.append(with_value(_new_container(rest), rest, value))
        else:
            lst[seg] = with_value(lst[seg], rest, value)
        return lst
    return with_value(_new_container(path), path, value)


def _new_container(rest: Path) -> Any:
    """What a missing step of a path is created as: an array when the next step is an index."""
    return [] if rest and isinstance(rest[0], int) and not isinstance(rest[0], bool) else {}


def get_or_none(tree: Any, path: Path) -> Any:
    for seg in path:
        try:
            tree = tree[seg]
        except (KeyError, IndexError, TypeError):
            return None
    return tree


def without_value(tree: Any, path: Path) -> Any:
    seg, rest = path[0], path[1:]
    if isinstance(tree, dict):
        out = dict(tree)
        if rest:
            out[seg] = without_value(tree[seg], rest)
        else:
            del out[seg]
        return out
    lst = list(tree)
    assert isinstance(seg, int)
    if rest:
        lst[seg] = without_value(lst[seg], rest)
    else:
        del lst[seg]
    return lst
