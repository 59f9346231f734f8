"""The tests mirror the tree (docs/testing.md): core tests need no CLI runner, every file has its place."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent
TOP_LEVEL = {"test_readme.py", "test_layout.py", "test_packaging.py", "test_no_wall_clock_bounds.py"}  # about the repository
CLI_FIXTURES = {"vora", "vora_process"}


def _test_files() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def _placed(path: Path) -> bool:
    parts = path.relative_to(TESTS).parts
    return parts[0] in {"core", "cli", "ansible"} if len(parts) > 1 else path.name in TOP_LEVEL


def test_every_test_file_is_under_core_cli_or_ansible() -> None:
    misplaced = [str(p.relative_to(TESTS)) for p in _test_files() if not _placed(p)]
    assert misplaced == [], "move them to tests/core/<concept>/, tests/cli/ or tests/ansible/ (docs/testing.md)"


def test_no_test_module_lives_in_support_and_basenames_are_unique() -> None:
    assert list((TESTS / "support").glob("test_*.py")) == []
    twice = [name for name, n in Counter(p.name for p in _test_files() if not (p.parent / "__init__.py").exists()).items() if n > 1]
    assert twice == []


def test_core_tests_use_no_cli_runner() -> None:
    offenders = []
    for path in sorted((TESTS / "core").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                used = CLI_FIXTURES & {a.arg for a in node.args.args}
                offenders += [f"{path.relative_to(TESTS)}::{node.name} uses {name}" for name in sorted(used)]
    assert offenders == [], "a test that runs the CLI belongs in tests/cli/"
