"""The masker's sifting (`Masker.texts`, `Masker.payload`: the texts no rule can change are passed
over at once) shows exactly what masking every string on its own shows (h29; docs/secrets.md, "From
the gateway"), on random and hostile strings: secrets of every rule, known values (one holding a
newline), non-ASCII text, the Kelvin sign and `İ`, huge lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.gateway.shown import Masker, shown_key
from vora_cli.core.secrets import is_secret_name, redact

KNOWN = ["bench-token", "s3cr3t\nline", "ключ-секрет", "a, b"]

# Fragments that start, end or hold a secret of some rule, and their neighbours in text.
PIECES = [
    # the gateway's patterns
    "sk-", "ghp_", "npm_", "gsk_", "xapp-", "pplx-", "AIza", "github_pat_", "xoxb-", "key", "TOKEN", "Bearer ",
    "bot", "123456", "1234567:", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "private key",
    "\"apiKey\": \"", "--token ", "A" * 25, "Authorization: Bearer ", "passwd=",
    # the member and URL rules
    "token: ", "'password': ", "api_key:", "cookie:", "Secret", "https://", "://", "u:p@h", "?sig=", "&token=",
    "#access_token=", "/", "@",
    # the known values and pieces of them
    *KNOWN, "bench-", "-token", "s3cr3t", "\n", "a,", " b",
    # case folding and other non-ASCII text
    "\u212aey", "\u0130", "\u212a", "İ", "é", "→", "\ud83d", "\x85", "\u2028",
    # plain text
    ":", "=", " ", "_", "-", "a", "Z", "9", "\t", "\"", "line 42", "{\"0\": \"ready (3 plugins: a, b, c; 1.2s)\"}",
]
TEXT = st.lists(st.sampled_from(PIECES), max_size=24).map("".join) | st.text(max_size=40)


def reference_payload(masker: Masker, value: Any) -> Any:
    """`Masker.payload` as first written: every string through `Masker.text`."""
    def strings(v: Any, below: bool) -> Any:
        if isinstance(v, str):
            return masker.text(v)
        if isinstance(v, dict):
            out: dict[str, Any] = {}
            for k, x in v.items():  # a key is masked as a string is (`shown_key`: numbered, token-shaped)
                out[shown_key(k, masker.text(k), below, v, out)] = strings(x, below or is_secret_name(k))
            return out
        if isinstance(v, list):
            return [strings(x, below) for x in v]
        return v
    return strings(redact(value), False)  # held to the path rule by tests/core/secrets/test_secret_rule.py


@settings(max_examples=200, deadline=None)
@given(st.lists(TEXT, max_size=12), st.lists(st.sampled_from(KNOWN), max_size=3))
def test_sifted_texts_are_masked_as_each_alone(texts: list[str], known: list[str]) -> None:
    masker = Masker(known)
    assert masker.texts(texts) == [masker.text(t) for t in texts]


KEYS = st.sampled_from(["lines", "file", "token", "apiKeys", "entries", "plugins", "name", "bench-token", "x",
                        "sk-abcdefgh12345", "sk-zyxwvuts98765", "<redacted>", "<redacted-2>", "Zm9vYmFyYmF6cXV4MTIz"]) | TEXT
PAYLOAD = st.recursive(TEXT | st.integers() | st.none() | st.booleans(),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                       max_leaves=20)


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@settings(max_examples=200, deadline=None)
@given(PAYLOAD, st.lists(st.sampled_from(KNOWN), max_size=3))
def test_a_payload_is_masked_as_string_by_string(payload: Any, known: list[str]) -> None:
    masker = Masker(known)
    assert masker.payload(payload) == reference_payload(masker, payload)


def test_a_secret_in_one_line_of_many_is_masked_and_the_rest_are_kept() -> None:
    lines = [f'{{"0": "line {i}", "time": "2026-04-12T10:00:{i % 60:02d}.000+00:00"}}' for i in range(2000)]
    hostile = ["TOKEN=abcdef123456", "id 123456789:AAAAAAAAAAAAAAAAAAAAAAAA", "see https://u:pw@host/?token=abc",
               "bench-token", "\u212aEY=abcdef123", "İ token: xyz", "s3cr3t\nline", "x" * 1_000_000 + " sk-abcdefgh1234"]
    for at, text in zip(range(7, 2000, 250), hostile, strict=False):
        lines[at] = text
    masker = Masker(KNOWN)
    tail = {"file": "/tmp/vora/vora-2026-04-12.log", "lines": lines}
    shown = masker.payload(tail)
    assert shown == reference_payload(masker, tail)
    changed = [i for i, (a, b) in enumerate(zip(lines, shown["lines"], strict=True)) if a != b]
    assert changed == list(range(7, 2000, 250))[: len(hostile)]
    assert all("<redacted>" in shown["lines"][i] for i in changed)


# One secret of each rule, each holding no other rule's mark; the gateway's own recorded samples
# (openclaw 2026.4.12) besides.
ONE_RULE_EACH = ["MYKEY=abcdef1234", "x token: abc", "api_key: zzzz", "set cookie: a=b", "PASSWD=hunter22",
                 "see https://u:pw@host/", "at https://host/?sig=abcd", "Authorization: Bearer abcdefghij",
                 "Bearer abcdefghijklmnopqrstu", "sk-abcdefgh1", "ghp_" + "a" * 20, "github_pat_" + "a" * 20,
                 "xoxb-abcdefghij", "xapp-abcdefghij", "gsk_abcdefghij", "AIza" + "a" * 20, "pplx-abcdefghij",
                 "npm_abcdefghij", "bot123456:" + "a" * 20, "123456:" + "a" * 20, "my secret: s",
                 "-----BEGIN PRIVATE KEY-----\nabc", "privateKey: pk", "\u212aEY=abcdef123", "bench-token",
                 "s3cr3t\nline", "ключ-секрет", "a, b"]
RECORDED = json.loads((Path(__file__).resolve().parents[2] / "data" / "upstream" /
                       "redact-patterns-openclaw-2026.4.12.json").read_text())["samples"]


def test_a_secret_of_every_rule_is_sifted_out_for_masking() -> None:
    masker = Masker(KNOWN)
    secrets = [*ONE_RULE_EACH, *(sample["text"] for sample in RECORDED)]
    lines = [x for secret in secrets for x in ("plain line", secret)]
    shown = masker.texts(lines)
    assert shown == [masker.text(t) for t in lines]
    assert [a for a, b in zip(lines, shown, strict=True) if a == b] == ["plain line"] * len(secrets)


def test_a_text_with_none_of_the_marks_is_not_masked_at_all() -> None:
    # the sifting is what saves the work: the rules run on the texts holding a mark only
    calls: list[str] = []

    class Counting(Masker):
        def text(self, text: str) -> str:
            calls.append(text)
            return super().text(text)

    lines = [f"line {i}: all is well" for i in range(500)] + ["the api answered", "pass: 1234567:" + "B" * 20]
    Counting(["bench-token"]).texts(lines)
    assert calls == lines[500:]
