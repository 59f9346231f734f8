"""Issue 12 point 19 (acceptance audit): the refusal to edit through a duplicated key names each
ignored copy by line *and column* — copies often share a line, and "ignores line 1" says nothing
then."""

from __future__ import annotations

from pathlib import Path

import pytest

CASES = [
    ("{ gateway: { port: 1 }, gateway: { port: 2 } }\n", "gateway.port", "7", "ignores line 1, col 3;"),
    ("{ plugins: { entries: { a: { enabled: true }, a: { enabled: false } } } }\n",
     "plugins.entries.a.enabled", "true", "ignores line 1, col 25;"),
    ("{\n  x: 1, x: 2, x: 3,\n}\n", "x", "7", "ignores line 2, col 3, line 2, col 9;"),
]


@pytest.mark.parametrize(("text", "path", "value", "ignored"), CASES, ids=["top", "nested", "three-copies"])
def test_the_refusal_names_the_ignored_copies_by_line_and_column(state_dir: Path, vora, text: str, path: str,
                                                                 value: str, ignored: str) -> None:
    (state_dir / "vora.json").write_text(text)
    result = vora("config", "set", path, value, "--json")
    assert result.exit_code == 1
    assert ignored in result.json()["error"]["message"]
    assert (state_dir / "vora.json").read_text() == text
