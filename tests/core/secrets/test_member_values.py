"""The member rule's values (docs/secrets.md, "Member values", "Escaped quotes"), as properties:
a credential header's value is hidden whole however many words it has, in plain text, in JSON
text and in JSON text inside a JSON string; and the rule keeps JSON text JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from vora_cli.core.gateway.shown import Masker
from vora_cli.core.secrets import REDACTED, hide_member_values, redact_text, secret_values_in_text

HEADER_NAMES = ["Authorization", "authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "x-api-key",
                "X-Auth-Token", "api-key", "x-goog-api-key", "password", "db_password"]
SCHEME_NAMES = ["token", "apiKey", "secret", "botToken", "auth_token"]
SCHEMES = ["Basic", "Bearer", "Digest", "Token", "Negotiate", "NTLM", "ApiKey", "AWS4-HMAC-SHA256"]
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=._~-", min_size=6,
               max_size=24)
SEPARATORS = st.sampled_from([" ", "; ", ", ", "  ", "\t", "="])
AROUND = st.sampled_from(["", "got ", "request failed: ", "{", "headers: ", "[plugins] "])
AFTER = st.sampled_from(["", " ", "\n next line", "\nok"])


def _credential(words: list[str], separators: list[str]) -> str:
    out = words[0]
    for word, sep in zip(words[1:], separators, strict=False):
        out += sep + word
    return out


def _contexts(line: str) -> list[str]:
    """The line as free text, as a JSON log line's message, and as JSON text inside a message."""
    once = json.dumps({"0": line, "time": "2026-04-12T10:00:00.000+00:00"})
    return [line, once, json.dumps({"0": "nested " + once})]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(HEADER_NAMES), st.lists(WORD, min_size=1, max_size=4), st.lists(SEPARATORS, max_size=3),
       AROUND, AFTER)
def test_a_header_value_is_hidden_whole(name: str, words: list[str], separators: list[str], before: str,
                                        after: str) -> None:
    line = f"{before}{name}: {_credential(words, separators)}{after}"
    for word in words:
        assume(word not in (before + name + after) and word.strip("=+/._~-") != "")
    for level, text in enumerate(_contexts(line)):
        shown = Masker().text(text)
        for word in words:
            assert word not in shown, (text, shown)
        if level:
            json.loads(shown)  # still the same JSON document


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SCHEME_NAMES), st.sampled_from(SCHEMES), st.lists(WORD, min_size=1, max_size=3), AROUND)
def test_a_scheme_and_its_credentials_are_hidden_under_any_secret_name(name: str, scheme: str, words: list[str],
                                                                      before: str) -> None:
    line = f"{before}{name}: {scheme} {' '.join(words)}"
    for text in _contexts(line):
        shown = Masker().text(text)
        for word in words:
            assume(word not in before + name + scheme)
            assert word not in shown, (text, shown)


def test_other_secret_members_keep_one_word_and_the_words_after_it() -> None:
    assert redact_text("token: abc expired at noon") == f"token: {REDACTED} expired at noon"
    assert redact_text("apiKey: 12345, port: 1") == f"apiKey: {REDACTED}, port: 1"
    assert redact_text('{"apiKey": "abc def", "port": 1}') == f'{{"apiKey": "{REDACTED}", "port": 1}}'


@pytest.mark.parametrize(("text", "shown"), [
    ('{\\"apiKey\\":\\"s3cr3t-value\\"}', f'{{\\"apiKey\\":\\"{REDACTED}\\"}}'),
    ('\\\\\\"apiKey\\\\\\": \\\\\\"deeper\\\\\\"', f'\\\\\\"apiKey\\\\\\": \\\\\\"{REDACTED}\\\\\\"'),
    ("'password': 'a b c'", f"'password': '{REDACTED}'"),
    ('Authorization: Digest username="ops", realm="gw", response="abc"', f"Authorization: {REDACTED}"),
    ('{"0":"Authorization: Basic dXNlcjpwdw==","time":"t"}', f'{{"0":"Authorization: {REDACTED}","time":"t"}}'),
    ('{"0":"Cookie: a=\\"b c\\"; d=1","t":1}', f'{{"0":"Cookie: {REDACTED}","t":1}}'),
    ("\\ntoken: abc\\nmore", f"\\ntoken: {REDACTED}\\nmore"),
    (f"token: {REDACTED}", f"token: {REDACTED}"),  # hidden once is hidden
])
def test_the_member_rule_on_each_form(text: str, shown: str) -> None:
    assert redact_text(text) == shown


