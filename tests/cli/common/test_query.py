"""`--query EXPR` (issue 38; docs/exit-codes-and-json.md, "Selecting fields"): JMESPath on every
command's `--json` document, implying `--json`; a bad expression is a usage error naming the
position, before the command does anything; an error document is never queried; the fast dispatch
and the Typer app answer it alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import jmespath
import pytest
from conftest import EXAMPLES, REPO, Run
from contract_support import command_of, gateway, install, run_steps  # noqa: F401 (fixtures)

from vora_cli.cli.json_fields import FIELDS

READ_ONLY = [["config", "file"], ["config", "get", "gateway.port"], ["config", "validate"], ["context", "list"],
             ["plugins", "list"], ["plugins", "inspect", "my-engine"], ["devices", "list"], ["doctor"],
             ["security", "audit"], ["sessions", "list"], ["sessions", "show", "agent:main:main"],
             ["settings", "list"]]


@pytest.mark.slow
def test_the_identity_query_prints_every_commands_document(vora: Callable[..., Run], install: Path) -> None:  # noqa: F811
    """`--query @` on every step of the walk: one JSON document each, as `--json` prints it."""
    for step, run in run_steps(vora, "--query", "@"):
        doc = json.loads(run.stdout)
        assert run.stderr == "" or "error" not in run.stderr, step
        if isinstance(doc, dict) and set(doc) == {"error"}:
            assert command_of(step) == "plugins update", (step, doc)  # the one refusal the walk expects


@pytest.mark.usefixtures("pinned_clock")
@pytest.mark.parametrize("args", READ_ONLY, ids=" ".join)
def test_each_recorded_field_selects_that_field(vora: Callable[..., Run], args: list[str]) -> None:
    state = ["--state-dir", str(EXAMPLES / "vora")]
    doc = vora(*state, *args, "--json").json()
    for field in FIELDS[command_of(tuple(args))]:
        run = vora(*state, *args, "--query", field)
        assert run.exit_code in (0, 1), (field, run.stderr)
        assert json.loads(run.stdout) == jmespath.search(field, doc), field


def test_a_filter_and_a_projection(vora: Callable[..., Run]) -> None:
    state = ["--state-dir", str(EXAMPLES / "vora")]
    warned = vora(*state, "doctor", "--query", "checks[?status=='warn'].id")
    assert json.loads(warned.stdout) == [c["id"] for c in vora(*state, "doctor", "--json").json()["checks"]
                                         if c["status"] == "warn"]
    assert warned.stderr == ""  # --query is --json: no notes, no pictures
    # before the command, as a global option, and a string comes out as a JSON string
    assert vora("--query", "key", *state, "config", "get", "gateway.port").stdout == '"gateway.port"\n'


@pytest.mark.parametrize(("expression", "said"), [
    ("checks[?status==", "it ends too early (position 17)"),
    ("a..b", "unexpected '.' at position 3"),
    ("a | | b", "unexpected '|' at position 5"),
    ("(" * 600 + "@" + ")" * 600, "nested too deeply for the parser"),
    ("[" * 600 + "@" + "]" * 600, "nested too deeply for the parser"),
    ("!" * 3000 + "@", "nested too deeply for the parser"),
    ("{a:" * 600 + "@" + "}" * 600, "nested too deeply for the parser"),
], ids=["open filter", "double dot", "double pipe", "parentheses", "brackets", "nots", "hashes"])
def test_a_bad_expression_is_a_usage_error_naming_where(vora: Callable[..., Run], tmp_path: Path, expression: str,
                                                        said: str) -> None:
    state = tmp_path / "state"
    (state).mkdir()
    (state / "vora.json").write_text("{ gateway: { port: 18789 } }\n")
    before = (state / "vora.json").read_bytes()
    for args in (["doctor"], ["config", "set", "gateway.port", "1234"]):
        run = vora("--state-dir", str(state), *args, "--query", expression)
        assert run.exit_code == 2, (args, run.stdout)
        error = run.json()["error"]
        assert error["code"] == "usage" and said in error["message"], error
        assert (state / "vora.json").read_bytes() == before  # refused before the command did anything
    hint = vora("--state-dir", str(state), "config", "file", "--query", "a..b").json()["error"]["hint"]
    assert hint.startswith("the fields of config file's document: path, source, exists")


def test_an_expression_the_document_cannot_take_is_a_usage_error_too(vora: Callable[..., Run]) -> None:
    run = vora("--state-dir", str(EXAMPLES / "vora"), "doctor", "--query", "length(ok)")
    assert run.exit_code == 2
    assert "does not apply to the document: In function length(), invalid type" in run.json()["error"]["message"]


@pytest.mark.parametrize("expression", ["a" + "|a" * 5000, "a" + " || a" * 3000])
def test_an_expression_too_deep_to_apply_is_a_usage_error(vora: Callable[..., Run], expression: str) -> None:
    run = vora("--state-dir", str(EXAMPLES / "vora"), "doctor", "--query", expression)
    assert run.exit_code == 2
    assert "is nested too deeply to apply" in run.json()["error"]["message"]
    assert len(run.stdout) < 1000  # the expression is cut short in the message


def test_an_error_document_is_never_queried(vora: Callable[..., Run]) -> None:
    run = vora("--state-dir", str(EXAMPLES / "vora"), "config", "get", "gateway.nope", "--query", "key")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("args", [["doctor", "--query", "checks[].id"], ["config", "get", "gateway", "--query", "value.port"],
                                  ["plugins", "list", "--query", "plugins[0].slots"], ["--query", "count", "sessions", "list"],
                                  ["doctor", "--query", "a..b"]])
def test_the_fast_dispatch_answers_a_query_as_the_app_does(args: list[str]) -> None:
    def run(fast: bool) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        if not fast:
            env["VORA_NO_FAST_DISPATCH"] = "1"
        return subprocess.run([sys.executable, "-m", "vora_cli", "--state-dir", str(EXAMPLES / "vora"), *args],
                              env=env, capture_output=True, text=True, timeout=60, check=False)

    fast, app = run(True), run(False)
    assert (fast.returncode, fast.stdout, fast.stderr) == (app.returncode, app.stdout, app.stderr)
    assert fast.stdout  # a document either way


def test_no_query_no_jmespath() -> None:
    """The library is imported by a run that has `--query`, never by another."""
    code = ("import sys, runpy; sys.argv = ['vora', '--state-dir', sys.argv[1], 'doctor', '--json']\n"
            "from vora_cli.__main__ import main\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('jmespath' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, str(EXAMPLES / "vora")], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60, check=False)
    assert done.stderr.strip().splitlines()[-1] == "False"
