"""How a result becomes JSON: `to_dict()`, or the `CamelJson` mix-in where the shape is exactly the fields
in camelCase (docs/exit-codes-and-json.md, "How results become JSON").
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from vora_cli.core.records import fields

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def to_json_data(value: Any) -> Any:
    """A value as JSON data: results through their `to_dict()`, tuples as lists."""
    kind = type(value)
    if kind is tuple or kind is list:  # the usual case first, by its type alone
        return [v if type(v) in _SCALARS else to_json_data(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [v if type(v) in _SCALARS else to_json_data(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json_data(v) for k, v in value.items()}
    to_dict = getattr(value, "to_dict", None)
    if to_dict is None:
        raise TypeError(f"{type(value).__name__} has no to_dict(): it cannot become JSON")
    return to_dict()


# A scalar is its own JSON data: one look at its type instead of `to_json_data`'s call and checks
# (a `--json` list converts every field of every result).
_SCALARS = frozenset((str, int, float, bool, type(None)))


class CamelJson:
    """Mixin for a result dataclass whose JSON shape is its fields, camelCased, in order."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        names, values_of = _json_fields(type(self))
        return {camel: value if type(value) in _SCALARS else to_json_data(value)
                for camel, value in zip(names, values_of(self), strict=True)}


_FIELD_CACHE: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}


def _json_fields(cls: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
    """The camelCased names of a class's fields, and one C call that reads their values, in order."""
    cached = _FIELD_CACHE.get(cls)
    if cached is None:
        names = [f.name for f in fields(cls)]
        getter = attrgetter(*names) if len(names) != 1 else (lambda obj, _get=attrgetter(names[0]): (_get(obj),))
        cached = _FIELD_CACHE[cls] = (tuple(_camel(name) for name in names), getter if names else lambda obj: ())
    return cached


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)
