"""No test asserts a wall-clock bound (docs/testing.md, "No wall-clock bounds"): a duration compared
with a constant fails on a loaded machine and lands nothing. Bound the work instead (count steps,
compare sizes, record the timeout a wait was given: tests/support/waits_support.py), or guard
against a hang with a generous limit of at least HANG_GUARD_MIN seconds.

Every Python file under tests/ is parsed; an assertion (`assert`, or `if ...: pytest.fail(...)` /
`raise`) that compares a clock reading (`perf_counter()`, `monotonic()`, `time()`,
`process_time()` and their `_ns` forms), a difference of them or a name bound to one with a
constant under HANG_GUARD_MIN fails this test, naming file:line.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
HANG_GUARD_MIN = 10.0
CLOCKS = {"perf_counter", "monotonic", "time", "process_time", "thread_time"}
CLOCKS |= {f"{name}_ns" for name in CLOCKS}
NS_CLOCKS = {f"{name}_ns" for name in CLOCKS if not name.endswith("_ns")}


class _Scope:
    """What the names of one function (or the module) are bound to: a clock reading, a constant."""

    def __init__(self, clock_names: set[str], parent: _Scope | None = None) -> None:
        self.clock_names = clock_names  # `perf_counter` after `from time import perf_counter`
        self.timed: set[str] = set(parent.timed) if parent else set()
        self.constants: dict[str, float] = dict(parent.constants) if parent else {}
        # a deadline: name -> the constant seconds added to a clock reading (`end = monotonic() + 5`)
        self.offsets: dict[str, float] = dict(parent.offsets) if parent else {}

    def forget(self, name: str) -> None:
        self.timed.discard(name)
        self.constants.pop(name, None)
        self.offsets.pop(name, None)

    def is_clock_call(self, node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        if isinstance(func, ast.Attribute):
            return func.attr in CLOCKS and isinstance(func.value, ast.Name) and func.value.id == "time"
        return isinstance(func, ast.Name) and func.id in self.clock_names

    def timed_expr(self, node: ast.AST) -> bool:
        return any(self.is_clock_call(n) or (isinstance(n, ast.Name) and n.id in self.timed) for n in ast.walk(node))

    def seconds_per_unit(self, node: ast.AST) -> float:
        """1 for a reading in seconds, 1e-9 for the `_ns` clocks."""
        ns = any(self.is_clock_call(n) and _called_name(n) in NS_CLOCKS for n in ast.walk(node))
        return 1e-9 if ns else 1.0

    def constant(self, node: ast.AST) -> float | None:
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return float(node.value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.constant(node.operand)
            return None if inner is None else -inner
        if isinstance(node, ast.Name):
            return self.constants.get(node.id)
        if isinstance(node, ast.BinOp):
            left, right = self.constant(node.left), self.constant(node.right)
            if left is None or right is None:
                return None
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            if isinstance(node.op, ast.Mult):
                return left * right
        return None

    def offset(self, node: ast.AST) -> float | None:
        """The constant seconds of a deadline, `clock() + C` (or a name bound to one)."""
        if isinstance(node, ast.Name):
            return self.offsets.get(node.id)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            for timed, other in ((node.left, node.right), (node.right, node.left)):
                value = self.constant(other)
                if value is not None and self.timed_expr(timed):
                    return value * self.seconds_per_unit(timed)
        return None

    def bind(self, target: ast.AST, value: ast.AST) -> None:
        if not isinstance(target, ast.Name):
            return
        self.forget(target.id)
        if self.timed_expr(value):
            self.timed.add(target.id)
            offset = self.offset(value)
            if offset is not None:
                self.offsets[target.id] = offset
        elif (constant := self.constant(value)) is not None:
            self.constants[target.id] = constant

    def bounds(self, condition: ast.expr) -> Iterator[float]:
        """The constants (in seconds) under HANG_GUARD_MIN a clock reading is compared with."""
        for compare in (n for n in ast.walk(condition) if isinstance(n, ast.Compare)):
            operands = [compare.left, *compare.comparators]
            timed = [op for op in operands if self.timed_expr(op)]
            if not timed:
                continue
            unit = min(self.seconds_per_unit(op) for op in timed)
            for op in operands:
                value = None if op in timed else self.constant(op)
                if value is not None and abs(value * unit) < HANG_GUARD_MIN:
                    yield value * unit
            if len(timed) >= 2:  # a deadline: `monotonic() < end` with `end = monotonic() + 5`
                for op in timed:
                    offset = self.offset(op)
                    if offset is not None and abs(offset) < HANG_GUARD_MIN:
                        yield offset


def _called_name(node: ast.AST) -> str:
    func = node.func if isinstance(node, ast.Call) else None
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _asserted(node: ast.If) -> ast.expr | None:
    """`X` of `if X: pytest.fail(...)` or `if X: raise ...`: an assertion written out."""
    first = node.body[0]
    if isinstance(first, ast.Raise):
        return node.test
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Call) and _called_name(first.value) == "fail":
        return node.test
    return None


class _Finder(ast.NodeVisitor):
    """Walks statements in order, one scope per function, and records each bounded assertion."""

    def __init__(self, source: str, clock_names: set[str]) -> None:
        self.source = source
        self.scope = _Scope(clock_names)
        self.found: list[tuple[int, str]] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        outer, self.scope = self.scope, _Scope(self.scope.clock_names, self.scope)
        arguments = node.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]:
            if arg is not None:
                self.scope.forget(arg.arg)
        self.generic_visit(node)
        self.scope = outer

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        for target in node.targets:
            self.scope.bind(target, node.value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.generic_visit(node)
        if node.value is not None:
            self.scope.bind(node.target, node.value)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.generic_visit(node)
        self.scope.bind(node.target, node.value)

    def visit_Assert(self, node: ast.Assert) -> None:
        self._check(node.lineno, node.test)
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        condition = _asserted(node)
        if condition is not None:
            self._check(node.lineno, condition)
        self.generic_visit(node)

    def _check(self, line: int, condition: ast.expr) -> None:
        bounds = ", ".join(f"{seconds:g} s" for seconds in self.scope.bounds(condition))
        if bounds:
            self.found.append((line, f"{ast.get_source_segment(self.source, condition)} (bound: {bounds})"))


# Text without any of these reads no clock (the detector knows `time.X()` and `from time import X`):
# skipping it spares parsing most of the suite.
_MAY_READ_A_CLOCK = re.compile(r"perf_counter|monotonic|process_time|thread_time|time\.time|from time import")


def wall_clock_bounds(source: str) -> list[tuple[int, str]]:
    """(line, text) of every assertion in `source` that bounds a duration by a constant."""
    if not _MAY_READ_A_CLOCK.search(source):
        return []
    tree = ast.parse(source)
    clock_names = {alias.asname or alias.name for node in ast.walk(tree)
                   if isinstance(node, ast.ImportFrom) and node.module == "time"
                   for alias in node.names if alias.name in CLOCKS}
    finder = _Finder(source, clock_names)
    finder.visit(tree)
    return sorted(set(finder.found))


def test_no_test_bounds_a_duration_by_a_constant() -> None:
    offenders = [f"{path.relative_to(TESTS.parent)}:{line}: {text}"
                 for path in sorted(TESTS.rglob("*.py")) for line, text in wall_clock_bounds(path.read_text())]
    assert offenders == [], ("a test asserts a wall-clock bound; bound the work instead, or guard a hang with "
                             f">= {HANG_GUARD_MIN:g} s (docs/testing.md):\n" + "\n".join(offenders))


# -- the detector itself -----------------------------------------------------------------------------
# Its inputs are test sources kept as data (tests/data/wall_clock_guard/): never run, and never
# read as this file's own assertions by a tool that greps for them.
SAMPLES = TESTS / "data" / "wall_clock_guard"


def _samples(kind: str) -> list[str]:
    return [path.read_text() for path in sorted((SAMPLES / kind).glob("*.py.txt"))]


def _ids(kind: str) -> list[str]:
    return [path.name.removesuffix(".py.txt") for path in sorted((SAMPLES / kind).glob("*.py.txt"))]


@pytest.mark.parametrize("source", _samples("finds"), ids=_ids("finds"))
def test_the_guard_finds_a_wall_clock_bound(source: str) -> None:
    assert len(wall_clock_bounds(source)) == 1


@pytest.mark.parametrize("source", _samples("allows"), ids=_ids("allows"))
def test_the_guard_allows_hang_guards_and_timestamps(source: str) -> None:
    assert wall_clock_bounds(source) == []


def test_the_guard_names_file_and_line() -> None:
    source = (SAMPLES / "names_file_and_line.py.txt").read_text()
    assert wall_clock_bounds(source) == [(6, "time.monotonic() - s < 1 (bound: 1 s)")]


def test_the_samples_are_all_there() -> None:
    # an empty sample folder would leave the two tests above with nothing to check
    assert (len(_samples("finds")), len(_samples("allows"))) == (8, 6)
