"""Issue 12, point 7: a parse error never quotes a secret. The parser hides what it found when the
position is below a secret-named key (any depth, arrays included), right after a secret's value, or
on a line that names a secret; every command that loads the config is checked in
`tests/cli/config/test_secrets.py`."""

from __future__ import annotations

import pytest
from config_support import SECRET, SHAPES

from vora_cli.core.errors import ParseError
from vora_cli.core.json5.parser import loads


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
