"""The one secret rule (vora_cli.core.secrets): which paths are secret, and how values are hidden."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.config.keys import KNOWN_KEYS
from vora_cli.core.secrets import (
    _SECRET_NAME,
    REDACTED,
    is_secret_name,
    is_secret_path,
    may_hold_secret_name,
    redact,
    redact_text,
    redact_urls,
    secret_values,
    secret_values_in_text,
)

TREE = {
    "gateway": {"mode": "local", "auth": {"mode": "token", "token": "gw-token-0001"}},
    "channels": {"slack": {"botTokens": {"main": "xoxb-main-0002"}}},
    "apiKeys": ["sk-array-0004", {"value": "sk-objarr-0006", "n": 42424242}],
    "http": {"headers": {"x-api-key": "hdr-0007", "Authorization": "Bearer hdr-0008", "Set-Cookie": "s=hdr-0009"}},
    "env": {"OPENAI_API_KEY": "env-0010", "PATH_EXTRA": "/opt/bin"},
    "plugins": {"entries": {"token-counter": {"enabled": True, "config": {"label": "visible", "private_key": "pk-0011"}}},
                "installs": {"token-counter": {"source": "path", "installPath": "/x/token-counter"}}},
    "skills": {"entries": {"secret-santa": {"enabled": False}}},
    "ref": {"password": "${GW_PASSWORD}"},
}
SECRETS = {"gw-token-0001", "xoxb-main-0002", "sk-array-0004", "sk-objarr-0006", "42424242", "hdr-0007",
           "Bearer hdr-0008", "s=hdr-0009", "env-0010", "pk-0011"}


@pytest.mark.parametrize("name", ["token", "botTokens", "PASSWORD", "clientSecret", "apiKey", "api_key", "x-api-key",
                                  "privateKey", "private_key", "private-key", "Authorization",
                                  "Proxy-Authorization", "Cookie", "Set-Cookie", "OPENAI_API_KEY"])
def test_secret_names(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize("name", ["mode", "port", "headers", "label", "value", "main", "keys", "api", 0])
def test_plain_names(name: object) -> None:
    assert not is_secret_name(name)


@pytest.mark.parametrize("path", [
    ("gateway", "auth", "token"),
    ("channels", "slack", "botTokens", "main"),  # below a secret-named key
    ("apiKeys", 0),  # an array element
    ("apiKeys", 1, "value"),  # inside an object in an array
    ("http", "headers", "x-api-key"),
    ("plugins", "entries", "token-counter", "config", "private_key"),
])
def test_secret_paths(path: tuple[object, ...]) -> None:
    assert is_secret_path(path)


@pytest.mark.parametrize("path", [
    ("gateway", "auth", "mode"),
    ("plugins", "entries", "token-counter", "enabled"),  # a plugin id is a name, not a secret name
    ("plugins", "installs", "token-counter", "installPath"),
    ("skills", "entries", "secret-santa", "enabled"),
    ("env", "PATH_EXTRA"),
])
def test_plain_paths(path: tuple[object, ...]) -> None:
    assert not is_secret_path(path)


def test_every_key_marked_secret_in_the_table_follows_the_rule() -> None:
    marked = [spec for spec in KNOWN_KEYS if spec.secret]
    assert marked
    for spec in marked:
        assert is_secret_path(spec.pattern), spec.path


def test_redact_hides_every_secret_at_any_depth_and_nothing_else() -> None:
    shown = redact(TREE)
    text = repr(shown)
    for secret in SECRETS:
        assert secret not in text
    assert shown["apiKeys"] == [REDACTED, {"value": REDACTED, "n": REDACTED}]
    assert shown["channels"] == {"slack": {"botTokens": {"main": REDACTED}}}
    assert shown["plugins"]["entries"]["token-counter"] == {"enabled": True,
                                                            "config": {"label": "visible", "private_key": REDACTED}}
    assert shown["gateway"]["auth"]["mode"] == "token"
    assert shown["env"]["PATH_EXTRA"] == "/opt/bin"


def test_redact_of_a_subtree_knows_its_path() -> None:
    assert redact({"main": "xoxb-main-0002"}, ("channels", "slack", "botTokens")) == {"main": REDACTED}
    assert redact("sk-array-0004", ("apiKeys", 0)) == REDACTED
    assert redact(["a", "b"], ("headers", "Cookie")) == [REDACTED, REDACTED]


def test_secret_values_collects_the_same_values_redact_hides() -> None:
    assert secret_values(TREE) == SECRETS  # ${VAR} placeholders stay: the secret is not in the file


@pytest.mark.parametrize("line, secret", [
    ('  token: "abc123456",', "abc123456"),
    ("  'x-api-key': 'hdr-abc-123' }", "hdr-abc-123"),
    ('{"Authorization":"Bearer zz-99","a":1}', "Bearer zz-99"),
    ("  privateKey: unquoted-value-77", "unquoted-value-77"),
    ('+  cookie: "unterminated-cookie', "unterminated-cookie"),
])
def test_redact_text_hides_secret_members(line: str, secret: str) -> None:
    assert secret not in redact_text(line)
    assert REDACTED in redact_text(line)
    assert secret in secret_values_in_text(line)


def test_redact_text_keeps_plain_members_and_scrubs_known_values() -> None:
    assert redact_text('  mode: "token", port: 1') == '  mode: "token", port: 1'
    assert redact_text("main: xoxb-1", ["xoxb-1"]) == f"main: {REDACTED}"


@pytest.mark.parametrize("blob", [
    "A" * (2 * 1024 * 1024),  # a run of identifier characters
    "tokentoken" * 200_000,  # secret words, over and over
    "a-" * 1_000_000,
    '"' + "x" * (2 * 1024 * 1024),  # an unterminated string
])
def test_text_functions_finish_on_a_2_mib_line(blob: str) -> None:
    # No timing assertion: a quadratic pattern does not finish here in any reasonable time.
    redact_text(blob + ": 1")
    redact_text("token: " + blob)
    secret_values_in_text(blob)


@pytest.mark.parametrize(("url", "shown"), [
    ("ws://admin:hunter2pw@127.0.0.1:1/", "ws://admin:<redacted>@127.0.0.1:1/"),
    ("wss://gw.example:443/?token=tok3nvalue&x=1", "wss://gw.example:443/?token=<redacted>&x=1"),
    ("ws://u:hunter2pw@[::1]:9/p?api_key=s3cretkey#f", "ws://u:<redacted>@[::1]:9/p?api_key=<redacted>#f"),
    ("ws://127.0.0.1:18789", "ws://127.0.0.1:18789"),
    ("ws://user@127.0.0.1:1/?a=b", "ws://user@127.0.0.1:1/?a=b"),
])
def test_redact_url(url: str, shown: str) -> None:
    assert redact_urls(url) == shown


@pytest.mark.parametrize(("url", "shown"), [
    ("ws://admin:pa#ss@gw.example:18789", "ws://admin:<redacted>@gw.example:18789"),
    ("ws://admin:pa/ss@gw.example:18789/p?token=t0kenvalue", "ws://admin:<redacted>@gw.example:18789/p?token=<redacted>"),
    ("ws://admin:pa?ss@gw.example", "ws://admin:<redacted>@gw.example"),
    ("ws://admin:p@ss@gw.example:1", "ws://admin:<redacted>@gw.example:1"),
    # an `@` after a real port or path is not user info: the URL is shown as typed
    ("ws://gw.example:1/p?email=a@b", "ws://gw.example:1/p?email=a@b"),
    ("ws://[::1]:9/x@y", "ws://[::1]:9/x@y"),
])
def test_redact_url_finds_user_info_that_ends_the_authority_early(url: str, shown: str) -> None:
    assert redact_urls(url) == shown


@pytest.mark.parametrize(("url", "scrubbed"), [
    ("https://h.example/?sort_key=name", set()),  # a plain word: hidden in the URL, not everywhere
    ("https://h.example/?sort_key=name&token=abcdef123456", {"abcdef123456"}),
    ("wss://admin:pw1@h.example/", {"pw1"}),  # a password, however short
    ("https://h.example/#access_token=eyJhbGciOiJIUzI1NiJ9", {"eyJhbGciOiJIUzI1NiJ9"}),
])
def test_only_token_length_url_values_are_scrubbed_from_other_text(url: str, scrubbed: set[str]) -> None:
    from vora_cli.core.secrets import redact_urls, secret_values

    assert secret_values({"gateway": {"remote": {"url": url}}}) == scrubbed
    if "sort_key" in url:  # still hidden where the URL itself is shown
        assert "sort_key=<redacted>" in redact_urls(url)


_NAME_CHARS = "tokenpaswrdcihyvu_-API$KOE: \"'\u212a\u0130\u0131\u017f\u00e9x"


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(_NAME_CHARS)) | st.characters(), max_size=40))
def test_the_word_test_never_says_no_where_the_secret_name_pattern_finds_one(text: str) -> None:
    """`may_hold_secret_name` lets the member rule skip a text: only where `_SECRET_NAME` finds
    nothing, whatever the case folding (a Kelvin sign is a `k`, `İ` an `i`)."""
    if _SECRET_NAME.search(text) is not None:
        assert may_hold_secret_name(text)
    assert redact_text(text) == _members_redacted(text)


def _members_redacted(text: str) -> str:
    """`redact_text` without the word test: the member rule on every text."""
    from vora_cli.core import secrets

    return secrets.scrub(secrets.hide_member_values(text) if ":" in text else text, ())


@pytest.mark.parametrize("text", ['{"apiKey": "k-1"}', "TOKEN: abc", "x-api-key: 1", "api\u212aey: 1",
                                  '{"Cookie": "s=1"}', "private_key: pk", "no secrets: here"])
def test_the_member_rule_still_hides_every_secret_named_member(text: str) -> None:
    assert redact_text(text) == _members_redacted(text)


def _redact_asking_every_path(value: object, path: tuple[object, ...] = ()) -> object:
    """`redact` as first written: the path rule asked again at every node."""
    from vora_cli.core.secrets import _redact_all, redact_urls

    if path and is_secret_path(path):
        return _redact_all(value)
    if isinstance(value, dict):
        return {k: _redact_asking_every_path(v, (*path, k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_redact_asking_every_path(v, (*path, i)) for i, v in enumerate(value)]
    if isinstance(value, str) and "://" in value:
        return redact_urls(value)
    return value


_KEYS = st.sampled_from(["plugins", "skills", "entries", "installs", "token", "apiKeys", "my-token", "config", "x", ""])
_TREES = st.recursive(st.sampled_from(["", "v", "wss://u:pw@h/?token=abc", "https://h/?q=1"]) | st.integers() | st.none(),
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=16)


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@settings(max_examples=300, deadline=None)
@given(_TREES, st.lists(_KEYS, max_size=3))
def test_redact_judges_each_key_once_as_the_whole_path_rule_would(tree: object, path: list[str]) -> None:
    # a child's path is secret only when its own key is (the name slots `plugins.entries.<id>` included)
    assert redact(tree, tuple(path)) == _redact_asking_every_path(tree, tuple(path))
    assert redact({"plugins": {"entries": {"token-counter": tree}}}) == _redact_asking_every_path(
        {"plugins": {"entries": {"token-counter": tree}}})
