"""One JSON convention, held over every command (issue 23; docs/exit-codes-and-json.md, "One
convention"): each leaf of the app prints its success document on the example install and is
checked against the rules (times, write results, file paths, a plugin's kind); each prints the
error document for a usage error, wherever `--json` stands; `vora --version --json` is JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from conftest import Run
from contract_support import command_of, gateway, install, leaf_commands, run_steps  # noqa: F401 (fixtures)
from json_convention import violations

from vora_cli import __version__
from vora_cli.cli.app import root_command


@pytest.mark.slow
def test_every_success_document_keeps_the_convention(vora: Callable[..., Run], install: Path) -> None:  # noqa: F811
    """...and has the fields `vora_cli/cli/json_fields.py` records (what `--query` completes, the
    reference lists): `RECORD_JSON_FIELDS=1` writes them from this walk instead."""
    import os

    from json_fields_support import MODULE, merge, render

    from vora_cli.cli.json_fields import FIELDS

    checked: set[str] = set()
    broken: list[str] = []
    fields: dict[str, list[str]] = {}
    for step, run in run_steps(vora, "--json"):
        doc = json.loads(run.stdout)
        if "error" in doc:
            continue  # the one refusal the walk expects (plugins update of a link): the envelope
        command = command_of(step)
        checked.add(command)
        broken += [f"{command}: {v}" for v in violations(doc, command)]
        merge(fields, command, doc)
    assert broken == []
    assert leaf_commands() - checked <= {"plugins update"}  # it refuses a linked plugin (see the contract walk)
    fields.setdefault("plugins update", [])  # refused on the example's linked plugin: no document to read
    if os.environ.get("RECORD_JSON_FIELDS"):
        MODULE.write_text(render(fields), encoding="utf-8")
        return
    recorded = {command: list(names) for command, names in FIELDS.items()}
    assert recorded == fields, "the documents' fields changed: RECORD_JSON_FIELDS=1 records them"


def test_the_checker_catches_each_rule() -> None:
    """The rules themselves, on a document that breaks each once (so a green walk means something)."""
    doc = {"updatedAt": 1764460560000, "createdAt": "2026-01-01T00:00:00Z", "ageMs": "5m", "ts": 1,
           "path": "gateway.port", "storePath": "rel/x.json", "kind": "memory", "when": "2026-01-01T00:00:00.000Z",
           "before": None, "manifest": {"kind": "memory", "timestamp": 3}}
    found = violations(doc, "plugins init")
    assert [v.split(":")[0] for v in found] == [
        "updatedAt", "updatedAt", "createdAt", "ageMs", "ts", "path", "storePath", "kind", "when", "before"]
    assert violations({"kind": ["memory"], "createdAtMs": 1764460560000, "createdAt": "2025-11-29T23:56:00.000Z",
                       "file": "/x", "path": "/x"}, "plugins list") == []


def _leaves() -> list[list[str]]:
    return sorted(c.split(" ") for c in leaf_commands())


def _groups() -> list[str]:
    ctx = click.Context(root_command())
    root = ctx.command
    assert isinstance(root, click.Group)
    return [n for n in root.list_commands(ctx) if isinstance(root.get_command(ctx, n), click.Group)]


@pytest.mark.parametrize("where", ["after", "before"])
def test_every_command_prints_the_error_document_for_a_usage_error(vora: Callable[..., Run], where: str,
                                                                   tmp_path: Path) -> None:
    for words in _leaves():
        args = [*words, "--no-such-option", "--json"] if where == "after" else ["--json", *words, "--no-such-option"]
        run = vora("--state-dir", str(tmp_path), *args)
        assert run.exit_code == 2, words
        doc = json.loads(run.stdout)
        assert set(doc) == {"error"} and doc["error"]["code"] == "usage", words
        assert doc["error"]["message"].startswith("No such option: --no-such-option"), (words, doc)
        assert run.stderr == "", words


def test_a_usage_error_of_a_group_honours_json_anywhere(vora: Callable[..., Run]) -> None:
    groups = _groups()
    assert {"config", "plugins", "devices", "backup", "settings", "security"} <= set(groups)
    for group in groups:
        for args in ([group, "nope", "--json"], [group, "--json"], ["--json", group, "nope"]):
            run = vora(*args)
            assert run.exit_code == 2 and run.stderr == "", args
            assert json.loads(run.stdout)["error"]["code"] == "usage", args
    run = vora("nope", "--json")
    assert (run.exit_code, json.loads(run.stdout)["error"]["code"]) == (2, "usage")
    # after `--` the word is a value, and the error is text
    run = vora("config", "nope", "--", "--json")
    assert run.exit_code == 2 and run.stdout == "" and run.stderr.startswith("error: No such command 'nope'")


@pytest.mark.parametrize("args", [["--version", "--json"], ["--json", "--version"], ["-V", "--json"]])
def test_version_as_json(vora: Callable[..., Run], args: list[str]) -> None:
    run = vora(*args)
    assert (run.exit_code, json.loads(run.stdout)) == (0, {"name": "vora", "version": __version__})


def test_version_as_json_from_a_real_process(vora_process: Callable[..., object]) -> None:
    proc = vora_process("--version", "--json")
    assert json.loads(proc.stdout) == {"name": "vora", "version": __version__}  # type: ignore[attr-defined]
