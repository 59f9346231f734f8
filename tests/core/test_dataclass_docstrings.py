"""Every data class of vora says what it is in a docstring.

The classes are made by `vora_cli.core.records.dataclass` (spelled `@dataclass`, as in the standard
library); the docstring is for the reader. (The standard library's decorator also builds a missing
`__doc__` from `inspect.signature` at import; vora's does not, but the rule stays.) Counted on the
source, never timed."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from source_trees import source_nodes

PACKAGE = Path(__file__).resolve().parents[2] / "vora_cli"


def _is_dataclass(node: ast.ClassDef) -> bool:
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        if (isinstance(target, ast.Name) and target.id == "dataclass") or \
                (isinstance(target, ast.Attribute) and target.attr == "dataclass"):
            return True
    return False


def _undocumented(root: Path) -> list[str]:
    found = []
    for path in sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts):
        for node in source_nodes(path):
            if isinstance(node, ast.ClassDef) and _is_dataclass(node) and ast.get_docstring(node) is None:
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno} {node.name}")
    return found


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
def test_every_dataclass_has_a_docstring() -> None:
    assert _undocumented(PACKAGE) == []


def test_the_check_finds_an_undocumented_dataclass(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "import dataclasses\nfrom dataclasses import dataclass\n\n"
        "@dataclass(frozen=True)\nclass A:\n    x: int\n\n"
        "@dataclasses.dataclass\nclass B:\n    x: int\n\n"
        "@dataclass\nclass C:\n    \"\"\"Said.\"\"\"\n    x: int\n\n"
        "class D:\n    x: int\n", encoding="utf-8")
    assert _undocumented(tmp_path) == ["m.py:5 A", "m.py:9 B"]
