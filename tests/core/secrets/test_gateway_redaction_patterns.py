"""vora's free-text redaction finds everything the gateway's own does (issue 22, class 1).

The gateway's default patterns and its verdict on samples were recorded from openclaw 2026.4.12
(`tests/data/upstream/redact-patterns-openclaw-2026.4.12.json`). vora hides more than the
gateway (it never keeps a prefix and suffix of a secret), never less: every recorded secret the
gateway masks, vora removes; and for any text, whatever one of the gateway's patterns (compiled
as the gateway compiles them, case-insensitive) captures as the secret, vora's output lacks it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vora_cli.core.secrets import REDACTED
from vora_cli.core.sessions.redact import redact_text

DATA = json.loads((Path(__file__).resolve().parents[2] / "data" / "upstream" /
                   "redact-patterns-openclaw-2026.4.12.json").read_text())
GATEWAY = [re.compile(p, re.IGNORECASE) for p in DATA["patterns"]]


@pytest.mark.parametrize("sample", DATA["samples"], ids=[s["secret"][:24] for s in DATA["samples"]])
def test_every_secret_the_gateway_masks_vora_removes(sample: dict[str, str]) -> None:
    assert sample["secret"] not in sample["gateway"]  # the gateway's own verdict, as recorded
    shown = redact_text(sample["text"])
    assert sample["secret"] not in shown and REDACTED in shown, shown


def _gateway_secrets(text: str) -> list[str]:
    """What the gateway's patterns would mask: the last non-empty group of each match, else the match."""
    found = []
    for pattern in GATEWAY:
        for match in pattern.finditer(text):
            groups = [g for g in match.groups() if g]
            found.append(groups[-1] if groups else match.group(0))
    return found


PIECES = st.sampled_from([
    "TOKEN", "api_key", "MY_", "A" * 140, "PASSWORD", "secret", "=", ": ", " ", "'", '"', "--token ", "--api-key ",
    "Bearer ", "Authorization: ", '"apiKey": "', "sk-", "ghp_", "xoxb-", "npm_", "123456789:", "-----BEGIN ",
    "PRIVATE KEY-----", "-----END ", "RSA ", "\n", "abcdefghijklmnopqrstuvwxyz0123456789", "x9Y8z7W6v5U4t3S2r1Q0",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, min_size=1, max_size=14).map("".join))
def test_what_any_gateway_pattern_captures_vora_hides(text: str) -> None:
    shown = redact_text(text)
    for secret in _gateway_secrets(text):
        assume(len(secret) >= 4 and secret not in REDACTED and text.count(secret) == 1)
        assert secret not in shown, (text, secret, shown)


def test_a_name_of_any_length_and_a_long_key_label_are_found_in_linear_time() -> None:
    shown = redact_text("x_" * 1_000_000 + "TOKEN=abc123456")
    assert shown.endswith("TOKEN=" + REDACTED)
    label = "B" * 200
    pem = f"-----BEGIN {label} PRIVATE KEY-----\nsecretbody\n-----END {label} PRIVATE KEY-----"
    assert "secretbody" not in redact_text(pem)


# One pattern's match swallowing where another starts: each secret is hidden all the same (found
# by the property test above; applied one after another, the second pattern saw `<redacted>`).
@pytest.mark.parametrize(("text", "secrets"), [
    ("TOKEN=--token TOKENTOKEN", ["TOKENTOKEN"]),
    ("api_key=--password hunter2hunter2", ["hunter2hunter2"]),
    ("SECRET: Bearer abcdefghijklmnopqrstuvwxyz", ["abcdefghijklmnopqrstuvwxyz"]),
    ('"token": "--api-key sk-abcdefghijkl"', ["sk-abcdefghijkl"]),
    ("PASSWORD=x --token ghp_abcdefghijklmnopqrstuvwx", ["ghp_abcdefghijklmnopqrstuvwx"]),
])
def test_overlapping_matches_hide_every_secret(text: str, secrets: list[str]) -> None:
    shown = redact_text(text)
    assert REDACTED in shown
    for secret in secrets:
        assert secret not in shown, shown
