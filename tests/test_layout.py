"""The tests mirror the tree (docs/testing.md): core tests need no CLI runner, every file has its place,
and tests/cli/ is the command tree: a folder a command group (or a top-level command with several
files), a file a command of that group or a topic listed below."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import click

from vora_cli.cli.app import root_command

TESTS = Path(__file__).resolve().parent
TOP_LEVEL = {"test_readme.py", "test_layout.py", "test_packaging.py", "test_no_wall_clock_bounds.py"}  # about the repository
CLI_FIXTURES = {"vora", "vora_process"}

# What holds across commands: `common` (the root app, global options, JSON, help, usage errors,
# docgen, the fast dispatch, start-up) and `output` (what reaches the terminal and the pipes).
CROSS_CUTTING = {"common", "output"}

# The topics a folder may hold beside its commands' files: a promise kept across several commands of
# the group (secrets, owners, kill -9, scale), never the finding that led to a test. A new topic is
# added here on purpose; a small new test joins its command's file instead.
TOPICS: dict[str, set[str]] = {
    "backup": {"encryption", "gateway_format", "kill", "live_gateway", "recovery"},
    "common": {"clock", "contract", "deep_nesting", "docgen", "dry_runs", "entry_point", "examples",
               "fast_dispatch", "global_options", "help", "huge_integers", "imports", "json", "newer_gateway", "paths", "query",
               "root_app", "shell", "usage_errors"},
    "completion": {"complete", "install", "own_files", "print", "shells", "values"},
    "config": {"duplicates", "encodings", "faults", "fuzz", "imports", "includes", "legacy_keys", "numbers",
               "owners", "plugin_settings", "scale", "secret_registry", "secrets", "stdin", "strict_json",
               "url_secrets", "verdict_cache", "writes"},
    "context": {"agents"},
    "devices": {"confirm", "kill", "landing", "owners", "recovery", "scale", "store_values"},
    "doctor": {"checks", "fix", "formats", "live", "messages", "shortcuts"},
    "gateway": {"device_token", "evidence", "imports", "masking", "numbers", "protocol", "secrets", "settings"},
    "logs": {"file"},
    "output": {"escaping", "injection", "printed_commands", "screens", "stream_failures", "tables", "terminal"},
    "plugins": {"archives", "bundled", "install_checks", "modes", "npm", "os_refusals", "published"},
    "sessions": {"scale", "store_text"},
    "settings": {"broken_file", "consumers", "precedence"},
}


def _test_files() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


def _placed(path: Path) -> bool:
    parts = path.relative_to(TESTS).parts
    return parts[0] in {"core", "cli", "ansible"} if len(parts) > 1 else path.name in TOP_LEVEL


def _commands() -> dict[str, set[str]]:
    """Each top-level command with the names of its subcommands (none for a plain command)."""
    root = root_command()
    assert isinstance(root, click.Group)
    ctx = click.Context(root)
    tree: dict[str, set[str]] = {}
    for name in root.list_commands(ctx):
        cmd = root.get_command(ctx, name)
        tree[name] = set(cmd.list_commands(click.Context(cmd))) if isinstance(cmd, click.Group) else set()
    return tree


def test_every_test_file_is_under_core_cli_or_ansible() -> None:
    misplaced = [str(p.relative_to(TESTS)) for p in _test_files() if not _placed(p)]
    assert misplaced == [], "move them to tests/core/<concept>/, tests/cli/<group>/ or tests/ansible/ (docs/testing.md)"


def test_no_test_module_lives_in_support_and_basenames_outside_packages_are_unique() -> None:
    assert list((TESTS / "support").glob("test_*.py")) == []
    bare = [p.name for p in _test_files() if not (p.parent / "__init__.py").exists()]
    assert [name for name, n in Counter(bare).items() if n > 1] == []


def test_cli_tests_are_the_command_tree() -> None:
    cli = TESTS / "cli"
    assert (cli / "__init__.py").exists()
    assert sorted(p.name for p in cli.glob("test_*.py")) == [], "a CLI test goes in tests/cli/<group>/"
    commands = _commands()
    folders = {p.name for p in cli.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders - set(commands) - CROSS_CUTTING == set(), "a folder is a command (group) of `vora --help`"
    assert set(TOPICS) <= set(commands) | CROSS_CUTTING
    wrong = []
    for folder in sorted(folders):
        if not (cli / folder / "__init__.py").exists():
            wrong.append(f"{folder}/ has no __init__.py (its files are named without the group)")
        allowed = {folder, *commands.get(folder, ()), *TOPICS.get(folder, ())}
        allowed = {name.replace("-", "_") for name in allowed}
        wrong += [f"{folder}/{p.name}" for p in sorted((cli / folder).glob("test_*.py"))
                  if p.stem.removeprefix("test_") not in allowed]
        wrong += [f"{folder}/{p.relative_to(cli / folder)}" for p in (cli / folder).glob("*/test_*.py")]
    assert wrong == [], "name a file after a command of its group, or add a topic to TOPICS (docs/testing.md)"


def test_core_tests_use_no_cli_runner() -> None:
    offenders = []
    for path in sorted((TESTS / "core").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                used = CLI_FIXTURES & {a.arg for a in node.args.args}
                offenders += [f"{path.relative_to(TESTS)}::{node.name} uses {name}" for name in sorted(used)]
    assert offenders == [], "a test that runs the CLI belongs in tests/cli/"
