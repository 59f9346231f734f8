"""vora_cli.core.json5.path_syntax: the command-line path syntax (spec: config.md, "Paths on the command line")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.errors import VoraError
from vora_cli.core.json5.path_syntax import format_config_path, parse_config_path, resolve_segments


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("agents.defaults.workspace", ("agents", "defaults", "workspace")),
        ("agents.list[0].id", ("agents", "list", 0, "id")),
        ('plugins.entries["my.plugin"].enabled', ("plugins", "entries", "my.plugin", "enabled")),
        ("plugins.entries['x'].y", ("plugins", "entries", "x", "y")),
        ("a.b\\.c", ("a", "b.c")),
        ("channels.discord.123456", ("channels", "discord", "123456")),
        ("m[0][12]", ("m", 0, 12)),
        ('a["q\\"uote"]', ("a", 'q"uote')),
        ("$include", ("$include",)),
        ("[0]", (0,)),
    ],
)
def test_parse_config_path(text: str, segments: tuple[str | int, ...]) -> None:
    assert parse_config_path(text) == segments


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a..b", "invalid config path 'a..b': empty segment at position 2"),
        ("", "invalid config path '': the path is empty"),
        ("a.", "invalid config path 'a.': empty segment at position 2"),
        (".a", "invalid config path '.a': empty segment at position 0"),
        ("a[0", "invalid config path 'a[0': unclosed bracket at position 1"),
        ("a['x", "invalid config path \"a['x\": unclosed quote in bracket at position 1"),
        ("a[x]", "invalid config path 'a[x]': bad index [x] (an index is a number >= 0) at position 1"),
        ("a[-1]", "invalid config path 'a[-1]': bad index [-1] (an index is a number >= 0) at position 1"),
        ("a\\", "invalid config path 'a\\\\': trailing backslash at position 1"),
        ("a[0]b", "invalid config path 'a[0]b': unexpected 'b' after ']' at position 4"),
    ],
)
def test_parse_errors_name_path_and_position(text: str, message: str) -> None:
    with pytest.raises(VoraError) as e:
        parse_config_path(text)
    assert e.value.code == "usage"
    assert e.value.message == message
    assert e.value.hint


def test_numeric_segment_is_an_index_only_under_an_array() -> None:
    tree = {"channels": {"discord": {"123456": {"on": True}}}, "agents": {"list": [{"id": "a"}, {"id": "b"}]}}
    assert resolve_segments(tree, parse_config_path("channels.discord.123456.on")) == (
        "channels", "discord", "123456", "on",
    )
    assert resolve_segments(tree, parse_config_path("agents.list.1.id")) == ("agents", "list", 1, "id")
    assert resolve_segments(tree, parse_config_path("agents.list[1].id")) == ("agents", "list", 1, "id")
    assert resolve_segments(tree, ("missing", "0", "x")) == ("missing", "0", "x")


def test_format_config_path() -> None:
    assert format_config_path(("agents", "list", 0, "id")) == "agents.list[0].id"
    assert format_config_path(("plugins", "entries", "my.plugin")) == 'plugins.entries["my.plugin"]'
    assert format_config_path(("channels", "discord", "123456")) == "channels.discord.123456"
    assert format_config_path(("a", 'q"u\\')) == 'a["q\\"u\\\\"]'
    assert format_config_path(()) == "."


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(min_size=1, max_size=6), st.integers(0, 999)), min_size=1, max_size=5))
def test_format_then_parse_round_trips(segments: list[str | int]) -> None:
    assert parse_config_path(format_config_path(segments)) == tuple(segments)
