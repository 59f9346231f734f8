"""Production code has a production caller (issue 11, point 2: code used only by tests moves to
the tests or gains a real caller). Every public top-level function and class of `vora_cli` is
named somewhere else in the package (an import, a call, `__all__`, a registration)."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from source_trees import parsed

PACKAGE = Path(__file__).resolve().parents[2] / "vora_cli"


def _uncalled(root: Path) -> list[str]:
    sources = {p: p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts}
    words = Counter(re.findall(r"\w+", "\n".join(sources.values())))
    found = []
    for path, text in sources.items():
        for node in parsed(text).body:
            public = isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
            if public and words[node.name] < 2 and not _declared_command(node):
                found.append(f"{path.relative_to(root).as_posix()}: {node.name}")
    return found


def _declared_command(node: ast.stmt) -> bool:
    """A command function's caller is its registration: `@command(...)` (`cli/declare.py`)."""
    return isinstance(node, ast.FunctionDef) and any(
        isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "command" for d in node.decorator_list)


def test_every_public_function_and_class_has_a_caller_in_the_package() -> None:
    assert _uncalled(PACKAGE) == []


def test_the_check_sees_an_uncalled_function_and_class(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def used() -> int:\n    return 1\n\n\ndef lonely() -> int:\n    return used()\n")
    (tmp_path / "b.py").write_text("class Orphan:\n    pass\n\n\ndef _private() -> None:\n    pass\n")
    (tmp_path / "c.py").write_text("@command('go')\ndef registered() -> None:\n    pass\n")
    assert _uncalled(tmp_path) == ["a.py: lonely", "b.py: Orphan"]
