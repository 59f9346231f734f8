"""Issue 12, point 8: a 2 MiB single line (a base64 blob, a PEM on one line) through `config set`,
`config get`, `config validate` and `doctor`. No timing assertion: before the fix these did not
finish at all (quadratic regexes); the tests simply have to complete. One real process run has a
bounded timeout as a hang guard."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

BLOB = ("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0" * 60_000)[: 2 * 1024 * 1024 - 4096]
ONE_LINE = '{"gateway":{"port":18789,"auth":{"token":"' + BLOB + '"}},"note":"x"}\n'
BROKEN = {
    "unterminated secret": '{ gateway: { auth: { token: "' + BLOB + "\n} } }\n",
    "unquoted secret": "{ channels: { slack: { botToken: " + BLOB + " } } }\n",
    "unquoted word": "{ notes: " + BLOB + " }\n",
    "unterminated plain string": '{ notes: "' + BLOB + "\n}\n",
    "unterminated comment": "{ a: 1, /* " + BLOB + "\n}\n",
}


@pytest.fixture
def config(state_dir: Path) -> Path:
    path = state_dir / "vora.json"
    path.write_text(ONE_LINE)
    os.chmod(path, 0o600)
    return path


def test_set_on_a_one_line_config_shows_a_redacted_diff(config: Path, vora) -> None:
    run = vora("config", "set", "--force", "note", "y", "--json")
    assert run.exit_code == 0, run.stderr
    diff = run.json()["files"][0]["diff"]
    assert BLOB[:40] not in diff and "<redacted>" in diff
    assert '"note":"y"' in config.read_text()


@pytest.mark.parametrize("mode", [(), ("--json",), ("--dry-run",)], ids=["human", "json", "dry-run"])
def test_set_a_2_mib_value(state_dir: Path, vora, mode: tuple[str, ...]) -> None:
    for path in ("channels.main.botToken", "notes.blob"):
        # each on a fresh small file: two such values together are over the 2 MiB config limit
        (state_dir / "vora.json").write_text("{\n  gateway: { port: 18789 },\n}\n")
        run = vora("config", "set", "--force", path, BLOB, *mode)
        assert run.exit_code == 0, run.stderr
        if "botToken" in path:
            assert BLOB[:40] not in run.stdout + run.stderr


@pytest.mark.parametrize("args", [("config", "get"), ("config", "get", "--json"), ("config", "get", "gateway"),
                                  ("config", "validate"), ("config", "validate", "--json"), ("doctor",),
                                  ("doctor", "--json")])
def test_readers_of_a_2_mib_secret(config: Path, vora, args: tuple[str, ...]) -> None:
    run = vora(*args)
    assert BLOB[:40] not in run.stdout + run.stderr


@pytest.mark.parametrize("shape", BROKEN, ids=BROKEN)
@pytest.mark.parametrize("args", [("config", "get"), ("config", "set", "a", "1"), ("config", "validate"),
                                  ("doctor", "--json")])
def test_unparseable_2_mib_line(state_dir: Path, vora, shape: str, args: tuple[str, ...]) -> None:
    (state_dir / "vora.json").write_text(BROKEN[shape])
    run = vora(*args)
    assert run.exit_code == 1
    shown = run.stdout + run.stderr
    assert len(shown) < 20_000  # the excerpt is a window, not the line
    if "secret" in shape:
        assert BLOB[:10] not in shown


def test_doctor_shows_a_window_of_a_long_line(state_dir: Path, vora) -> None:
    (state_dir / "vora.json").write_text('{ notes: "' + "x" * 500 + '", port: @, tail: "' + "y" * 500 + '" }\n')
    check = vora("doctor", "--json", "--only", "config-syntax").json()["checks"][0]
    line = check["details"][0]
    assert line.startswith("1 | …") and line.endswith("…")
    assert "port: @" in line and len(line) < 200


def test_doctor_in_a_real_process_does_not_hang(state_dir: Path, vora_process) -> None:
    (state_dir / "vora.json").write_text(BROKEN["unterminated secret"])
    done = vora_process("--state-dir", str(state_dir), "doctor", "--json", timeout=60)
    assert done.returncode == 1
    assert BLOB[:10] not in done.stdout + done.stderr
    syntax = next(c for c in json.loads(done.stdout)["checks"] if c["id"] == "config-syntax")
    assert syntax["status"] == "error"
