"""A backslash takes the next character as it is, the same way in a bare key and in a quoted
bracket key (spec config.md, "Paths on the command line"); both read through one scanner."""

from __future__ import annotations

import pytest

from vora_cli.core.errors import VoraError
from vora_cli.core.json5.path_syntax import parse_config_path


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ('a["x\\""]', ("a", 'x"')),
        ('a["\\]"].b\\[0\\]', ("a", "]", "b[0]")),
        ("a['it\\'s'].b\\.c", ("a", "it's", "b.c")),
    ],
)
def test_escapes_read_alike_in_bare_and_quoted_keys(text: str, segments: tuple[str, ...]) -> None:
    assert parse_config_path(text) == segments


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('a["x\\', "invalid config path 'a[\"x\\\\': trailing backslash at position 4"),
        ("a.b\\", "invalid config path 'a.b\\\\': trailing backslash at position 3"),
        ('a["x', "invalid config path 'a[\"x': unclosed quote in bracket at position 1"),
        ("a..b", "invalid config path 'a..b': empty segment at position 2"),
        (".a", "invalid config path '.a': empty segment at position 0"),
    ],
)
def test_scan_errors_name_the_position(text: str, message: str) -> None:
    with pytest.raises(VoraError) as raised:
        parse_config_path(text)
    assert (raised.value.code, raised.value.message) == ("usage", message)
