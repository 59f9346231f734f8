"""Result dataclasses as JSON data: camelCase keys, tuples as lists (the data's own shape)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any


def to_json_data(value: Any) -> Any:
    """A result dataclass as JSON data: camelCase keys, tuples as lists (the data's own shape)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [to_json_data(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json_data(v) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {camel: to_json_data(getattr(value, name)) for name, camel in _json_fields(type(value))}
    return value


_FIELD_CACHE: dict[type, tuple[tuple[str, str], ...]] = {}


def _json_fields(cls: type) -> tuple[tuple[str, str], ...]:
    cached = _FIELD_CACHE.get(cls)
    if cached is None:
        cached = _FIELD_CACHE[cls] = tuple((f.name, _camel(f.name)) for f in fields(cls))
    return cached


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)
