"""One JSON convention, held over every command (issue 23; docs/exit-codes-and-json.md, "One
convention"): each leaf of the app prints its success document on the example install and is
checked against the rules (times, write results, file paths, a plugin's kind); each prints the
error document for a usage error, wherever `--json` stands; `vora --version --json` is JSON.

A `--json` error's hint quotes the real command, with the global options the operator typed,
as the human hint does (spec gateway.md: pairing required names the exact `vora devices approve`
command; sessions.md: `session_not_found` hints at `vora sessions list`).

`stream_json` encodes its items `STREAM_BATCH` at a time (issue 24: 100,000 rows of
`sessions list --json`): the bytes are the one document `to_json` writes, for any count of
items around the batch size, values that take the encoder's slow path (non-finite numbers,
odd objects), characters escaped for a terminal, and a stream that cannot take Unicode.
"""

from __future__ import annotations

import io
import json
import math
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import pytest
from conftest import Run
from contract_support import command_of, gateway, install, leaf_commands, run_steps  # noqa: F401 (fixtures)
from gateway_server import refused_port, running_gateway
from json_convention import violations
from sessions_support import NOW, write_store

from vora_cli import __version__
from vora_cli.cli import streaming as output
from vora_cli.cli.app import root_command
from vora_cli.cli.json_text import to_json


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


def _both(vora: Any, state: Path, *args: str) -> tuple[str, str]:
    """(human hint, JSON hint) of one failing command, run with `--state-dir`."""
    human = vora("--state-dir", str(state), *args)
    doc = vora("--state-dir", str(state), *args, "--json")
    assert human.exit_code == 1 and doc.exit_code == 1, (human.stderr, doc.stdout)
    hint_line = next(line for line in human.stderr.splitlines() if line.startswith("hint: "))
    return hint_line.removeprefix("hint: "), json.loads(doc.stdout)["error"]["hint"]


def test_pairing_required_json_hint_is_the_exact_approve_command(tmp_path: Path, vora: Any) -> None:
    state = tmp_path / "other state"  # a space: the option is shell-quoted
    state.mkdir()
    with running_gateway(auto_pair=False) as gw:
        human, hint = _both(vora, state, "gateway", "status", "--url", gw.url)
    prefix = f"vora --state-dir {shlex.quote(str(state))} devices approve "
    for text in (hint, human):
        assert text.startswith(f"on the gateway host run: {prefix}") and "vora devices approve" not in text
        assert f"(or: {prefix}--latest)" in text


def test_session_not_found_json_hint_names_the_state_dir(tmp_path: Path, vora: Any) -> None:
    state = tmp_path / "state"
    write_store(state, {"agent:main:main": {"sessionId": "s1", "updatedAt": NOW}})
    human, hint = _both(vora, state, "sessions", "show", "nope")
    assert f"vora --state-dir {state} sessions list --agent main" in hint
    assert hint == human


def test_refused_gateway_json_hint_names_the_state_dir(tmp_path: Path, vora: Any) -> None:
    state = tmp_path / "state"
    state.mkdir()
    human, hint = _both(vora, state, "gateway", "status", "--url", f"ws://127.0.0.1:{refused_port()}")
    assert f"vora --state-dir {state} logs --file" in hint
    assert hint == human


def _item(n: int) -> dict[str, Any]:
    odd: list[Any] = [
        "plain", "é\u2028\x85\x1b[31m", "\ud800 lone", "\U0001f600", math.inf, -math.inf, math.nan, 2**70, 0.1,
        None, True, {"nested": [1, {"x": "\u202e"}]}, (1, 2), object.__name__,
    ]
    return {"n": n, "value": odd[n % len(odd)], "key": f"agent:main:s{n}"}


def _streamed(head: Any, items: list[Any], encoding: str) -> str:
    buffer = io.BytesIO()
    stream = io.TextIOWrapper(buffer, encoding=encoding, errors="strict", newline="")
    saved = sys.stdout
    sys.stdout = stream
    try:
        output.stream_json(head, iter(items))
        stream.flush()
    finally:
        sys.stdout = saved
    return buffer.getvalue().decode(encoding)


@pytest.mark.parametrize("count", [0, 1, 2, output.STREAM_BATCH - 1, output.STREAM_BATCH, output.STREAM_BATCH + 1,
                                   3 * output.STREAM_BATCH, 3 * output.STREAM_BATCH + 7])
@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_batches_write_the_one_document(count: int, encoding: str) -> None:
    items = [_item(n) for n in range(count)]
    ascii_only = encoding != "utf-8"
    expected = to_json({"count": count, "sessions": items}, indent=None, ascii_only=ascii_only) + "\n"
    assert _streamed({"count": count, "sessions": []}, items, encoding) == expected
    # a head made after the items (it holds their totals): the items wait in a spool
    assert _streamed(lambda: {"count": count, "sessions": []}, items, encoding) == expected


def test_a_batch_with_a_non_finite_number_falls_back_for_that_batch_alone() -> None:
    items = [{"n": n, "x": math.nan if n == output.STREAM_BATCH + 3 else n} for n in range(2 * output.STREAM_BATCH)]
    text = _streamed({"rows": []}, items, "utf-8")
    assert text == to_json({"rows": items}, indent=None) + "\n"
    assert '"x": "NaN"' in text
