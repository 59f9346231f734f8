"""An empty stdin writes nothing (issue 22, class 4).

`false | vora config set gateway.auth.token --stdin` once replaced the real token with "" and
exited 0; doctor then said "no auth". Empty or blank stdin is a usage error (exit 2, nothing
written) for every command that reads a value from stdin, unless `--allow-empty` says it is
meant; a secret that becomes empty is said to be empty (`<empty>`), never shown.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, Run

CONFIG = '// mine\n{\n  gateway: { port: 18789, auth: { token: "s3cr3t-T0KEN-value-42" } },\n}\n'


@pytest.fixture
def cfg(state_dir: Path) -> Path:
    path = state_dir / "vora.json"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("stdin", ["", "\n", "\r\n", "   \n", "\t"])
@pytest.mark.parametrize("path", ["gateway.auth.token", "gateway.auth.password", "gateway.port", "agents.defaults.workspace"])
def test_empty_stdin_is_a_usage_error_and_writes_nothing(vora: Callable[..., Run], cfg: Path, stdin: str,
                                                         path: str) -> None:
    before = files(cfg.parent)
    run = vora("config", "set", path, "--stdin", "--json", input=stdin)
    assert run.exit_code == 2
    error = run.json()["error"]
    assert error["code"] == "usage" and "nothing was written" in error["message"] and "--allow-empty" in error["hint"]
    assert files(cfg.parent) == before  # no write, no backup, no audit line


def test_a_failed_command_before_the_pipe_leaves_the_token(cfg: Path, state_dir: Path) -> None:
    """The shell pipeline of the report, with a real process: `false | vora config set … --stdin`."""
    command = f'false | "{sys.executable}" -m vora_cli config set gateway.auth.token --stdin'
    ran = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=60, cwd=REPO,
                         env={**__import__("os").environ, "PYTHONPATH": str(REPO)})
    assert ran.returncode == 2 and "stdin is empty" in ran.stderr
    assert cfg.read_text(encoding="utf-8") == CONFIG


def test_allow_empty_sets_it_and_says_so_without_the_secret(vora: Callable[..., Run], cfg: Path) -> None:
    run = vora("config", "set", "gateway.auth.token", "--stdin", "--allow-empty", input="")
    assert run.exit_code == 0
    assert run.stdout == "Updated gateway.auth.token: <redacted> -> <empty>\n"
    assert "warning: gateway.auth.token is now an empty string" in run.stderr
    assert "s3cr3t" not in run.stdout + run.stderr
    assert 'token: ""' in cfg.read_text(encoding="utf-8")
    assert vora("config", "get", "gateway.auth.token").stdout == "<empty>\n"
    assert vora("config", "get", "gateway.auth.token", "--json").json()["value"] == "<empty>"


@pytest.mark.parametrize("how", ["value", "stdin", "patch"])
def test_every_way_to_empty_a_secret_says_so(vora: Callable[..., Run], cfg: Path, how: str) -> None:
    args = {"value": ("config", "set", "gateway.auth.token", '""', "--json"),
            "stdin": ("config", "set", "gateway.auth.token", "--stdin", "--allow-empty", "--json"),
            "patch": ("config", "patch", "-", "--json")}[how]
    run = vora(*args, input='{gateway: {auth: {token: ""}}}' if how == "patch" else "")
    assert run.exit_code == 0, run.stdout
    doc = run.json()
    assert [(c["key"], c["old"], c["new"]) for c in doc["changes"]] == [("gateway.auth.token", "<redacted>", "<empty>")]
    assert any("gateway.auth.token is now an empty string" in w for w in doc["warnings"])
    assert "s3cr3t" not in run.stdout
    # emptying it again is no change, and no warning
    again = vora(*args, input='{gateway: {auth: {token: ""}}}' if how == "patch" else "")
    assert again.json()["changes"] == [] and again.json()["warnings"] == []


def test_a_dry_run_says_it_would_be_empty(vora: Callable[..., Run], cfg: Path) -> None:
    run = vora("config", "set", "gateway.auth.token", '""', "--dry-run", "--json")
    assert "gateway.auth.token would become an empty string: the gateway counts an empty secret as none set" \
        in run.json()["warnings"]
    assert cfg.read_text(encoding="utf-8") == CONFIG


@pytest.mark.parametrize("stdin", ["", "\n", "  \n"])
def test_an_empty_patch_on_stdin_is_a_usage_error(vora: Callable[..., Run], cfg: Path, stdin: str) -> None:
    run = vora("config", "patch", "-", "--json", input=stdin)
    assert run.exit_code == 2 and run.json()["error"]["code"] == "usage"
    assert "{}" in run.json()["error"]["hint"]
    assert cfg.read_text(encoding="utf-8") == CONFIG


def test_an_empty_patch_file_is_refused_too(vora: Callable[..., Run], cfg: Path, tmp_path: Path) -> None:
    empty = tmp_path / "patch.json5"
    empty.write_text("")
    run = vora("config", "patch", str(empty), "--json")
    assert run.exit_code == 2 and str(empty) in run.json()["error"]["message"]
    assert cfg.read_text(encoding="utf-8") == CONFIG


def test_allow_empty_needs_stdin(vora: Callable[..., Run], cfg: Path) -> None:
    run = vora("config", "set", "gateway.auth.token", "x", "--allow-empty", "--json")
    assert run.exit_code == 2 and run.json()["error"]["message"] == "--allow-empty goes with --stdin"
    assert cfg.read_text(encoding="utf-8") == CONFIG
