"""`scrub` hides every known secret value in a text, and reads the text once however many secrets
there are: a config of thousands of providers holds thousands of keys, and doctor and the audit
scrub every text they show. The oracle is the definition: each secret, longest first, replaced
wherever it occurs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from work_count import counting_calls

from vora_cli.core import secrets
from vora_cli.core.secrets import REDACTED, order_for_scrub, scrub


def one_by_one(text: str, ordered: list[str]) -> str:
    for value in ordered:
        if value and value in text:
            text = text.replace(value, REDACTED)
    return text


# Secrets over letters and digits (none of the marker's: `<redacted>` holds no secret), text between
# them over what no secret holds: occurrences of two secrets never overlap unless one holds the
# other (where longest-first decides).
SECRET = st.text("bfgxyz0129-_", min_size=1, max_size=14)
FILLER = st.text(" .:/@", max_size=4)


@settings(max_examples=150, deadline=None)
@given(st.lists(SECRET, min_size=1, max_size=40, unique=True), st.data())
def test_many_secrets_hide_what_one_by_one_hides(chosen: list[str], data: st.DataObject) -> None:
    parts = data.draw(st.lists(st.one_of(st.sampled_from(chosen), FILLER), max_size=30))
    text = " ".join(parts)
    # past the one-by-one limit: secrets that never occur (upper case) make the set a big one
    many = order_for_scrub([*chosen, *(f"NEVER{i:04d}" for i in range(secrets._SEARCHED_ONE_BY_ONE))])
    assert len(many) > secrets._SEARCHED_ONE_BY_ONE
    expected = one_by_one(text, [s for s in many if not s.startswith("NEVER")])
    assert scrub(text, many) == expected
    assert scrub(text, order_for_scrub(chosen)) == expected


def test_a_secret_holding_blanks_and_pattern_characters_is_hidden_among_many() -> None:
    odd = ["pass word ]^\\-end", "x[y]z(q)+*?", "naïve—ключ"]
    ordered = order_for_scrub([*odd, *(f"k{i:06d}" for i in range(1000))])
    text = f"a: {odd[0]} b: {odd[1]}, c={odd[2]}; k000999 and k0007 stays"
    assert scrub(text, ordered) == f"a: {REDACTED} b: {REDACTED}, c={REDACTED}; {REDACTED} and k0007 stays"


def _work(providers: int) -> int:
    keys = [f"sk-{i:08d}-{i * 7919 % 100003:06d}" for i in range(providers)]
    ordered = order_for_scrub(keys)
    texts = [f"models.providers.p{i:05d}.apiKey holds {keys[i]} in plain text; move it to an env var"
             for i in range(providers)]
    with counting_calls() as count:
        shown = [scrub(text, ordered) for text in texts]
    assert not any(key in text for key, text in zip(keys, shown, strict=True))
    return count[0]


def test_the_work_grows_with_the_text_not_with_texts_times_secrets() -> None:
    small, big = _work(1_000), _work(4_000)
    assert big < 5 * small, (small, big)
