"""Contracts that hold for every command, checked by walking the whole command tree:
a success JSON document never has an `error` key (a failure always has one), and `--quiet`
silences the notes (`Wrote …`) but never an error."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import click
import pytest
from conftest import EXAMPLES, Run
from gateway_server import running_gateway

from vora_cli.cli.app import root_command


def leaf_commands() -> set[str]:
    found: set[str] = set()

    def walk(cmd: click.Command, path: list[str]) -> None:
        if isinstance(cmd, click.Group):
            ctx = click.Context(cmd)
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                if sub is not None:
                    walk(sub, [*path, name])
        else:
            found.add(" ".join(path))

    walk(root_command(), [])
    return found


@pytest.fixture
def gateway(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A real test gateway on 127.0.0.1 for `vora gateway …` and `vora logs` (the example's auth is none)."""
    with running_gateway() as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        yield


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gateway: None) -> Path:
    """The example install (state dir `vora`, its linked plugin in `plugins/`), cwd beside it."""
    shutil.copytree(EXAMPLES / "vora", tmp_path / "vora")
    shutil.copytree(EXAMPLES / "plugins", tmp_path / "plugins")
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\nexit 0\n")
    editor.chmod(0o755)
    monkeypatch.setenv("EDITOR", str(editor))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "patch.json5").write_text("{ agents: { defaults: { bootstrapMaxChars: 12345 } } }")
    return tmp_path


# Every command, in an order that works on the example install: each step's args (without the
# global --state-dir and --json); `{req}` is the request id the last demo-request staged.
STEPS: tuple[tuple[str, ...], ...] = (
    ("config", "file"), ("config", "get", "gateway.port"), ("config", "set", "gateway.port", "18790"),
    ("config", "unset", "gateway.port"), ("config", "patch", "patch.json5"), ("config", "validate"),
    ("config", "schema"), ("config", "edit"),
    ("context", "list"), ("context", "detail"), ("context", "json"), ("context", "preview", "AGENTS.md"),
    ("plugins", "list"), ("plugins", "inspect", "my-engine"), ("plugins", "info", "my-engine"),
    ("plugins", "disable", "my-engine"), ("plugins", "enable", "my-engine"), ("plugins", "use", "my-engine"),
    ("plugins", "init", "newplug", "--id", "newplug"), ("plugins", "install", "-l", "newplug"),
    ("plugins", "update", "newplug"), ("plugins", "uninstall", "newplug", "--yes"),
    ("devices", "demo-request"), ("devices", "list"), ("devices", "approve", "{req}", "--yes"),
    ("devices", "rename", "96ce6dad", "laptop"), ("devices", "rotate", "--device", "96ce6dad", "--role", "operator"),
    ("devices", "revoke", "--device", "96ce6dad", "--role", "operator"),
    ("devices", "demo-request"), ("devices", "reject", "{req}"),
    ("devices", "remove", "96ce6dad", "--yes"), ("devices", "clear", "--pending", "--yes"),
    ("devices", "identity", "--create"),
    ("doctor",), ("security", "audit"), ("completion", "bash"),
    ("settings", "path"), ("settings", "set", "json_indent", "2"), ("settings", "get", "json_indent"),
    ("settings", "list"), ("settings", "unset", "json_indent"),
    ("gateway", "status"), ("gateway", "call", "health"), ("logs",),
    ("sessions", "list"), ("sessions", "show", "agent:main:main"),
    ("backup", "create", "--output", "backups/vora.tar.gz"), ("backup", "verify", "backups/vora.tar.gz"),
    ("backup", "list", "backups"), ("backup", "restore", "backups/vora.tar.gz", "--to", "restored"),
)


def command_of(step: tuple[str, ...]) -> str:
    """The command a step runs: the longest prefix of its words that names a command."""
    leaves = leaf_commands()
    return next(" ".join(step[:n]) for n in range(len(step), 0, -1) if " ".join(step[:n]) in leaves)


def run_steps(vora: Callable[..., Run], *flags: str) -> Iterator[tuple[tuple[str, ...], Run]]:
    req = ""
    for step in STEPS:
        args = tuple(req if a == "{req}" else a for a in step)
        run = vora("--state-dir", "vora", *flags, *args)
        if step == ("devices", "demo-request"):
            req = json.loads(run.stdout)["requestId"] if "--json" in flags else \
                json.loads(vora("--state-dir", "vora", "devices", "list", "--json").stdout)["pending"][0]["requestId"]
        yield step, run


def test_the_walk_covers_every_command() -> None:
    assert {command_of(s) for s in STEPS} == leaf_commands()


def test_success_documents_never_carry_an_error_key(vora: Callable[..., Run], install: Path) -> None:
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


@pytest.mark.parametrize("flag", ["--quiet", "-q", "root -q"])
def test_quiet_silences_notes_never_errors(vora: Callable[..., Run], install: Path, flag: str) -> None:
    loud = _walk_plain(vora, install / "loud")
    if flag == "root -q":
        quiet = _walk_plain(vora, install / "quiet", "-q")
    else:
        def with_flag(*args: str, **kw: object) -> Run:
            return vora(*args, flag, **kw)  # type: ignore[arg-type]

        quiet = _walk_plain(with_flag, install / "quiet")
    noted = set()
    for step, run in loud.items():
        q = quiet[step]
        assert q.exit_code == run.exit_code, step
        kept = [ln for ln in run.stderr.splitlines() if ln.startswith(QUIET_KEEPS)]
        if len(kept) < len(run.stderr.splitlines()):
            noted.add(command_of(step))
        # what stays: errors, their hints and warnings, exactly as without --quiet
        assert q.stderr.splitlines() == [ln.replace("/loud/", "/quiet/") for ln in kept], step
    # the commands that tell the operator what they wrote or what to do next
    assert {"config set", "config unset", "config patch", "plugins install", "plugins init",
            "plugins enable", "devices approve", "devices demo-request"} <= noted
