"""Secrets stay out of shell history: `config set PATH --stdin`, and `config patch` reading
pipes, `/dev/stdin`, FIFOs and process substitution `<(…)` (with the size limit).

An empty stdin writes nothing (issue 22, class 4): `false | vora config set gateway.auth.token
--stdin` once replaced the real token with "" and exited 0; doctor then said "no auth". Empty or
blank stdin is a usage error (exit 2, nothing written) for every command that reads a value from
stdin, unless `--allow-empty` says it is meant; a secret that becomes empty is said to be empty
(`<empty>`), never shown.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO, Run

CONFIG = "// mine\n{\n  gateway: { port: 18789 },\n}\n"
SECRET = "s3cr3t-T0KEN-value-42"


@pytest.fixture
def cfg(state_dir: Path) -> Path:
    path = state_dir / "vora.json"
    path.write_text(CONFIG, encoding="utf-8")
    return path


@pytest.mark.parametrize(("stdin", "path", "expected"), [
    (SECRET + "\n", "gateway.auth.token", SECRET),          # echo's newline is dropped
    (SECRET, "gateway.auth.token", SECRET),                  # printf %s: as is
    (SECRET + "\r\n", "gateway.auth.token", SECRET),        # a CRLF line too
    ("18790\n", "gateway.port", 18790),                      # parsed like VALUE: JSON5
    ('["a", "b"]\n', "plugins.allow", ["a", "b"]),
    ("two\nlines\n\n", "agents.defaults.workspace", "two\nlines\n"),  # only one newline dropped
])
def test_set_from_stdin(vora: Callable[..., Run], cfg: Path, stdin: str, path: str, expected: object) -> None:
    run = vora("config", "set", path, "--stdin", "--json", input=stdin)
    assert run.exit_code == 0, run.stdout
    assert SECRET not in run.stdout and SECRET not in run.stderr
    got = vora("config", "get", path, "--reveal", "--json").json()["value"]
    assert got == expected


def test_set_from_stdin_type_string_keeps_digits(vora: Callable[..., Run], cfg: Path) -> None:
    run = vora("config", "set", "gateway.auth.token", "--stdin", "--type", "string", input="0123456789\n")
    assert run.exit_code == 0 and "0123456789" not in run.stdout + run.stderr
    assert vora("config", "get", "gateway.auth.token", "--reveal", "--json").json()["value"] == "0123456789"


@pytest.mark.parametrize(("args", "stdin", "message"), [
    (("gateway.port", "5", "--stdin"), "6", "VALUE and --stdin both give the value"),
    (("gateway.port",), None, "missing VALUE"),
])
def test_set_stdin_usage_errors_write_nothing(vora: Callable[..., Run], cfg: Path, args: tuple[str, ...],
                                              stdin: str | None, message: str) -> None:
    run = vora("config", "set", *args, input=stdin)
    assert run.exit_code == 2 and message in run.stderr
    assert cfg.read_text(encoding="utf-8") == CONFIG


def test_set_stdin_refuses_bytes_that_are_not_utf8(cfg: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "vora_cli", "config", "set", "gateway.auth.token", "--stdin"],
                          input=b"\xff\xfe", capture_output=True, env=os.environ.copy(), timeout=60)
    assert proc.returncode == 2 and b"not UTF-8" in proc.stderr
    assert cfg.read_text(encoding="utf-8") == CONFIG


def test_patch_from_a_fifo(vora: Callable[..., Run], cfg: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "patch.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as f:
            f.write("{ gateway: { mode: 'local' } }")

    writer = threading.Thread(target=feed)
    writer.start()
    run = vora("config", "patch", str(fifo), "--json")
    writer.join(5)
    assert run.exit_code == 0, run.stdout
    assert run.json()["changes"][0]["key"] == "gateway.mode"


def test_patch_too_large_a_stream_writes_nothing(cfg: Path) -> None:
    # /dev/zero never ends: the limit stops it (a character device, read as a stream)
    for args, stdin in ((["/dev/zero"], None), (["-"], b"{" + b" " * (3 * 1024 * 1024) + b"}")):
        proc = subprocess.run([sys.executable, "-m", "vora_cli", "config", "patch", *args], input=stdin,
                              capture_output=True, env=os.environ.copy(), timeout=60)
        assert proc.returncode == 1 and b"more than 2,097,152 bytes of input" in proc.stderr
    assert cfg.read_text(encoding="utf-8") == CONFIG


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for <(...)")
@pytest.mark.parametrize("command", [
    "vora config patch <(echo '{gateway: {port: 18790}}')",
    "echo '{gateway: {port: 18790}}' | vora config patch /dev/stdin",
    "echo '{gateway: {port: 18790}}' | vora config patch -",
    "echo 18790 | vora config set gateway.port --stdin",
])
def test_shell_streams(cfg: Path, tmp_path: Path, command: str) -> None:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "vora").write_text(f"#!/bin/sh\nexec {sys.executable} -m vora_cli \"$@\"\n")
    (bindir / "vora").chmod(0o755)
    env = {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}"}
    proc = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "port: 18790" in cfg.read_text(encoding="utf-8")
    assert "// mine" in cfg.read_text(encoding="utf-8")


def test_patch_names_a_directory(vora: Callable[..., Run], cfg: Path, tmp_path: Path) -> None:
    run = vora("config", "patch", str(tmp_path), "--json")
    assert run.exit_code == 1 and "is a directory" in json.loads(run.stdout)["error"]["message"]
    assert cfg.read_text(encoding="utf-8") == CONFIG


# -- an empty stdin writes nothing (issue 22, class 4) ----------------------------------------

TOKEN_CONFIG = '// mine\n{\n  gateway: { port: 18789, auth: { token: "s3cr3t-T0KEN-value-42" } },\n}\n'


@pytest.fixture
def token_cfg(state_dir: Path) -> Path:
    """vora.json with a token in it, the secret an empty stdin must never wipe."""
    path = state_dir / "vora.json"
    path.write_text(TOKEN_CONFIG, encoding="utf-8")
    return path


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("stdin", ["", "\n", "\r\n", "   \n", "\t"])
@pytest.mark.parametrize("path", ["gateway.auth.token", "gateway.auth.password", "gateway.port", "agents.defaults.workspace"])
def test_empty_stdin_is_a_usage_error_and_writes_nothing(vora: Callable[..., Run], token_cfg: Path, stdin: str,
                                                         path: str) -> None:
    before = files(token_cfg.parent)
    run = vora("config", "set", path, "--stdin", "--json", input=stdin)
    assert run.exit_code == 2
    error = run.json()["error"]
    assert error["code"] == "usage" and "nothing was written" in error["message"] and "--allow-empty" in error["hint"]
    assert files(token_cfg.parent) == before  # no write, no backup, no audit line


def test_a_failed_command_before_the_pipe_leaves_the_token(token_cfg: Path, state_dir: Path) -> None:
    """The shell pipeline of the report, with a real process: `false | vora config set … --stdin`."""
    command = f'false | "{sys.executable}" -m vora_cli config set gateway.auth.token --stdin'
    ran = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=60, cwd=REPO,
                         env={**__import__("os").environ, "PYTHONPATH": str(REPO)})
    assert ran.returncode == 2 and "stdin is empty" in ran.stderr
    assert token_cfg.read_text(encoding="utf-8") == TOKEN_CONFIG


def test_allow_empty_sets_it_and_says_so_without_the_secret(vora: Callable[..., Run], token_cfg: Path) -> None:
    run = vora("config", "set", "gateway.auth.token", "--stdin", "--allow-empty", input="")
    assert run.exit_code == 0
    assert run.stdout == "Updated gateway.auth.token: <redacted> -> <empty>\n"
    assert "warning: gateway.auth.token is now an empty string" in run.stderr
    assert "s3cr3t" not in run.stdout + run.stderr
    assert 'token: ""' in token_cfg.read_text(encoding="utf-8")
    assert vora("config", "get", "gateway.auth.token").stdout == "<empty>\n"
    assert vora("config", "get", "gateway.auth.token", "--json").json()["value"] == "<empty>"


@pytest.mark.parametrize("how", ["value", "stdin", "patch"])
def test_every_way_to_empty_a_secret_says_so(vora: Callable[..., Run], token_cfg: Path, how: str) -> None:
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


def test_a_dry_run_says_it_would_be_empty(vora: Callable[..., Run], token_cfg: Path) -> None:
    run = vora("config", "set", "gateway.auth.token", '""', "--dry-run", "--json")
    assert "gateway.auth.token would become an empty string: the gateway counts an empty secret as none set" \
        in run.json()["warnings"]
    assert token_cfg.read_text(encoding="utf-8") == TOKEN_CONFIG


@pytest.mark.parametrize("stdin", ["", "\n", "  \n"])
def test_an_empty_patch_on_stdin_is_a_usage_error(vora: Callable[..., Run], token_cfg: Path, stdin: str) -> None:
    run = vora("config", "patch", "-", "--json", input=stdin)
    assert run.exit_code == 2 and run.json()["error"]["code"] == "usage"
    assert "{}" in run.json()["error"]["hint"]
    assert token_cfg.read_text(encoding="utf-8") == TOKEN_CONFIG


def test_an_empty_patch_file_is_refused_too(vora: Callable[..., Run], token_cfg: Path, tmp_path: Path) -> None:
    empty = tmp_path / "patch.json5"
    empty.write_text("")
    run = vora("config", "patch", str(empty), "--json")
    assert run.exit_code == 2 and str(empty) in run.json()["error"]["message"]
    assert token_cfg.read_text(encoding="utf-8") == TOKEN_CONFIG


def test_allow_empty_needs_stdin(vora: Callable[..., Run], token_cfg: Path) -> None:
    run = vora("config", "set", "gateway.auth.token", "x", "--allow-empty", "--json")
    assert run.exit_code == 2 and run.json()["error"]["message"] == "--allow-empty goes with --stdin"
    assert token_cfg.read_text(encoding="utf-8") == TOKEN_CONFIG
