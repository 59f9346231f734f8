"""Issue 12, point 7: a parse error never quotes a secret, in any command that loads the config.

The parser's own rule (what it hides, and where) is held in `tests/core/json5/test_json5_parse_errors.py`;
here every command shows the error with the excerpt hidden."""

from __future__ import annotations

from pathlib import Path

import pytest
from config_support import SECRET, SHAPES

COMMANDS = [
    ("config", "get"), ("config", "get", "gateway", "--json"), ("config", "set", "gateway.port", "1"),
    ("config", "set", "gateway.port", "1", "--json"), ("config", "unset", "gateway"), ("config", "validate"),
    ("config", "validate", "--json"), ("doctor",), ("doctor", "--json"), ("doctor", "--format", "sarif"),
    ("doctor", "--format", "github"), ("context", "list"),
    ("plugins", "list"), ("plugins", "list", "--json"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
@pytest.mark.parametrize("shape", ["unterminated string", "unquoted word", "in an array", "header map",
                                   "one line"])
def test_no_command_quotes_the_secret(state_dir: Path, vora, args: tuple[str, ...], shape: str) -> None:
    config = state_dir / "vora.json"
    config.write_text(SHAPES[shape])
    before = config.read_bytes()
    run = vora(*args)
    assert run.exit_code != 0
    shown = run.stdout + run.stderr
    assert SECRET[:6] not in shown
    assert "(found <redacted>)" in shown  # reported, the excerpt hidden
    assert config.read_bytes() == before


def test_doctor_shows_the_line_up_to_the_secret(state_dir: Path, vora) -> None:
    (state_dir / "vora.json").write_text(SHAPES["unterminated string"])
    doc = vora("doctor", "--json", "--only", "config-syntax").json()
    check = doc["checks"][0]
    assert check["details"][0] == '2 | gateway: { auth: { token: <redacted>'
    assert check["message"].endswith("(found <redacted>)")
