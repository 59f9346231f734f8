"""How a result becomes JSON: one convention (docs/exit-codes-and-json.md, "How results become JSON").

Every result type the CLI emits as JSON has a `to_dict()` that returns its pinned JSON shape.
Where that shape is exactly the dataclass's fields with camelCase keys (tuples as lists, nested
results as their own `to_dict()`), the type mixes in `CamelJson` instead of writing the dict
by hand; where the shape differs (keys left out when None, renamed or computed fields), the
type writes `to_dict()` itself.
"""

from __future__ import annotations

from typing import Any

from vora_cli.core.records import fields


def to_json_data(value: Any) -> Any:
    """A value as JSON data: results through their `to_dict()`, tuples as lists."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [to_json_data(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json_data(v) for k, v in value.items()}
    to_dict = getattr(value, "to_dict", None)
    if to_dict is None:
        raise TypeError(f"{type(value).__name__} has no to_dict(): it cannot become JSON")
    return to_dict()


class CamelJson:
    """Mixin for a result dataclass whose JSON shape is its fields, camelCased, in order."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        return {camel: to_json_data(getattr(self, name)) for name, camel in _json_fields(type(self))}


_FIELD_CACHE: dict[type, tuple[tuple[str, str], ...]] = {}


def _json_fields(cls: type) -> tuple[tuple[str, str], ...]:
    cached = _FIELD_CACHE.get(cls)
    if cached is None:
        cached = _FIELD_CACHE[cls] = tuple((f.name, _camel(f.name)) for f in fields(cls))
    return cached


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)
