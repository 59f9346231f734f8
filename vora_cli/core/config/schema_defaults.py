"""The defaults the gateway's ajv writes into a config as it validates it (`useDefaults`): its audit
reads the config so filled (a channel plugin's `groupPolicy` defaulted to "open")."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def with_defaults(schema: Any, value: Any) -> Any:
    """`value` with the defaults the gateway's ajv writes into what it validates (`useDefaults`):
    a property's `default` where the key is missing, recursively through properties,
    `additionalProperties`, `items` and `allOf` (the first default of a key wins); the gateway
    audits the config so filled. `value` is not changed: a copy is returned where anything was
    filled. A keyword of the wrong type (`allOf: 5`) holds no default."""
    return _filled(_branches(schema), value)


def _branches(schema: Any) -> list[dict[str, Any]]:
    """`schema` and its `allOf` branches, in the order ajv fills them (the branches first)."""
    if not isinstance(schema, dict):
        return []
    nested = schema.get("allOf")
    found = [b for branch in nested for b in _branches(branch)] if isinstance(nested, list) else []
    found.append(schema)
    return found


def _filled(schemas: list[dict[str, Any]], value: Any) -> Any:
    from vora_cli.core.config.migrations.base import clone

    if not schemas:
        return value
    if isinstance(value, dict):
        out: dict[str, Any] | None = None
        shapes = [(props if isinstance(props := s.get("properties"), dict) else {}, s.get("additionalProperties"))
                  for s in schemas]
        for props, _extra in shapes:
            for key, node in props.items():
                if isinstance(node, dict) and "default" in node and key not in (value if out is None else out):
                    out = out if out is not None else dict(value)
                    out[key] = clone(node["default"])
        current = out if out is not None else value
        # each key's schemas below, found once: a schema's own property, else its additionalProperties
        named: dict[str, list[tuple[int, Any]]] = {}
        for i, (props, _extra) in enumerate(shapes):
            for key in props.keys() & current.keys():
                named.setdefault(key, []).append((i, props[key]))
        extras = [(i, extra) for i, (_props, extra) in enumerate(shapes) if isinstance(extra, dict)]
        for key, item in current.items():
            own = named.get(key, [])
            taken = {i for i, _node in own}
            below = [b for _i, node in sorted([*own, *((i, e) for i, e in extras if i not in taken)],
                                                key=lambda pair: pair[0]) for b in _branches(node)]
            filled = _filled(below, item)
            if filled is not item:
                out = out if out is not None else dict(value)
                out[key] = filled
        return out if out is not None else value
    if isinstance(value, list):
        below = [b for s in schemas for b in _branches(s.get("items"))]
        filled_items = [_filled(below, item) for item in value] if below else value
        if any(a is not b for a, b in zip(filled_items, value, strict=True)):
            return filled_items
    return value
