"""A dry run says "would" (issue 38): every command with `--dry-run`, run with it on the example
install, tells what it would do and never reports a change as done (`config set … --dry-run`
printed `Updated …`), and writes nothing."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from conftest import Run
from contract_support import STEPS, command_of, gateway, install  # noqa: F401 (fixtures)

from vora_cli.cli.app import root_command

# A line that reports a change as done: its first word a report verb in the past tense.
DONE = re.compile(r"^\s*(Updated|Removed|Set|Wrote|Deleted|Approved|Rejected|Added|Created|Linked|Installed|"
                   r"Restored|Uninstalled|Staged|Renamed|Rotated|Revoked|Selected|Applied|Fixed)\b", re.MULTILINE)


def _takes_dry_run(command: str) -> bool:
    ctx = click.Context(root_command())
    node: click.Command = ctx.command
    for word in command.split(" "):
        assert isinstance(node, click.Group)
        found = node.get_command(ctx, word)
        assert found is not None
        node = found
    return any("--dry-run" in getattr(p, "opts", ()) for p in node.params)


def _tree(root: Path) -> dict[str, tuple[int, bytes | str | None]]:
    """Every entry under `root`: its mode and its bytes (a link: its text). A lock file counts:
    a dry run takes no lock, so it leaves none behind. vora's own cache (the user's cache dir:
    schema verdicts) is not the install's and may grow."""
    seen: dict[str, tuple[int, bytes | str | None]] = {}
    for path in sorted(root.rglob("*")):
        if path.is_relative_to(root / "home" / ".cache"):
            continue
        st = path.lstat()
        body = (os.readlink(path) if path.is_symlink() else path.read_bytes() if path.is_file() else None)
        seen[str(path.relative_to(root))] = (st.st_mode, body)
    return seen


DRY_STEPS = [s for s in STEPS if _takes_dry_run(command_of(s))] + [
    ("doctor", "--fix"), ("security", "audit", "--fix"), ("devices", "demo-request"),
]


# What a step needs made first (as the walk's earlier steps made it)
PREPARE = {
    "plugins install": [("plugins", "init", "newplug", "--id", "newplug")],
    "plugins update": [("plugins", "init", "newplug", "--id", "newplug"), ("plugins", "install", "-l", "newplug")],
    "plugins uninstall": [("plugins", "init", "newplug", "--id", "newplug"), ("plugins", "install", "-l", "newplug")],
    "backup restore": [("backup", "create", "--output", "backups/vora.tar.gz")],
}


@pytest.mark.parametrize("step", DRY_STEPS, ids=" ".join)
def test_a_dry_run_says_would_and_writes_nothing(vora: Callable[..., Run], install: Path,  # noqa: F811
                                                  step: tuple[str, ...]) -> None:
    for before_step in PREPARE.get(command_of(step), []):
        assert vora("--state-dir", "vora", *before_step).exit_code == 0, before_step
    if "{req}" in step:  # a pending request to approve or reject
        assert vora("--state-dir", "vora", "devices", "demo-request").exit_code == 0
        listed = json.loads(vora("--state-dir", "vora", "devices", "list", "--json").stdout)
        step = tuple(listed["pending"][0]["requestId"] if a == "{req}" else a for a in step)
    before = _tree(install)
    run = vora("--state-dir", "vora", *step, "--dry-run")
    assert run.exit_code in (0, 1), (run.stdout, run.stderr)
    said = run.stdout + run.stderr
    assert DONE.findall(said) == [], said
    assert re.search(r"\b([Ww]ould|[Dd]ry run|nothing (was )?written|skipped|[Nn]o change)", said), said
    assert _tree(install) == before


def test_config_set_dry_run_never_says_updated(vora: Callable[..., Run], install: Path) -> None:  # noqa: F811
    run = vora("--state-dir", "vora", "config", "set", "agents.defaults.bootstrapMaxChars", "26000", "--dry-run")
    assert "Would update agents.defaults.bootstrapMaxChars: 20000 -> 26000" in run.stdout
    assert "Updated" not in run.stdout + run.stderr
