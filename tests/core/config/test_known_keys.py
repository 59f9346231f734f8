"""vora's table of known keys never calls wrong what the gateway's schema documents as right.

The table (`core/config/keys.py`) gives `config validate` and doctor their type checks; the gateway's
exported schema (openclaw 2026.4.12, `core/config/gateway_schema/`) says what each key holds. A key
whose documented shape the table contradicts (`env.vars`, an object of strings, once read as one of
the strings of `env`) is a "wrong type" warning on a config the gateway accepts.
"""

from __future__ import annotations

from typing import Any

import pytest

from vora_cli.core.config.gateway import _raw_top_schema
from vora_cli.core.config.keys import KNOWN_KEYS
from vora_cli.core.config.validation import validate_tree

TYPES = {"string": {"string"}, "path": {"string"}, "plugin-id": {"string"}, "enum": {"string"},
         "integer": {"integer", "number"}, "boolean": {"boolean"}, "string-list": {"array"}, "agent-list": {"array"},
         "object": {"object"}, "string-map": {"object"}}


def _child(node: Any, seg: str) -> Any:
    if not isinstance(node, dict):
        return None
    if seg == "[]":
        return node.get("items")
    properties = node.get("properties") or {}
    if seg != "*" and seg in properties:
        return properties[seg]
    extra = node.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def _types(node: Any) -> set[str]:
    kind = node.get("type") if isinstance(node, dict) else None
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return set(kind)
    return {t for key in ("anyOf", "oneOf") for sub in (node or {}).get(key) or [] for t in _types(sub)}


def _contradictions() -> list[str]:
    found = []
    for spec in KNOWN_KEYS:
        node: Any = _raw_top_schema(spec.pattern[0])
        for seg in spec.pattern[1:]:
            node = _child(node, seg)
        if node is None:
            continue
        name = ".".join(spec.pattern)
        kinds = _types(node)
        if kinds and not kinds & TYPES[spec.kind]:
            found.append(f"{name}: the table says {spec.kind}, the gateway {sorted(kinds)}")
        if spec.kind == "string-map":  # every member a string: also the ones the schema names
            members = [*(node.get("properties") or {}).values(), node.get("additionalProperties")]
            wrong = [m for m in members if isinstance(m, dict) and _types(m) and "string" not in _types(m)]
            if wrong:
                found.append(f"{name}: the table says an object of strings, the gateway names members that are not")
    return found


def test_the_table_agrees_with_the_gateways_schema() -> None:
    assert _contradictions() == []


@pytest.mark.parametrize("env", [
    {"vars": {"OPENAI_BASE_URL": "http://127.0.0.1:8080"}},
    {"shellEnv": {"enabled": True, "timeoutMs": 15000}},
    {"vars": {"A": "1"}, "shellEnv": {"enabled": False}, "LEGACY_NAME": "still read"},
])
def test_documented_env_shapes_are_no_warning(env: dict[str, Any]) -> None:
    assert validate_tree({"env": env}) == []


def test_a_wrong_env_member_is_still_named() -> None:
    problems = validate_tree({"env": {"vars": {"PORT": 8080}, "shellEnv": {"enabled": "yes"}, "OLD": 1}})
    assert [(p.path, p.expected) for p in problems] == [
        (("env", "vars", "PORT"), "a string"), (("env", "shellEnv", "enabled"), "true or false"),
        (("env", "OLD"), "a string")]
