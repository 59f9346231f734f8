"""The package order of `vora_cli` (docs/architecture.md, "Layers"), held by a test.

Each unit (a package or top-level module of `vora_cli.core`, the CLI) sits in one layer; an
import may go to the same layer or a lower one, never up, counting imports inside functions too
(a lazy import is still an arrow; only `if TYPE_CHECKING:` imports, which never run, are not).
The units, packages included, have no circle among them.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from import_graph import circles, import_graph, unit_graph, upward_arrows

PACKAGE = Path(__file__).resolve().parents[2] / "vora_cli"

# Lowest first. Keep in step with docs/architecture.md.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("ground", ("vora_cli", "core", "core.records", "core.digests", "core.errors", "core.secrets", "core.home", "core.clock", "core.text",
                "core.shell", "core.wording", "core.reading", "core.processes", "core.temp_files", "core.strict_json", "core.nesting", "core.json_data", "core.inputs", "core.trees", "core.userdirs",
                "core.doctor_names", "core.newer_line", "core.code_names")),
    ("formats", ("core.json5", "core.writer")),
    ("settings", ("core.settings",)),
    ("paths", ("core.paths",)),
    ("config", ("core.config",)),
    ("agents", ("core.agents",)),
    ("features", ("core.context", "core.sessions", "core.plugins", "core.devices", "core.gateway",
                  "core.gateway_locks", "core.backup", "core.shell_install")),
    ("install", ("core.install",)),
    ("checks", ("core.doctor", "core.security")),
    ("cli", ("cli", "complete", "__main__")),
]


@functools.cache
def _graph() -> dict[str, set[str]]:
    return import_graph(PACKAGE, "vora_cli", top_level_only=False)


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
def test_no_import_runs_up_the_layers() -> None:
    graph = _graph()
    assert len(graph) > 150  # the walk found the package
    assert upward_arrows(graph, LAYERS) == []


def test_no_circle_between_packages() -> None:
    units = unit_graph(_graph())
    assert {"core.config", "core.json5", "core.install", "core.agents", "cli"} <= set(units)
    assert circles(units) == []


def test_the_layer_check_sees_an_arrow_up_inside_a_function(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "core" / "low").mkdir(parents=True)
    for init in (pkg / "__init__.py", pkg / "core" / "__init__.py", pkg / "core" / "low" / "__init__.py"):
        init.write_text("")
    (pkg / "core" / "low" / "a.py").write_text("def later():\n    from pkg.core import high\n")
    (pkg / "core" / "high.py").write_text("from pkg.core.low import a\n")
    (pkg / "core" / "typed.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.core.high\n")
    graph = import_graph(pkg, "pkg", top_level_only=False)
    layers = [("low", ("pkg", "core", "core.low", "core.typed")), ("high", ("core.high",))]
    assert upward_arrows(graph, layers) == ["pkg.core.low.a -> pkg.core.high (low -> high)"]
    assert circles(unit_graph(graph)) == [["core.high", "core.low"]]
    assert upward_arrows(graph, layers[:1]) == ["core.high: in no layer"]


def test_no_command_group_imports_another() -> None:
    """A command that needs another group's work calls a core operation (docs/architecture.md,
    "Where a new command goes"); what several groups share lives beside them in `cli/`."""
    prefix = "vora_cli.cli.commands."

    def group(module: str) -> str | None:
        return module[len(prefix):].split(".")[0] if module.startswith(prefix) else None

    crossing = [f"{m} -> {d}" for m, deps in sorted(_graph().items()) for d in sorted(deps)
                if group(m) and group(d) and group(m) != group(d)]
    assert crossing == []


def test_the_circle_finder_finds_circles(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from pkg.sub import b\n")
    (pkg / "a.py").write_text("from pkg.sub import b\n")
    (pkg / "sub" / "b.py").write_text("from .. import c\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.d\n"
                              "def later():\n    import pkg.a\n")
    (pkg / "d.py").write_text("import pkg.c\n")
    assert circles(import_graph(pkg, "pkg")) == []  # TYPE_CHECKING and function imports do not count
    assert circles(import_graph(pkg, "pkg", top_level_only=False)) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
