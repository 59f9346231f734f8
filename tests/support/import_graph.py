"""The import graph of a package, read from its source (no import runs), and its circles."""

from __future__ import annotations

import ast
from pathlib import Path

from source_trees import source_tree


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every module under `root` (the package folder)."""
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join(parts)] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, name: str, is_package: bool, top_level_only: bool) -> list[tuple[str, str | None]]:
    """(module, imported name or None) for the imports that run when the module does."""
    found: list[tuple[str, str | None]] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                stack.extend(child.orelse)  # annotations only: not a runtime import
                continue
            if (isinstance(child, ast.If) and isinstance(child.test, ast.UnaryOp)
                    and isinstance(child.test.op, ast.Not) and _is_type_checking(child.test.operand)):
                stack.extend(child.body)  # `if not TYPE_CHECKING:` runs; its `else:` is for type checkers
                continue
            if top_level_only and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, None) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = name.split(".") if is_package else name.split(".")[:-1]
                    anchor = anchor[: len(anchor) - (child.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                found.extend((base, alias.name) for alias in child.names)
            stack.append(child)
    return found


def import_graph(root: Path, package: str, *, top_level_only: bool = True) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports."""
    modules = module_names(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = source_tree(path)
        edges: set[str] = set()
        for module, member in _imports(tree, name, path.name == "__init__.py", top_level_only):
            if member is not None and f"{module}.{member}" in modules:
                edges.add(f"{module}.{member}")
            elif module in modules:
                edges.add(module)
        edges.discard(name)
        graph[name] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def unit_of(module: str) -> str:
    """The unit a module belongs to for the layer rules: `core.<package or module>` under
    `vora_cli.core`, `cli` for all of `vora_cli.cli`, else the top-level module (`complete`,
    `__main__`); the package itself (`vora_cli`: the version) and `vora_cli.core` are their own."""
    root, *parts = module.split(".")
    if not parts:
        return root
    if parts[0] == "core":
        return "core" if len(parts) == 1 else f"core.{parts[1]}"
    return parts[0]


def unit_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Module graph -> unit graph (an arrow between two units when any of their modules has one)."""
    units: dict[str, set[str]] = {}
    for module, deps in graph.items():
        unit = unit_of(module)
        units.setdefault(unit, set()).update(unit_of(d) for d in deps if unit_of(d) != unit)
    return units


def upward_arrows(graph: dict[str, set[str]], layers: list[tuple[str, tuple[str, ...]]]) -> list[str]:
    """Every import (module -> module) that runs from a lower layer to a higher one, as
    `a.b -> c.d (low -> high)`; a unit in no layer is reported too, so a new package must be placed."""
    rank = {unit: i for i, (_name, units) in enumerate(layers) for unit in units}
    names = [name for name, _units in layers]
    found = [f"{unit}: in no layer" for unit in sorted({unit_of(m) for m in graph}) if unit not in rank]
    for module, deps in sorted(graph.items()):
        low = rank.get(unit_of(module))
        for dep in sorted(deps):
            high = rank.get(unit_of(dep))
            if low is not None and high is not None and high > low:
                found.append(f"{module} -> {dep} ({names[low]} -> {names[high]})")
    return found
