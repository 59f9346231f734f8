"""Any string the OS or a file hands over is read, shown escaped and written back (issue 12, point 9).

Lone surrogates in JSON5 (`"\\ud800"`), non-UTF-8 bytes in argv, file names and paths: never an
`internal` error; written text keeps such characters as `\\uXXXX` escapes. Invalid UTF-8 on stdin
is reported as such (point 20).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REPO

SURROGATES = {
    "lone high": '{\n  a: "x\\ud800y",\n}\n',
    "lone low": "{\n  a: 'x\\udfffy',\n}\n",
    "escaped byte": '{\n  a: "x\\udcffy",\n}\n',
    "in a key": '{\n  "k\\ud83d": "x\\ud800y",\n  a: "x\\ud800y",\n}\n',
}


@pytest.mark.parametrize("name", sorted(SURROGATES))
def test_a_lone_surrogate_is_read_shown_escaped_and_kept(vora, state_dir: Path, name: str) -> None:
    config = state_dir / "vora.json"
    text = SURROGATES[name]
    config.write_text(text)
    escape = text.split('"x')[1][:6] if '"x' in text else text.split("'x")[1][:6]
    got = vora("config", "get", "a")
    assert got.exit_code == 0 and got.stdout == f"x{escape}y\n"
    whole = vora("config", "get", "--json")
    assert whole.exit_code == 0 and escape.lower() in whole.stdout.lower()
    assert json.loads(whole.stdout)["value"]["a"] == json.loads(f'"x{escape}y"')
    # `a` is no key of the gateway's, so validate refuses it; it reads the escape all the same
    validated = vora("config", "validate")
    assert validated.exit_code == 1 and 'Unrecognized key' in validated.stdout
    # An edit elsewhere leaves the text as it was; an edit of the value writes an escape again.
    assert vora("config", "set", "--force", "gateway.port", "18800").exit_code == 0
    assert escape in config.read_text()
    copied = vora("config", "set", "--force", "b", f"z{json.loads(chr(34) + escape + chr(34))}z")
    assert copied.exit_code == 0, copied.stderr
    assert f"z{escape.lower()}z" in config.read_text().lower()
    assert config.read_bytes().decode("utf-8")  # still UTF-8
    assert vora("config", "unset", "--force", "a").exit_code == 0
    assert vora("config", "get", "b").stdout == f"z{escape}z\n"


def test_a_key_path_with_a_surrogate_can_be_set_and_unset(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text("{}\n")
    for key in ("k\udcff", "\ud800", "custom.X\udfff"):
        assert vora("config", "set", "--force", key, "1").exit_code == 0
        assert vora("config", "get", key).stdout == "1\n"
        assert vora("config", "unset", "--force", key).exit_code == 0
    assert json.loads(config.read_text()) == {"custom": {}}


def _run_bytes(args: list[bytes], state: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "VORA_STATE_DIR": str(state), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable.encode(), b"-m", b"vora_cli", *args], env=env, input=stdin,
                          capture_output=True, timeout=60, check=False)


def test_non_utf8_bytes_in_argv_are_written_as_escapes(state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text("{}\n")
    result = _run_bytes([b"config", b"set", b"--force", b"note", b"caf\xe9"], state_dir)
    assert result.returncode == 0, result.stderr
    assert b"Set note: caf\\udce9" in result.stdout
    assert json.loads(config.read_text()) == {"note": "caf\udce9"}
    assert '"caf\\udce9"' in config.read_text()
    result = _run_bytes([b"config", b"set", b"--force", b"plugins.entries.p\xff.enabled", b"true"], state_dir)
    assert result.returncode == 0, result.stderr
    got = _run_bytes([b"config", b"get", b"plugins.entries.p\xff.enabled"], state_dir)
    assert got.stdout == b"true\n"


@pytest.mark.parametrize("data", [b"{a: 1, b: '\xff'}", b"\xfe\xff{}", b"{a:\n 'caf\xe9'}"])
def test_invalid_utf8_on_stdin_is_reported_as_such(state_dir: Path, data: bytes) -> None:
    from vora_cli.cli.app import app

    config = state_dir / "vora.json"
    config.write_text("{}\n")
    result = CliRunner(mix_stderr=False).invoke(app, ["config", "patch", "-"], input=data)
    assert result.exit_code == 1
    assert "<stdin>" in result.stderr and "not valid UTF-8" in result.stderr
    assert config.read_text() == "{}\n"


# every config member that names a path a command opens, with a value no file can have
NO_FILE_CAN_HAVE = {
    "agents.defaults.workspace": lambda bad: {"agents": {"defaults": {"workspace": f"/w{bad}x"}}},
    "agents.list[0].workspace": lambda bad: {"agents": {"list": [{"id": "main", "workspace": f"w{bad}x"}]}},
    "plugins.load.paths[1]": lambda bad: {"plugins": {"load": {"paths": ["ok", f"x{bad}y"]}}},
    "skills.load.extraDirs[0]": lambda bad: {"skills": {"load": {"extraDirs": [f"~/x{bad}y"]}}},
    "session.store": lambda bad: {"session": {"store": f"s{bad}x/{{agentId}}.json"}},
    "logging.file": lambda bad: {"logging": {"file": f"/tmp/l{bad}og"}},
}
READERS = (("doctor",), ("config", "validate"), ("security", "audit"), ("context", "list"), ("plugins", "list"),
           ("sessions", "list"), ("backup", "create", "--dry-run"))


@pytest.mark.parametrize("bad", ["\x00", "\ud800"], ids=["NUL", "lone surrogate"])
@pytest.mark.parametrize("key", list(NO_FILE_CAN_HAVE))
def test_a_config_path_no_file_can_have_is_named_never_a_bug(vora, state_dir: Path, key: str, bad: str) -> None:
    config = state_dir / "vora.json"
    config.write_text(json.dumps(NO_FILE_CAN_HAVE[key](bad)))
    before = config.read_bytes()
    said = []
    for args in READERS:
        result = vora(*args)
        assert result.exit_code in (0, 1), (args, result.stderr)
        assert "unexpected error" not in result.stderr + result.stdout, args
        if result.stderr.startswith("error:"):  # a command that needs the path stops, naming the member
            assert result.stderr.startswith(f"error: {key}: ") and "cannot name a file" in result.stderr, args
            assert f"vora config set {key} PATH" in result.stderr, args
        said.append(result.stdout + result.stderr)
    assert any(f"{key}: " in text and "cannot name a file" in text for text in said)  # doctor or the audit says which
    assert config.read_bytes() == before


@pytest.mark.parametrize("workspace", ["/nowhere/\ud800", "/tmp/\udcff-missing", "rel\udfffative"])
def test_context_list_with_an_unencodable_workspace_path(vora, state_dir: Path, workspace: str) -> None:
    (state_dir / "vora.json").write_text(json.dumps({"agents": {"defaults": {"workspace": workspace}}}))
    for args in (("context", "list"), ("context", "list", "--json")):
        result = vora(*args)
        assert result.exit_code in (0, 1)
        assert "unexpected error" not in result.stderr and "Traceback" not in result.stderr


def test_context_list_with_non_utf8_file_names_and_contents(vora, state_dir: Path, tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "AGENTS.md").write_bytes(b"hello \xff\xfe world\n")
    os.close(os.open(os.fsencode(workspace) + b"/odd-\xff.md", os.O_CREAT | os.O_WRONLY, 0o600))
    skills = os.fsencode(workspace) + b"/skills/sk\xff"
    os.makedirs(skills)
    with open(skills + b"/SKILL.md", "wb") as handle:
        handle.write(b"---\nname: sk\xff\ndescription: d\xe9\n---\nbody\n")
    (state_dir / "vora.json").write_text(json.dumps({"agents": {"defaults": {"workspace": str(workspace)}}}))
    result = vora("context", "list")
    assert result.exit_code == 0, result.stderr
    assert "AGENTS.md: OK" in result.stdout
    assert vora("context", "list", "--json").exit_code == 0
