"""Start-up guard: what an everyday command answered by the fast dispatch leaves out of its
start. Counted in a fresh interpreter after the run (`sys.modules`, compiled patterns), never
timed; what each left-out import costs is in docs/performance.md."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from source_trees import source_nodes, source_tree

from tests.conftest import REPO

_RUN = """
import json, sys
from vora_cli.cli.dispatch import dispatch
code = dispatch(sys.argv[1:])
redact = sys.modules.get("vora_cli.core.sessions.redact")
facts = {"fast": code is not None, "code": code, "modules": sorted(sys.modules),
         "redact_compiled": redact._pattern.cache_info().currsize if redact else None,
         "redact_rules": len(redact._RULES) if redact else None}
sys.stderr.write("\\nFACTS=" + json.dumps(facts) + "\\n")
"""


def _facts(args: list[str], tmp_path: Path) -> dict[str, Any]:
    state = tmp_path / "state"
    shutil.copytree(REPO / "examples" / "vora", state)
    # with the plugin it links beside it, as in the repository (else the link dangles and the
    # plugin's own checks, its configSchema among them, never run)
    shutil.copytree(REPO / "examples" / "plugins", tmp_path / "plugins")
    env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_")}
    env.update({"PYTHONPATH": str(REPO), "VORA_HOME": str(tmp_path), "VORA_NOW_MS": "1767225600000"})
    result = subprocess.run([sys.executable, "-c", _RUN, "--state-dir", str(state), *args], capture_output=True,
                            text=True, env=env, check=False, timeout=120)
    line = result.stderr.rstrip().rpartition("\nFACTS=")[2]
    facts: dict[str, Any] = json.loads(line)
    assert facts["fast"], result.stderr
    # a command that crashed has loaded what it loaded so far: a guard on its modules must see it end
    assert facts["code"] in (0, 1) and "unexpected error" not in result.stderr, result.stderr
    return facts


@pytest.mark.parametrize("args", [["doctor"], ["sessions", "show", "main"]])
def test_the_redaction_patterns_are_compiled_only_when_a_text_may_hold_one(args: list[str], tmp_path: Path) -> None:
    # every pattern compiled up front would cost each start that reads a session; most texts hold
    # none of their literals, so most runs compile none or a few
    facts = _facts(args, tmp_path)
    assert facts["redact_rules"] is not None, "the command no longer reads a session: drop it here"
    assert facts["redact_compiled"] < facts["redact_rules"]


@pytest.mark.parametrize(("args", "absent"), [
    (["plugins", "list"], {"vora_cli.core.config.planning", "vora_cli.core.secrets"}),
    (["plugins", "list", "--json"], {"vora_cli.core.config.planning"}),
    (["config", "validate"], {"vora_cli.core.config.planning"}),
])
def test_reading_plugins_does_not_load_the_edit_planner(args: list[str], absent: set[str], tmp_path: Path) -> None:
    # the plugins code imports `ConfigEdit` where it builds one: only a command that builds an edit
    # loads the planner (and, for `plugins list`, the secrets rules it brought along)
    facts = _facts(args, tmp_path)
    assert "vora_cli.core.plugins.manifest" in facts["modules"]  # the command read plugins
    assert not (absent & set(facts["modules"])), sorted(absent & set(facts["modules"]))


@pytest.mark.parametrize("args", [["doctor"], ["config", "validate"], ["context", "list"], ["config", "get", "gateway.port"]])
def test_reading_a_config_does_not_load_the_text_editor(args: list[str], tmp_path: Path) -> None:
    # `json5.splice` and `json5.style` write new text (config set/unset/patch): a start that only
    # reads the config does without them
    modules = set(_facts(args, tmp_path)["modules"])
    assert {"vora_cli.core.json5.document", "vora_cli.core.json5.parser"} <= modules
    assert not modules & {"vora_cli.core.json5.splice", "vora_cli.core.json5.style"}


def test_setting_a_value_still_loads_it(tmp_path: Path) -> None:
    assert "vora_cli.core.json5.splice" in _facts(["config", "set", "gateway.port", "18790"], tmp_path)["modules"]


def test_a_doctor_that_writes_no_date_does_not_load_datetime(tmp_path: Path) -> None:
    # `core/clock.py` loads it on the first moment written or read as text; the first
    # run fills the schema-verdict cache (a validator, when it runs, loads email.utils and datetime)
    for name in ("first", "again"):
        (tmp_path / name).mkdir()
    assert "jsonschema_rs" in _facts(["doctor"], tmp_path / "first")["modules"]
    modules = _facts(["doctor"], tmp_path / "again")["modules"]
    assert "jsonschema_rs" not in modules and "datetime" not in modules


@pytest.mark.parametrize("args", [
    ["doctor"], ["doctor", "--json"], ["config", "get", "gateway.port"], ["config", "file"],
    ["config", "set", "gateway.port", "18790"], ["config", "validate"], ["context", "list"], ["context", "json"],
    ["plugins", "list"], ["devices", "list"],
], ids=" ".join)
def test_an_everyday_command_does_not_load_typing(args: list[str], tmp_path: Path) -> None:
    # vora's modules on these paths import typing's names only for type checkers
    # (`TYPE_CHECKING = False`, then `if TYPE_CHECKING:`), and their records and plain classes need
    # none of it at run time.
    # A validator run loads it (jsonschema_rs does): the first run fills the verdict cache.
    (tmp_path / "first").mkdir()
    (tmp_path / "again").mkdir()
    _facts(args, tmp_path / "first")
    modules = set(_facts(args, tmp_path / "again")["modules"])
    assert "vora_cli.core.install" in modules or args[:2] == ["config", "file"]
    assert "typing" not in modules, f"vora {' '.join(args)} loads typing"


def _type_checking_spellings(package: Path) -> list[str]:
    """Modules that spell `TYPE_CHECKING` other than `TYPE_CHECKING = False` at their top level."""
    found = []
    for path in sorted(p for p in package.rglob("*.py") if "__pycache__" not in p.parts):
        tree = source_tree(path)
        name = path.relative_to(package.parent).as_posix()
        own = any(isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["TYPE_CHECKING"]
                  and isinstance(node.value, ast.Constant) and node.value.value is False for node in tree.body)
        for node in source_nodes(path):
            if isinstance(node, ast.ImportFrom) and any(alias.name == "TYPE_CHECKING" for alias in node.names):
                found.append(f"{name}:{node.lineno} imports it from {node.module}")
            elif isinstance(node, ast.Attribute) and node.attr == "TYPE_CHECKING":
                found.append(f"{name}:{node.lineno} reads {ast.unparse(node)}")
            elif isinstance(node, ast.Name) and node.id == "TYPE_CHECKING" and not own:
                found.append(f"{name}:{node.lineno} reads TYPE_CHECKING without `TYPE_CHECKING = False`")
    return found


def test_every_module_spells_type_checking_one_way() -> None:
    # `from typing import TYPE_CHECKING` on an everyday command's path would load typing on its own
    # (docs/architecture.md, "`typing` at start-up"); one spelling in the whole package keeps that so
    assert _type_checking_spellings(REPO / "vora_cli") == []


def test_the_spelling_check_catches_the_other_spellings(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "own.py").write_text("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    import os\n")
    (package / "imported.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import os\n")
    (package / "attribute.py").write_text("import typing\nif typing.TYPE_CHECKING:\n    import os\n")
    (package / "nested.py").write_text("def f():\n    TYPE_CHECKING = False\n    return TYPE_CHECKING\n")
    assert _type_checking_spellings(package) == [
        "pkg/attribute.py:2 reads typing.TYPE_CHECKING",
        "pkg/imported.py:1 imports it from typing",
        "pkg/imported.py:2 reads TYPE_CHECKING without `TYPE_CHECKING = False`",
        "pkg/nested.py:2 reads TYPE_CHECKING without `TYPE_CHECKING = False`",
        "pkg/nested.py:3 reads TYPE_CHECKING without `TYPE_CHECKING = False`",
    ]
