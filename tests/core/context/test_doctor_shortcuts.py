"""The shortcuts that keep `vora doctor` fast give the slow path's answer: JavaScript's UTF-16 sort order
without a codec, and a bootstrap file's trailing blanks dropped before decoding (the modules the doctor
leaves unloaded: tests/cli/doctor/test_shortcuts.py)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from vora_cli.core.context.files import read_bootstrap_file
from vora_cli.core.text import js_trim_end, utf16_sort_key

# -- utf16_sort_key: JavaScript's sort order without a codec --------------------------------------

NAMES = st.text(
    alphabet=st.sampled_from(
        ["a", "Z", "\u00e9", "\ud7ff", "\ue000", "\uffff", "\U00010000", "\U0001f600", "\U0010ffff", "\ud800", "\udfff"]
    ),
    max_size=5,
)


@given(st.lists(NAMES, max_size=8))
def test_the_sort_key_orders_as_utf16_code_units(names: list[str]) -> None:
    expected = sorted(names, key=lambda s: s.encode("utf-16-be", "surrogatepass"))
    assert sorted(names, key=utf16_sort_key) == expected


def test_an_astral_character_sorts_below_the_top_of_the_bmp() -> None:
    # Code points say U+E000 < U+1F600; UTF-16 units say 0xD83D < 0xE000, as JavaScript sorts.
    assert sorted(["\ue000", "\U0001f600", "a"], key=utf16_sort_key) == ["a", "\U0001f600", "\ue000"]


# -- read_bootstrap_file drops trailing ASCII whitespace before decoding ----------------------------


@given(
    st.binary(max_size=200),
    st.sampled_from([b"", b" ", b"\n", b" \t\r\n\x0b\x0c" * 20, b"\xe3\x80\x80\n", b"\xe2\x82 \n"]),
)
def test_the_read_text_trims_to_what_the_spec_trims(tmp_path_factory, body: bytes, end: bytes) -> None:
    workspace = tmp_path_factory.mktemp("ws")
    (workspace / "AGENTS.md").write_bytes(body + end)
    text, reason = read_bootstrap_file(workspace, "AGENTS.md")
    assert reason is None and text is not None
    # Decode all, then JavaScript's trimEnd (spec § Which files, § Per-file trim): what the walk
    # computes from the shortened read, which keeps every non-ASCII blank for js_trim_end.
    assert js_trim_end(text) == js_trim_end((body + end).decode("utf-8", "replace"))
    assert (body + end).decode("utf-8", "replace").startswith(text)


def test_a_whitespace_only_2_mib_file_reads_as_empty(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_bytes(b" \n" * (1024 * 1024))
    assert read_bootstrap_file(tmp_path, "AGENTS.md") == ("", None)


def test_a_truncated_utf8_sequence_before_trailing_blanks_is_one_replacement(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_bytes(b"ok \xe2\x82   \n\n")
    assert read_bootstrap_file(tmp_path, "AGENTS.md") == ("ok \ufffd", None)
