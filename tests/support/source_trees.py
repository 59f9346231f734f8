"""Python sources read as syntax trees once per test run: the checks that read every module of
`vora_cli` (layers, circles, writes, docstrings, patterns...) share one parse and one walk of each.

Keyed by the file's text, not its path: a check's own probe written to `tmp_path` and rewritten is
parsed again. The trees are shared, so a caller only reads them."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def parsed(text: str) -> ast.Module:
    """`ast.parse(text)`, once per text."""
    return ast.parse(text)


@functools.cache
def _nodes(text: str) -> tuple[ast.AST, ...]:
    return tuple(ast.walk(parsed(text)))


def source_tree(path: Path) -> ast.Module:
    """`ast.parse` of the file at `path` (UTF-8)."""
    return parsed(path.read_text(encoding="utf-8"))


def source_nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the file at `path`, in `ast.walk`'s order."""
    return _nodes(path.read_text(encoding="utf-8"))
