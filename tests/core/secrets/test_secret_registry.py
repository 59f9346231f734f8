"""The one secret rule knows the gateway's registry and values that say they are secrets (issue 35,
point 1). The registry is the release's own (openclaw 2026.4.12, `listSecretTargetRegistryEntries`,
recorded by scripts/gen_secret_targets.py); the commands' side is tests/cli/config/test_secret_registry.py.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hang_guard import cpu_hang_guard
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.secrets import (
    GATEWAY_SECRET_TARGETS,
    REDACTED,
    follows_secret_flag,
    is_secret_name,
    is_secret_path,
    order_for_scrub,
    redact,
    redact_string,
    scrub,
    secret_values,
    shaped_spans,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "upstream" / "secret-targets-openclaw-2026.4.12.json"
REGISTRY = json.loads(DATA.read_text())["entries"]
CONFIG_PATTERNS = sorted({e["pathPattern"] for e in REGISTRY if e["configFile"] == "openclaw.json"})


def _segments(pattern: str) -> tuple[str, ...]:
    """A registry pattern as vora's path segments: `[]` (an array element) is kept as its own segment."""
    out: list[str] = []
    for part in pattern.split("."):
        if part.endswith("[]"):
            out += [part[:-2], "[]"]
        else:
            out.append(part)
    return tuple(out)


def _concrete(pattern: str, fill: str = "acct-1") -> tuple[str | int, ...]:
    return tuple(0 if seg == "[]" else fill if seg == "*" else seg for seg in _segments(pattern))


def test_the_registry_was_recorded_whole() -> None:
    assert len(CONFIG_PATTERNS) > 70
    assert "channels.feishu.accounts.*.encryptKey" in CONFIG_PATTERNS


@pytest.mark.parametrize("pattern", CONFIG_PATTERNS)
@pytest.mark.parametrize("fill", ["acct-1", "default", "token-counter"])
def test_every_registry_path_is_secret(pattern: str, fill: str) -> None:
    path = _concrete(pattern, fill)
    assert is_secret_path(path)
    assert is_secret_path((*path, "nested"))  # everything below it too: a service account may be an object


def test_the_targets_are_the_registry_paths_the_name_rule_misses() -> None:
    missed = {_segments(p) for p in CONFIG_PATTERNS if not any(is_secret_name(seg) for seg in _segments(p))}
    assert set(GATEWAY_SECRET_TARGETS) == missed


@pytest.mark.parametrize("path", [
    ("channels", "feishu", "appId"), ("channels", "feishu", "accounts", "a", "appId"),
    ("models", "providers", "x", "request", "tls", "insecure"), ("models", "providers", "x", "baseUrl"),
    ("models", "providers"), ("channels", "googlechat", "accounts"), ("models", "headers", "x"),
])
def test_paths_beside_the_targets_are_not(path: tuple[str, ...]) -> None:
    assert not is_secret_path(path)


def _tree_of_every_target() -> tuple[dict[str, Any], set[str]]:
    tree: dict[str, Any] = {}
    secrets: set[str] = set()
    for i, pattern in enumerate(CONFIG_PATTERNS):
        path = _concrete(pattern)
        value = f"reg-secret-{i:03d}"
        secrets.add(value)
        node: Any = tree
        for seg, nxt in pairwise(path):
            if isinstance(seg, int):
                continue
            node = node.setdefault(seg, [{}])[0] if isinstance(nxt, int) else node.setdefault(seg, {})
        node[path[-1]] = value
    return tree, secrets


def test_redact_and_the_collector_agree_on_every_registry_path() -> None:
    tree, secrets = _tree_of_every_target()
    shown = json.dumps(redact(tree))
    assert not [s for s in secrets if s in shown]
    assert secrets <= secret_values(tree)
    for top in tree:  # a subtree knows its path
        assert not [s for s in secrets if s in json.dumps(redact(tree[top], (top,)))]


# -- values that say so --------------------------------------------------------------------------

SAID = [
    ("Bearer sk-live-1234", "Bearer <redacted>"),
    ("  bearer abc", "  bearer <redacted>"),  # a scheme nobody writes in prose: any credential
    ("Basic dXNlcjpwdw==", "Basic <redacted>"),
    ('Digest username="u", realm="r", response="9f0e"', "Digest <redacted>"),
    ("AWS4-HMAC-SHA256 Credential=AKIA/2026, Signature=ab12", "AWS4-HMAC-SHA256 <redacted>"),
    ("Token t0k3n-value", "Token <redacted>"),
    ("Authorization: Bearer x1", "Authorization: <redacted>"),
    ("x-api-key: k-1234", "x-api-key: <redacted>"),
    ("OPENAI_API_KEY=sk-1234", "OPENAI_API_KEY=<redacted>"),
    ("export GITHUB_TOKEN=ghp_x1", "export GITHUB_TOKEN=<redacted>"),
    ("--api-key=k-1234", "--api-key=<redacted>"),
    ("node s.js --token abc --port 1", "node s.js --token <redacted> --port 1"),
    ("run -password 'two words' -v", "run -password '<redacted>' -v"),
    ('run --secret="quoted value"', 'run --secret="<redacted>"'),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIb\n-----END RSA PRIVATE KEY-----",
     "-----BEGIN RSA PRIVATE KEY-----<redacted>-----END RSA PRIVATE KEY-----"),
    ("-----BEGIN PRIVATE KEY-----\ncut", "-----BEGIN PRIVATE KEY-----<redacted>"),
]
PLAIN = [
    "Token budget", "Key rotation", "Basic setup for the bot", "Digest", "Bearer", "mutual friends here",
    "--no-token-check --verbose", "tokenizer.local:8080", "https://token.example/v1", "use the token wisely",
    "password reset: ask ops", "--port 8080", "-----BEGIN CERTIFICATE-----\nMIIb\n-----END CERTIFICATE-----",
    "a plain sentence about keys", "",
    'a raw log line: --token \\"left-to-the-masker\\"',  # JSON text inside: the masker's escaped patterns read it whole
]


@pytest.mark.parametrize(("value", "shown"), SAID)
def test_a_value_that_says_it_is_a_secret_is_hidden(value: str, shown: str) -> None:
    assert redact_string(value) == shown
    assert redact({"neutral": value}) == {"neutral": shown}
    hidden = {value[s:e] for s, e in shaped_spans(value)}
    assert hidden <= secret_values({"neutral": value}) | {h for h in hidden if len(h.strip()) < 3}


@pytest.mark.parametrize("value", PLAIN)
def test_a_value_that_says_nothing_is_kept(value: str) -> None:
    assert redact_string(value) == value
    assert shaped_spans(value) == []


@pytest.mark.parametrize(("args", "hidden"), [
    (["--api-key", "k-1"], [1]),
    (["-H", "X", "--hook-token", "t-2", "--port", "1"], [3]),
    (["--password", "--verbose"], []),  # a long flag is no value
    (["--token"], []),
    (["--TOKEN", 12345], [1]),  # a number is a value too
    (["--port", "1", "token", "x"], []),  # a bare word is no flag
])
def test_the_element_after_a_secret_flag_is_secret(args: list[Any], hidden: list[int]) -> None:
    shown = redact({"args": args})["args"]
    assert [i for i, (a, b) in enumerate(zip(args, shown, strict=True)) if a != b] == hidden
    assert [i for i in range(len(args)) if follows_secret_flag({"args": args}, ("args", i))] == hidden
    assert all(shown[i] == REDACTED for i in hidden)
    assert all(redact(args[i], ("args", i), said=True) == REDACTED for i in hidden)


def test_the_json_form_of_a_secret_is_scrubbed_too() -> None:
    secret = '{"private_key": "-----BEGIN…", "id": "x"}'
    for ascii_only in (True, False):
        text = 'serviceAccount: "' + json.dumps(secret, ensure_ascii=ascii_only)[1:-1] + '",'
        assert scrub(text, order_for_scrub({secret})) == "serviceAccount: \"<redacted>\","


@pytest.mark.parametrize("blob", [
    "-a " * 700_000, "--token=" * 260_000, "-----BEGIN " * 190_000, "-----BEGIN " + "A" * 2_000_000,
    "Bearer " + "x" * 2_000_000, "token: " + "-" * 2_000_000, "x-api-key" * 230_000,
])
def test_the_value_rule_finishes_on_2_mib(blob: str) -> None:
    with cpu_hang_guard("shaped_spans on 2 MiB"):
        redact_string(blob)
        secret_values({"v": blob, "a": ["--token", blob]})


# -- a property: secrets planted anywhere in a config shape ---------------------------------------

NEUTRAL_KEYS = st.sampled_from(["name", "config", "list", "mode", "x", "headers", "accounts", "value", "key"])
LEAVES = st.one_of(st.integers(-5, 5), st.booleans(), st.none(), st.sampled_from(["on", "a b", "Token budget", "--v"]))
TREES = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(NEUTRAL_KEYS, inner, max_size=4)), max_leaves=20)


def _plant(tree: Any, where: list[int], secret: str, how: int) -> Any:
    """`tree` with `secret` planted in one shape (`how`) at a spot `where` picks."""
    shapes: list[Any] = [
        {"models": {"providers": {"p": {"request": {"proxy": {"tls": {"key": secret}}}}}}},
        {"channels": {"googlechat": {"accounts": {"a": {"serviceAccount": {"k": [secret]}}}}}},
        {"args": ["-v", "--api-key", secret]},
        {"headers": {"X-Custom": f"Bearer {secret}"}},
        {"env": [f"SLACK_BOT_TOKEN={secret}"]},
        {"cmd": f"serve --password {secret} --quiet"},
    ]
    shape = shapes[how % len(shapes)]
    if how % len(shapes) < 2:  # the gateway's paths start at the config's top
        where = []
    if not isinstance(tree, dict):
        return {**shape, "rest": tree}
    keys = sorted(tree)
    if keys and where and isinstance(tree[keys[where[0] % len(keys)]], dict):
        key = keys[where[0] % len(keys)]
        return {**tree, key: _plant(tree[key], where[1:], secret, how)}
    return {**tree, **shape}


@settings(max_examples=150)
@given(TREES, st.lists(st.integers(0, 7), max_size=4), st.integers(0, 5))
def test_a_planted_secret_is_hidden_and_collected(tree: Any, where: list[int], how: int) -> None:
    secret = "pl4nted-s3cret"
    planted = _plant(tree, where, secret, how)
    assert secret not in json.dumps(redact(planted))
    assert secret in secret_values(planted)


PIECES = st.sampled_from(["Bearer ", "basic ", "\t", " ", "token", "--api-key", "=", ": ", "x1", "\n", "Ⓐ", "K",
                          "-----BEGIN RSA PRIVATE KEY-----", "PASSWORD", "digest", "mac ", "key"])


@given(st.lists(st.lists(PIECES, max_size=6).map("".join), max_size=12))
def test_the_sift_keeps_every_value_that_says_something(texts: list[str]) -> None:
    """`secret_values` runs the value rule only on the strings its joined search keeps: it must keep
    every one the rule finds something in."""
    from vora_cli.core.secrets import _saying

    kept = set(_saying(list(dict.fromkeys(texts))))
    assert {t for t in texts if shaped_spans(t)} <= kept


def test_a_secret_ref_holds_names_not_the_secret() -> None:
    """A SecretRef is where a secret is kept (`source`, `provider`, `id`): none of its words is
    scrubbed from what a report says ("env", "default" would blank "environment", "by default")."""


    refs = {"channels": {"zalo": {"botToken": {"source": "env", "provider": "default", "id": "ZALO_BOT_TOKEN"}},
                         "telegram": {"botToken": "123456:plain-secret-value"}},
            "models": {"providers": {"a": {"apiKey": [{"source": "file", "provider": "vault", "id": "/run/keys/a"}]}}}}
    found = secret_values(refs)
    assert found == {"123456:plain-secret-value"}
    assert scrub("set in the environment by default", found) == "set in the environment by default"
