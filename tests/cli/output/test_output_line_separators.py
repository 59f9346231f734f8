"""Issue 12 point 20: U+2028/U+2029 (and the other line breakers) are escaped in tables and
one-line messages, so a row or a message never splits in two."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin, write_config

from tests.conftest import Run
from vora_cli.cli.output import safe_text

BREAKERS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\r"]


@pytest.mark.parametrize("char", BREAKERS)
def test_safe_text_escapes_every_line_breaker(char: str) -> None:
    shown = safe_text(f"a{char}b")
    assert len(shown.splitlines()) == 1
    assert shown.startswith("a\\") and shown.endswith("b")


@pytest.mark.parametrize("char", ["\u2028", "\u2029"])
def test_plugins_list_table_keeps_one_row_per_plugin(char: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    folder = make_plugin(state_dir / "extensions" / f"dir{char}name", "sep-engine")
    manifest = json.loads((folder / "vora.plugin.json").read_text().split("\n", 1)[1])
    manifest["name"] = f"Evil{char}Name"
    (folder / "vora.plugin.json").write_text(json.dumps(manifest))
    result = vora("plugins", "list")
    assert result.exit_code == 0, result.stderr
    assert char not in result.stdout
    rows = [line for line in result.stdout.splitlines() if "sep-engine" in line]
    assert len(rows) == 1
    escaped = char.encode("unicode_escape").decode()
    assert f"Evil{escaped}Name" in rows[0] and f"dir{escaped}name" in rows[0]


@pytest.mark.parametrize("char", ["\u2028", "\u2029"])
def test_an_error_message_stays_one_line(char: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    result = vora("plugins", "inspect", f"ghost{char}id")
    assert result.exit_code == 1
    assert char not in result.stderr
    assert result.stderr.splitlines()[0].startswith("error: plugin not installed: ghost\\u")
