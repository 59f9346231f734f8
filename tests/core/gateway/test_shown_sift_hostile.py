"""The masker's sifting (`Masker.texts`) against the ways a sift can miss what masking each text
alone finds (h30, a review of h29's sift; docs/secrets.md, "From the gateway"): a mark at the very
start of the text after a hit's, a mark in a text only the member rule reads (`Authorization:
Basic …`), offsets that lower-casing shifts (`İ` lowers to two characters), and ASCII text in every
case with known values the run draws itself (a newline in one: a hit across the joining newline).
`test_shown_sifting.py` holds the sift to the same reference on a fixed set of known values;
these cases each failed a mutant of `Masker._changeable` that one let through."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.gateway.shown import Masker

# One text per rule, each with no mark of another rule, each starting with its mark.
BACK_TO_BACK = ["token: abc", "key=abcdef12", "secret: s", "passwd=hunter22", "cookie: a=b",
                "Proxy-Authorization: Basic QWxhZGRpbjpvcGVu", "api_key: zz", "://u:pw@host/",
                "Bearer abcdefghijklmnopqrstu", "sk-abcdefgh1", "ghp_" + "a" * 20, "github_pat_" + "a" * 20,
                "xoxb-abcdefghij", "xapp-abcdefghij", "gsk_abcdefghij", "AIza" + "a" * 20, "pplx-abcdefghij",
                "npm_abcdefghij", "123456:" + "a" * 20, "bench-token here"]


def test_a_mark_at_the_start_of_the_text_after_a_hit_is_found() -> None:
    masker = Masker(["bench-token"])
    shown = masker.texts(BACK_TO_BACK)
    assert shown == [masker.text(t) for t in BACK_TO_BACK]
    assert [t for t, s in zip(BACK_TO_BACK, shown, strict=True) if t == s] == []


def test_a_text_whose_lower_case_is_longer_is_masked_as_alone() -> None:
    # `İ`.lower() is two characters: offsets of a lower-cased join of such text point at the next text
    texts = ["\u0130" * 12 + " token: abc", "x", "\u212a" * 3 + " KEY=abcdef12", "y", "é sk-abcdefgh1234", "z"]
    masker = Masker()
    assert masker.texts(texts) == [masker.text(t) for t in texts]
    assert [masker.text(t) == t for t in texts] == [False, True, False, True, False, True]


MARKS = ["token", "key", "secret", "passw", "password", "api", "private", "authorization", "cookie", "bearer",
         "xox", "aiza", "sk-", "ghp_", "github_pat_", "xapp-", "gsk_", "pplx-", "npm_", "private key", "://",
         "bot", "123456", "1234567:", "-----BEGIN RSA PRIVATE KEY-----", "\"apiKey\":\"", "--token ", "?sig=",
         "@", "\\\"", "\\u002d"]
FILLER = [":", "=", " ", "_", "-", "a", "Z", "9", "\n", "\t", "\"", "'", "/", "x" * 25, "line 42"]


def _cased(piece: str, flips: int) -> str:
    return "".join(c.upper() if flips >> (i % 16) & 1 else c.lower() for i, c in enumerate(piece))


PIECE = st.builds(_cased, st.sampled_from(MARKS + FILLER), st.integers(0, 2**16 - 1))
# Known values: ASCII, of any case, some spanning what the join puts between two texts.
KNOWN = st.lists(st.text(st.sampled_from("abZQ9-_:\n "), min_size=3, max_size=8) | st.sampled_from(MARKS),
                 min_size=1, max_size=3)


@st.composite
def texts_and_known(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    known = draw(KNOWN)
    piece = PIECE | st.sampled_from(known) | st.sampled_from(known).map(lambda k: k[: len(k) // 2])
    return draw(st.lists(st.lists(piece, max_size=10).map("".join), max_size=12)), known


@pytest.mark.slow  # 2.6 s of CPU on the 2-core machine
@settings(max_examples=300, deadline=None)
@given(texts_and_known())
def test_ascii_texts_in_every_case_are_masked_as_each_alone(case: tuple[list[str], list[str]]) -> None:
    texts, known = case
    masker = Masker(known)
    assert masker.texts(texts) == [masker.text(t) for t in texts]
