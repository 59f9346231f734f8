"""Contracts that hold for every command, checked by walking the whole command tree:
a success JSON document never has an `error` key (a failure always has one), and `--quiet`
silences the notes (`Wrote …`) but never an error."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES, Run
from contract_support import STEPS, command_of, gateway, install, leaf_commands, run_steps  # noqa: F401 (fixtures)


def test_the_walk_covers_every_command() -> None:
    assert {command_of(s) for s in STEPS} == leaf_commands()


def test_success_documents_never_carry_an_error_key(vora: Callable[..., Run], install: Path) -> None:  # noqa: F811
    succeeded: set[str] = set()
    for step, run in run_steps(vora, "--json"):
        doc = json.loads(run.stdout)  # exactly one document, success or failure
        if run.exit_code == 0:
            assert "error" not in doc, (step, doc)
            succeeded.add(command_of(step))
        elif isinstance(doc, dict) and set(doc) == {"error"}:
            assert set(doc["error"]) == {"code", "message", "hint"}
        else:  # a check that found problems: its report, with its verdict in it, never `error`
            assert "error" not in doc and step[0] in ("doctor", "security", "config"), (step, doc)
    # `plugins update` of a linked plugin is refused (nothing to update); the example install's
    # audit finds critical problems (a 0644 config, no auth); everything else succeeds
    assert leaf_commands() - succeeded <= {"plugins update", "security audit"}


def _walk_plain(vora: Callable[..., Run], root: Path, *flags: str) -> dict[tuple[str, ...], Run]:
    """Run every step on a fresh copy of the example install in `root`, without --json."""
    shutil.copytree(EXAMPLES / "vora", root / "vora")
    shutil.copytree(EXAMPLES / "plugins", root / "plugins")
    (root / "patch.json5").write_text("{ agents: { defaults: { bootstrapMaxChars: 12345 } } }")
    os.chdir(root)
    runs: dict[tuple[str, ...], Run] = {}
    req = ""
    for step in STEPS:
        args = tuple(req if a == "{req}" else a for a in step)
        runs[step] = vora("--state-dir", "vora", *flags, *args)
        if step == ("devices", "demo-request"):
            listed = json.loads(vora("--state-dir", "vora", "devices", "list", "--json").stdout)
            req = listed["pending"][0]["requestId"]
    return runs


QUIET_KEEPS = ("error: ", "hint: ", "warning: ")
# The walk without --quiet, as every flag's test compares with it: each step's exit code and the
# stderr lines --quiet must keep (the walk's folder written as <ROOT>), and the commands that said
# more than those. It is the same walk whichever test makes it, so the first one that runs does.
_loud: dict[tuple[str, ...], tuple[int, list[str]]] = {}
_noted: set[str] = set()


def _loud_walk(vora: Callable[..., Run], root: Path) -> dict[tuple[str, ...], tuple[int, list[str]]]:
    if not _loud:
        runs = _walk_plain(vora, root)
        for step, run in runs.items():
            kept = [ln for ln in run.stderr.splitlines() if ln.startswith(QUIET_KEEPS)]
            if len(kept) < len(run.stderr.splitlines()):
                _noted.add(command_of(step))
            _loud[step] = (run.exit_code, [ln.replace(f"{root}/", "<ROOT>/") for ln in kept])
    return _loud


@pytest.mark.parametrize("flag", ["--quiet", "-q", "root -q"])
def test_quiet_silences_notes_never_errors(vora: Callable[..., Run], install: Path, flag: str) -> None:  # noqa: F811
    loud = _loud_walk(vora, install / "loud")
    if flag == "root -q":
        quiet = _walk_plain(vora, install / "quiet", "-q")
    else:
        def with_flag(*args: str, **kw: object) -> Run:
            return vora(*args, flag, **kw)  # type: ignore[arg-type]

        quiet = _walk_plain(with_flag, install / "quiet")
    for step, (code, kept) in loud.items():
        q = quiet[step]
        assert q.exit_code == code, step
        # what stays: errors, their hints and warnings, exactly as without --quiet
        assert [ln.replace(f"{install / 'quiet'}/", "<ROOT>/") for ln in q.stderr.splitlines()] == kept, step
    # the commands that tell the operator what they wrote or what to do next
    assert {"config set", "config unset", "config patch", "plugins install", "plugins init",
            "plugins enable", "devices approve", "devices demo-request"} <= _noted
