"""One result-to-JSON convention: `to_dict()` on every result type, `CamelJson` for the mechanical ones."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from source_trees import source_nodes

from vora_cli.core.devices.classify import Classification
from vora_cli.core.devices.transaction import WriteReport
from vora_cli.core.devices.views import TokenState
from vora_cli.core.json_data import CamelJson, to_json_data
from vora_cli.core.records import dataclass, fields

PACKAGE = Path(__file__).resolve().parents[2] / "vora_cli"


@dataclass(frozen=True)
class Inner(CamelJson):
    last_used_at_ms: int | None
    scopes: tuple[str, ...]


@dataclass(frozen=True)
class Outer(CamelJson):
    device_id: str
    inner: Inner
    items: tuple[Inner, ...]
    extra: dict[str, object]


def test_camel_json_is_the_fields_camelcased_in_order_with_nested_results() -> None:
    outer = Outer("d1", Inner(None, ("a", "b")), (Inner(5, ()),), {"keep_key": (1, 2)})
    assert json.dumps(outer.to_dict()) == (
        '{"deviceId": "d1", "inner": {"lastUsedAtMs": null, "scopes": ["a", "b"]}, '
        '"items": [{"lastUsedAtMs": 5, "scopes": []}], "extra": {"keep_key": [1, 2]}}')


@pytest.mark.parametrize("result", [
    WriteReport(True, ("a.json",), 1, (), ("w",)),
    Classification("new-device", ("new-device",), (), False),
    TokenState("operator", "active", ("operator.read",), 1, None, None, None),
])
def test_device_results_keep_their_pinned_keys(result: CamelJson) -> None:
    data = result.to_dict()
    assert list(data) == ["".join(p if i == 0 else p.capitalize() for i, p in enumerate(f.name.split("_")))
                          for f in fields(result)]  # type: ignore[arg-type]
    json.dumps(data)


@pytest.mark.parametrize("value", [object(), {1, 2}, b"raw", Path("/x")])
def test_a_value_without_to_dict_is_refused_not_leaked(value: object) -> None:
    with pytest.raises(TypeError, match="to_dict"):
        to_json_data({"nested": [value]})


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
def test_no_module_converts_results_another_way() -> None:
    """`dataclasses.asdict` and NamedTuple `_asdict` would bypass the pinned `to_dict()` shapes."""
    offenders = []
    for file in PACKAGE.rglob("*.py"):
        for node in source_nodes(file):
            name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
            if name in ("asdict", "_asdict", "astuple"):
                offenders.append(f"{file.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []
