"""The shape of `vora_cli/core/context/`: no import circles, small modules, no facade."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "vora_cli" / "core" / "context"
PREFIX = "vora_cli.core.context."


def _imports() -> dict[str, set[str]]:
    """Module name -> the sibling modules it imports (at any depth of the file, lazy or not)."""
    graph: dict[str, set[str]] = {}
    for file in sorted(PACKAGE.glob("*.py")):
        if file.name == "__init__.py":
            continue
        tree = ast.parse(file.read_text())
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PREFIX):
                found.add(node.module.removeprefix(PREFIX))
        graph[file.stem] = found
    return graph


def test_the_package_has_no_import_circle() -> None:
    graph = _imports()
    assert set(graph) >= {"caps", "files", "budget", "lines", "report", "skills", "operations", "session"}
    state: dict[str, str] = {}

    def visit(name: str, chain: tuple[str, ...]) -> None:
        if state.get(name) == "done":
            return
        assert state.get(name) != "open", "import circle: " + " -> ".join((*chain, name))
        state[name] = "open"
        for dep in sorted(graph.get(name, ())):
            visit(dep, (*chain, name))
        state[name] = "done"

    for name in sorted(graph):
        visit(name, ())


def test_text_primitives_depend_on_nothing() -> None:
    """JavaScript's text rules moved to the ground layer (`core/text.py`): a leaf, importing nothing of vora."""
    tree = ast.parse((PACKAGE.parent / "text.py").read_text())
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("vora_cli")]


def test_no_module_is_over_400_lines_without_a_reason() -> None:
    files = sorted(PACKAGE.glob("*.py"))
    assert files, PACKAGE  # a moved package must not leave the loop checking nothing
    for file in files:
        lines = file.read_text().splitlines()
        assert len(lines) <= 400, f"{file.name} has {len(lines)} lines"


def test_importing_one_module_loads_only_what_it_needs() -> None:
    script = (
        "import sys\n"
        "from vora_cli.core.context.caps import resolve_caps\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('vora_cli.core.context.'))))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = set(result.stdout.split())
    assert "vora_cli.core.context.caps" in loaded
    assert not loaded & {"vora_cli.core.context.report", "vora_cli.core.context.lines", "vora_cli.core.context.budget"}


def test_the_package_re_exports_nothing() -> None:
    """One home per concept: a name is imported from the module that defines it."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    assert [type(node).__name__ for node in tree.body] == ["Expr"]  # the docstring alone
