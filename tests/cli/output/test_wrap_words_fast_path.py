"""`wrap_words` answers a line that fits without textwrap: the same lines textwrap gives, for any
text, indent and width (textwrap is the oracle)."""

from __future__ import annotations

import textwrap

from hypothesis import example, given, settings
from hypothesis import strategies as st

from vora_cli.cli.wrapping import wrap_words

TEXT = st.lists(st.sampled_from(["a", "bc", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "é", "\u00a0", "\u3000", "\x1c",
                                 "\x85", "\u2028", "--fix", "/p/q"]), max_size=20).map("".join)


def _textwrap(text: str, width: int, indent: str, hanging: str | None) -> list[str]:
    if not text.strip():
        return [indent.rstrip()] if indent else [""]
    lines = textwrap.wrap(text, max(width, len(indent) + 1), initial_indent=indent,
                          subsequent_indent=indent if hanging is None else hanging,
                          break_long_words=False, break_on_hyphens=False)
    return lines or [indent]


@settings(max_examples=300, deadline=None)
@example("a \xa0", 40, "", None).via("a trailing Unicode space after a blank (review)")
@example("a \u3000", 40, " ", "    ").via("the same with an indent")
@given(TEXT, st.integers(0, 40), st.sampled_from(["", " ", "  - "]), st.sampled_from([None, "    "]))
def test_the_same_lines_as_textwrap(text: str, width: int, indent: str, hanging: str | None) -> None:
    assert wrap_words(text, width, indent=indent, hanging=hanging) == _textwrap(text, width, indent, hanging)
