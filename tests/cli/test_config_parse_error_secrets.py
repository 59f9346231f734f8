"""Issue 12, point 7: a parse error never quotes a secret, in any command that loads the config.

The parser hides what it found when the position is below a secret-named key (any depth, arrays
included), right after a secret's value, or on a line that names a secret."""

from __future__ import annotations

from pathlib import Path

import pytest

from vora_cli.core.errors import ParseError
from vora_cli.core.json5.parser import loads

SECRET = "QmVhcmVyU2VjcmV0VmFsdWU"

# Malformed shapes, each with the secret's text where the parser stops.
SHAPES = {
    "unterminated string": '{\n  gateway: { auth: { token: "' + SECRET + '\n  } },\n}\n',
    "unterminated single-quoted": "{\n  apiKey: '" + SECRET + "\n}\n",
    "unquoted word": "{\n  channels: { slack: { botTokens: { main: " + SECRET + " } } },\n}\n",
    "unquoted with dashes": "{\n  apiKey: sk-" + SECRET + "-x,\n}\n",
    "in an array": '{\n  apiKeys: [\n    "ok-one",\n    "' + SECRET + '\n  ],\n}\n',
    "in an array of objects": '{\n  providers: [\n    { id: "a",\n      clientSecret: ' + SECRET + " },\n  ],\n}\n",
    "header map": '{\n  headers: {\n    "x-api-key": ' + SECRET + "$,\n  },\n}\n",
    "after a secret, no comma": '{\n  password: "a" ' + SECRET + "\n}\n",
    "bad escape in a secret": '{\n  cookie: "ab\\1' + SECRET + '",\n}\n',
    "one line": '{ gateway: { auth: { token: "' + SECRET + "\n",
    "secret after junk on one line": "{ a: @, token: \"" + SECRET + "\" }\n",  # the excerpt runs into it
}


def _error(text: str) -> ParseError:
    with pytest.raises(ParseError) as caught:
        loads(text, filename="vora.json")
    return caught.value


@pytest.mark.parametrize("text", SHAPES.values(), ids=SHAPES.keys())
def test_the_parser_hides_what_it_found_in_a_secret(text: str) -> None:
    error = _error(text)
    assert SECRET[:6] not in error.message
    assert SECRET[:6] not in error.what
    assert error.hidden and error.found == "<redacted>"
    assert error.line >= 1 and error.col >= 1  # the position is still there


@pytest.mark.parametrize("text, found", [
    ("{a: tru}", "'tru}'"),
    ('{\n  model: "gpt-4\n}', "'\"gpt-4'"),
    ("{ port: 18789 18790 }", "'18790 }'"),
])
def test_plain_values_are_still_quoted(text: str, found: str) -> None:
    error = _error(text)
    assert not error.hidden
    assert error.message.endswith(f"(found {found})")


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
