"""The one rule for every path a user writes, on the core (docs/config.md, "Paths the user writes"):
`expand_path` trims JavaScript's blanks, expands `~` and normalises; every consumer through `vora`:
tests/cli/common/test_paths.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vora_cli.core.paths import expand_path
from vora_cli.core.text import JS_WHITESPACE

# -- the rule itself ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("~", "H"),
        ("~/", "H"),
        ("~/ws-b", "H/ws-b"),
        ("  ~/ws-b ", "H/ws-b"),
        ("\t~/ws-b\n", "H/ws-b"),
        ("\ufeff\u3000~/ws-b\u00a0", "H/ws-b"),  # JavaScript's trim set, not Python's
        ("~//ws-b", "H/ws-b"),
        ("~\\ws-b", "H/ws-b"),
        ("~/a/../ws-b", "H/ws-b"),
        ("ws-b", "B/ws-b"),
        ("  ./ws-b/ ", "B/ws-b"),
        ("../ws-b", "ws-b"),  # B is <root>/base, so its parent holds ws-b
        ("~other/ws", "B/~other/ws"),  # ~name is not a home: an ordinary relative name
        ("/abs/./x/../ws-b", "/abs/ws-b"),
        ("   /abs/ws-b   ", "/abs/ws-b"),
    ],
)
def test_expand_path_follows_the_one_rule(tmp_path: Path, value: str, expected: str) -> None:
    home, base = tmp_path / "home", tmp_path / "base"
    want = (
        expected.replace("H", str(home), 1)
        if expected.startswith("H")
        else expected.replace("B", str(base), 1)
        if expected.startswith("B")
        else expected
        if expected.startswith("/")
        else str(tmp_path / expected)
    )
    assert expand_path(value, home, base) == Path(want)


def test_python_only_whitespace_is_not_trimmed(tmp_path: Path) -> None:
    # U+001C is whitespace to Python's str.strip() but not to JavaScript's trim().
    assert expand_path("ws\x1c", tmp_path, tmp_path) == tmp_path / "ws\x1c"


def test_a_relative_value_without_a_base_is_relative_to_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert expand_path(" ws ", tmp_path / "home") == tmp_path / "ws"


SEGMENT = st.one_of(
    st.sampled_from([".", ".."]),
    st.text(alphabet=st.sampled_from(["a", "b", ".", " ", "~", "\u00e9"]), min_size=1, max_size=4),
)


BLANKS = st.text(alphabet=st.sampled_from(sorted(JS_WHITESPACE)), max_size=3)


@given(BLANKS, st.lists(SEGMENT, max_size=5), BLANKS)
def test_any_relative_or_home_path_is_normalised_and_blank_insensitive(
    lead: str, segments: list[str], trail: str
) -> None:
    home, base = Path("/h/home"), Path("/b/base")
    rel = "/".join(segments)
    for value in (rel, "~/" + rel, "/abs/" + rel):
        got = expand_path(lead + value + trail, home, base)
        assert got == expand_path(value.strip(JS_WHITESPACE), home, base)
        assert got.is_absolute()
        assert str(got) == os.path.normpath(str(got))
    if rel.strip(JS_WHITESPACE) == rel and not rel.startswith("~"):
        assert expand_path("~/" + rel, home, base) == Path(os.path.normpath(f"{home}/{rel}"))
        assert expand_path(rel, home, base) == Path(os.path.normpath(f"{base}/{rel}"))
