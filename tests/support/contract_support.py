"""The contract walk (tests/cli/common/test_contract.py and the tests that run every command): the
command tree's leaves, every command in an order that works on the example install, and the
example install with a real test gateway beside it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click
import pytest
from conftest import EXAMPLES
from gateway_server import running_gateway

from vora_cli.cli.app import root_command

if TYPE_CHECKING:
    from conftest import Run


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
