"""Every regular expression vora writes compiles, whether or not a test's input reaches it.

A pattern only some runs need is kept as its source and compiled where it is used
(docs/architecture.md, "Patterns at start-up"), so a typo in one that only a rare input reaches
would otherwise wait for that input. This finds every call of `re`'s functions in `vora_cli`
whose pattern is a literal or built from module-level names, and compiles it with the flags the
call passes.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import Any

import pytest
from source_trees import source_tree

from tests.conftest import REPO

# re's functions and where their `flags` argument sits when passed by position
FLAGS_AT = {"compile": 1, "match": 2, "search": 2, "fullmatch": 2, "findall": 2, "finditer": 2,
            "sub": 4, "subn": 4, "split": 3}


def _module_name(path: Path, package: Path) -> str:
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _pattern_calls(tree: ast.AST) -> list[tuple[ast.expr, ast.expr | None, int]]:
    """(pattern, flags, line) of each `re.<function>(...)` call."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FLAGS_AT
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args):
            flags = next((k.value for k in node.keywords if k.arg == "flags"), None)
            at = FLAGS_AT[node.func.attr]
            if flags is None and len(node.args) > at:
                flags = node.args[at]
            found.append((node.args[0], flags, node.lineno))
    return found


def compile_every_pattern(package: Path) -> tuple[int, list[str]]:
    """How many patterns in the modules of `package` (importable) compiled, and each one that did not (file:line: error).
    A pattern built from a function's own variables (an f-string of a caller's names) is left
    out: only its call can build it."""
    compiled, broken = 0, []
    for path in sorted(package.rglob("*.py")):
        if path.name == "__main__.py":
            continue
        calls = _pattern_calls(source_tree(path))
        if not calls:
            continue
        namespace: dict[str, Any] = vars(importlib.import_module(_module_name(path, package)))
        for pattern, flags, line in calls:
            try:
                source = eval(compile(ast.Expression(pattern), str(path), "eval"), namespace)
                flag_value = 0 if flags is None else eval(compile(ast.Expression(flags), str(path), "eval"), namespace)
            except NameError:
                continue
            try:
                re.compile(source, flag_value)
            except re.error as error:
                broken.append(f"{path.relative_to(package)}:{line}: {error}")
            else:
                compiled += 1
    return compiled, broken


def test_every_pattern_vora_defines_compiles() -> None:
    compiled, broken = compile_every_pattern(REPO / "vora_cli")
    assert broken == []
    assert compiled > 60  # the walk found them


def test_a_broken_pattern_is_found_where_it_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "patterns_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rare.py").write_text(
        "import re\n_RARE = r'(unclosed'\n_FINE = r'a+'\n"
        "def later(text, name):\n    re.sub(_RARE, '', text)\n    re.search(_FINE, text, re.IGNORECASE)\n"
        "    return re.match(rf'{name}+', text)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    compiled, broken = compile_every_pattern(package)
    assert compiled == 1  # _FINE; the f-string of a local name is left to its call
    assert broken == ["rare.py:5: missing ), unterminated subpattern at position 0"]
