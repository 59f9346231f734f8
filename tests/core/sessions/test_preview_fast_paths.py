"""The preview's fast paths (needle gates, the colon-anchored Telegram trigger, the ASCII
printable check) decide exactly what the plain formulation decides."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.sessions import redact
from vora_cli.core.sessions.redact import make_preview, redact_text


def reference_redact(text: str) -> str:
    """redact_text as first written: every needle tested, the trigger searched everywhere."""
    lowered = text.lower()
    present = {needle for needle in redact._NEEDLES if needle in lowered}
    if ":" in text and re.search(r"\d{6}:", text):
        present.add("bot:")
    if "private key" in lowered:
        text = re.compile(redact._PEM, re.IGNORECASE).sub(redact._pem, text)
    elif not present:
        return text
    hidden = [False] * len(text)  # each character any applicable pattern captures as the secret
    for needles, source, group in redact._RULES:
        if not present.isdisjoint(needles):
            for match in re.finditer(source, text, re.IGNORECASE):
                if match.group(group) != redact.REDACTED:
                    hidden[match.start(group):match.end(group)] = [True] * (match.end(group) - match.start(group))
    out, i = [], 0
    while i < len(text):
        if hidden[i]:
            while i < len(text) and hidden[i]:
                i += 1
            out.append(redact.REDACTED)
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


PIECES = ["sk-", "ghp_", "npm_", "gsk_", "xapp-", "pplx-", "AIza", "github_pat_", "xoxb-", "key", "TOKEN",
          "Bearer ", "bot", "123456", "1234567:", ":", "=", " ", "_", "-", "a", "Z", "9", "\n", "\t", "\x7f",
          "\x1f", "\x85", "\u2028", "é", "→", "\ud83d", "\"apiKey\": \"", "\u212aey", "\u0130", "K", "ey", "AIZA", "--token ", "A" * 25]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_redact_matches_the_plain_formulation(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert redact_text(text) == reference_redact(text)


def test_telegram_token_found_at_any_colon_and_past_the_colon_cap() -> None:
    token = "123456789:" + "A" * 30
    for text in (f"bot{token}", f"x:y:z {token}", ":" * 70 + " " + token, "12345:" + "A" * 30 + " 7" + token):
        assert redact_text(text) == reference_redact(text)
        assert "<redacted>" in redact_text(text)
    for text in ("12345:" + "A" * 30, ":" * 70 + "12345:"):
        assert redact_text(text) == text  # five digits are no token


def test_escape_check_on_ascii_and_non_ascii_text() -> None:
    for text, shown in [("a\x7fb", "a\\u007fb"), ("a\x00b", "a\\u0000b"), ("a\tb", "a\\tb"), ("é\x85", "é\\u0085"),
                        ("é\u2028", "é\\u2028"), ("plain ~ text", "plain ~ text"), ("é plain", "é plain")]:
        assert make_preview(text) == shown


def test_every_non_ascii_character_lowering_to_ascii_is_listed() -> None:
    import sys

    found = tuple(chr(c) for c in range(0x80, sys.maxunicode + 1) if any(ord(x) < 0x80 for x in chr(c).lower()))
    assert found == redact._LOWER_TO_ASCII
    assert redact_text("my_\u212aEY=abcdef123") == reference_redact("my_\u212aEY=abcdef123")


def test_well_formed_replaces_surrogates_only() -> None:
    from vora_cli.core.sessions.jsfmt import well_formed

    for text, expected in [("é\ud83d", "é\ufffd"), ("\ud83d\ude00x", "\U0001f600x"), ("é→", "é→"), ("\ude00", "\ufffd"),
                           ("ascii", "ascii")]:
        assert well_formed(text) == expected


def _preview_always_redacted(text: str, more: bool = False, limit: int = redact.PREVIEW_MAX) -> str:
    """make_preview without its shortcut: the whole window redacted every time."""
    saved = redact._unchanged_up_to
    redact._unchanged_up_to = lambda _text, _limit: False
    try:
        return make_preview(text, more, limit)
    finally:
        redact._unchanged_up_to = saved


PREVIEW_PIECES = [*PIECES, "lorem ipsum ", "x" * 90, "y" * 180, "MY_VERY_LONG_NAME_" * 12, "_KEY=", "=abcdefgh12345",
                  "-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----", "-----BEGIN ",
                  " PRIVATE KEY-----", "Authorization: Bearer ", "abcdefghijklmnopqrstuvwxyz0123", "1" * 150,
                  "123456789:" + "A" * 30, "\"password\": \"", "→"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PREVIEW_PIECES), max_size=30), st.booleans(), st.sampled_from([200, 20, 1, 400]))
def test_a_preview_is_the_same_with_its_shortcut(pieces: list[str], more: bool, limit: int) -> None:
    """Secrets at every distance from the preview's end: before, across and past `limit`, a
    long NAME=value name, a private key whose label runs past it, digits long before a colon."""
    text = "".join(pieces)
    assert make_preview(text, more, limit) == _preview_always_redacted(text, more, limit)


def test_secrets_around_the_preview_end_stay_redacted() -> None:
    for pad in range(150, 260, 3):
        for secret in ("sk-abcdefghijklmnop", "TOKEN=abcdefgh12345", "ghp_" + "a1" * 12, "1" * 40 + "23456789:" + "A" * 30,
                       "-----BEGIN " + "X" * 30 + " PRIVATE KEY-----\nbody\n-----END PRIVATE KEY-----",
                       "A" * 300 + "_KEY=abcdefgh12345"):
            text = "p" * pad + " " + secret + " tail" * 50
            assert make_preview(text) == _preview_always_redacted(text), (pad, secret)