def test_the_raw_config_scan_collects_a_whole_header_value() -> None:
    assert secret_values_in_text('{headers: {Authorization: Basic dXNlcjpwdw==\n}}') == ["Basic dXNlcjpwdw=="]
    assert secret_values_in_text('x: "{\\"apiKey\\":\\"inner-secret\\"}"') == ["inner-secret"]


PIECES = ["token", "apiKey", "Authorization", "Cookie", "x-api-key", "password", ": ", ":", " ", "Basic ",
          "Bearer ", "abc", "a=b; ", "\\", '"', "'", "=", ",", "{", "}", "\n", "é", "\u212a"]


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.sampled_from(["0", "1", "msg", "token", "headers"]),
                       st.lists(st.sampled_from(PIECES), max_size=16).map("".join), max_size=4),
       st.integers(min_value=1, max_value=3))
def test_the_member_rule_keeps_json_text_json(doc: dict[str, str], depth: int) -> None:
    # the member rule's own promise; the URL rule reads `\"` as part of a URL (docs/secrets.md, "URLs")
    text = json.dumps(doc)
    for _ in range(depth - 1):
        text = json.dumps({"0": text})
    shown = hide_member_values(text)
    for level in range(depth):  # each level still parses, down to the document itself
        parsed = json.loads(shown)
        if level < depth - 1:
            shown = parsed["0"]
    assert len(parsed) == len(doc)


# Single long lines of the new value forms: escape runs, quoted parameters, JSON text at several
# escape depths, header lines (docs/secrets.md, "Linear time"). They simply have to finish. The
# size is what the hang guard needs: a value read again from each member inside it, a string's
# rest read again from each member in it, an escape run or a value's parameters read again from
# each backslash or quote each run past the guard on a line this long, as does a backtracking name
# or escape pattern; the linear readers take a small part of it.
LONG_LINE = 256 * 1024
HOSTILE = {
    "backslashes after a name": "token: " + "\\" * LONG_LINE,
    "an escaped quote, then backslashes": 'token: \\"' + "\\" * LONG_LINE,
    "quoted parameters": "Authorization: Basic " + 'a="b" ' * (LONG_LINE // 6),
    "escaped parameters": "Authorization: x" + 'a=\\\\\\"' * (LONG_LINE // 7),
    "escape depths": "".join("\\" * (2**d - 1) + '"token' + "\\" * (2**d - 1) + '": ' for d in range(1, 8))
    * (LONG_LINE // 400),
    "JSON members": '"a":"' * (LONG_LINE // 5),
    "escaped JSON members": '\\"a\\":\\"' * (LONG_LINE // 9),
    "header lines": "x-api-key: a\n" * (LONG_LINE // 13),
    # each one is a member whose value runs on to the end of the line: read from each, a line a member
    "members in a word": "token " + "a:" * (LONG_LINE // 2),
    "a header's value in each string": "{" + "'k': \"password: x=\", " * (LONG_LINE // 22),
    "escaped, in each string": "{" + "'k': 'password: x=\\\"', " * (LONG_LINE // 23),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_lines_finish(name: str) -> None:
    from hang_guard import cpu_hang_guard

    text = HOSTILE[name]
    with cpu_hang_guard(f"the member rule on {name}"):
        redact_text(text)
        secret_values_in_text(text)
        Masker(["bench-token"]).text(text)


def test_a_value_holding_member_names_is_one_value() -> None:
    # `password: password: …` is one value running to the end of the line, as the member rule
    # hides it: not a value again from each word (the values kept grew as the square of the line)
    text = "{ " + "password: " * 2_000
    found = secret_values_in_text(text)
    assert found == [text[len("{ password: "):].rstrip()]
    assert redact_text(text) == "{ password: <redacted> "
