"""vora's cache of the parses of big config files (core/config/parse_cache.py).

What it must never do: change an answer or an edit. Every test compares what a run answered from
the cache with what a run that parsed answered, and counts the parses (the work the cache saves)
instead of timing anything.
"""

from __future__ import annotations

import marshal
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from vora_cli.core.config import parse_cache
from vora_cli.core.config.loading import PARSE_CACHE_MIN_BYTES
from vora_cli.core.json5 import parser as parser_module
from vora_cli.core.userdirs import cache_dir


def big_config(sections: int = 560) -> str:
    """A commented config over the cache's 64 KiB: block and line comments, hex, trailing commas."""
    parts = ["// a big config\n{\n  gateway: { port: 18789, bind: 'loopback' },\n"]
    for i in range(sections):
        parts.append(f"  /* section {i} */\n  section{i}: {{\n    name: 'block {i}', // its label\n"
                     f"    values: [1, 0x1F, .5, {{ deep: [true, null] }},],\n  }},\n")
    parts.append("  agents: { list: [ { id: 'main' }, ], },\n}\n")
    text = "".join(parts)
    assert len(text.encode()) >= PARSE_CACHE_MIN_BYTES
    return text


@pytest.fixture
def state(tmp_path: Path) -> Path:
    folder = tmp_path / "state"
    folder.mkdir()
    (folder / "vora.json").write_text(big_config())
    return folder


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text parsed whole in this test (a cache hit parses none)."""
    seen: list[int] = []
    real = parser_module.Parser.parse

    def counting(self: parser_module.Parser) -> Any:
        seen.append(len(self.text))
        return real(self)

    monkeypatch.setattr(parser_module.Parser, "parse", counting)
    return seen


def _run(vora: Callable[..., Any], state: Path, *args: str) -> tuple[int, str, str]:
    """One command, as a new process would run it (the cache's per-process state afresh)."""
    parse_cache._state.clear()
    run = vora("--state-dir", str(state), *args)
    return run.exit_code, run.stdout, run.stderr


def _parsing(vora: Callable[..., Any], state: Path, *args: str) -> tuple[int, str, str]:
    """The same command with the cache out of the way (it parses; what it keeps is dropped)."""
    folder = cache_dir() / parse_cache.FOLDER
    away = folder.with_name("away")
    if folder.exists():
        os.rename(folder, away)
    try:
        return _run(vora, state, *args)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if away.exists():
            os.rename(away, folder)


def _big(seen: list[int]) -> list[int]:
    return [n for n in seen if n >= PARSE_CACHE_MIN_BYTES]


def _entries() -> list[Path]:
    folder = cache_dir() / parse_cache.FOLDER
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".")) if folder.exists() else []


def test_a_big_config_is_parsed_once_then_read_from_the_cache(vora: Callable[..., Any], state: Path,
                                                              parses: list[int]) -> None:
    cold = _run(vora, state, "config", "get", "agents", "--json")
    assert cold[0] == 0 and len(_big(parses)) == 1
    [entry] = _entries()
    assert entry.stat().st_mode & 0o777 == 0o600 and entry.parent.stat().st_mode & 0o777 == 0o700
    parses.clear()
    for args in (("config", "get", "agents", "--json"), ("config", "validate", "--json"), ("config", "get", "section7")):
        warm = _run(vora, state, *args)
        assert not _big(parses), args
        assert warm == _parsing(vora, state, *args), args
        parses.clear()


def test_every_edit_keeps_the_parse_of_what_it_wrote(vora: Callable[..., Any], state: Path, tmp_path: Path,
                                                    parses: list[int]) -> None:
    edits = [
        ("config", "set", "gateway.port", "20000"),
        ("config", "set", "section3.values[3].deep[1]", "{a: [1, 2]}"),
        ("config", "set", "section0.added", "'new'"),
        ("config", "unset", "section10"),
        ("config", "set", "agents.list[1]", "{id: 'second'}"),
        ("config", "set", "section559.values[0]", "7"),
    ]
    cold_state = tmp_path / "cold"
    cold_state.mkdir()
    (cold_state / "vora.json").write_text(big_config())
    _run(vora, state, "config", "get", "gateway.port")  # the first parse
    for args in edits:
        parses.clear()
        assert _run(vora, state, *args)[0] == 0, args
        assert not _big(parses), args  # answered from the parse the previous command kept
        assert _parsing(vora, cold_state, *args)[0] == 0  # the same edit, parsed from the text
        assert (state / "vora.json").read_bytes() == (cold_state / "vora.json").read_bytes(), args
    parses.clear()
    assert _run(vora, state, "config", "get", "agents.list[1].id") == (0, "second\n", "")
    assert not _big(parses)


def test_a_small_config_never_touches_the_cache(vora: Callable[..., Any], tmp_path: Path) -> None:
    small = tmp_path / "small"
    small.mkdir()
    (small / "vora.json").write_text("{ gateway: { port: 18789 } }\n")
    assert _run(vora, small, "config", "set", "gateway.port", "1")[0] == 0
    assert not (cache_dir() / parse_cache.FOLDER).exists()


def _valid_entry(vora: Callable[..., Any], state: Path) -> Path:
    _run(vora, state, "config", "get", "gateway.port")
    [entry] = _entries()
    return entry


def _rewrite(entry: Path, change: Callable[[Any], Any]) -> None:
    """The entry with its payload changed and its digest made right again."""
    data = entry.read_bytes()
    head = len(parse_cache._MAGIC) + parse_cache._DIGEST
    payload = marshal.dumps(change(marshal.loads(data[head:])), 4)
    entry.write_bytes(parse_cache._MAGIC + parse_cache._blake(payload) + payload)


def _truncate(entry: Path) -> None:
    entry.write_bytes(entry.read_bytes()[:-100])


def _flip_payload(entry: Path) -> None:
    data = bytearray(entry.read_bytes())
    data[len(data) // 2] ^= 0x01
    entry.write_bytes(bytes(data))


def _flip_digest(entry: Path) -> None:
    data = bytearray(entry.read_bytes())
    data[len(parse_cache._MAGIC) + 3] ^= 0x80
    entry.write_bytes(bytes(data))


def _shift_layout(entry: Path) -> None:
    _rewrite(entry, lambda p: (p[0], {s + 1: e + 1 for s, e in p[1].items()}, p[2], p[3]))


def _bad_top(entry: Path) -> None:
    _rewrite(entry, lambda p: (p[0], p[1], (0, 10**9), p[3]))


def _not_a_tuple(entry: Path) -> None:
    _rewrite(entry, lambda p: [p])


def _writable_by_others(entry: Path) -> None:
    entry.chmod(0o666)


def _a_link(entry: Path) -> None:
    real = entry.with_name("elsewhere")
    entry.rename(real)
    entry.symlink_to(real)


def _a_folder(entry: Path) -> None:
    entry.unlink()
    entry.mkdir()


@pytest.mark.parametrize("damage", [_truncate, _flip_payload, _flip_digest, _shift_layout, _bad_top, _not_a_tuple,
                                    _writable_by_others, _a_link, _a_folder])
def test_a_damaged_or_foreign_entry_is_a_miss(vora: Callable[..., Any], state: Path, parses: list[int],
                                             damage: Callable[[Path], None]) -> None:
    expected = _run(vora, state, "config", "get", "section5", "--json")
    damage(_valid_entry(vora, state))
    parses.clear()
    assert _run(vora, state, "config", "get", "section5", "--json") == expected
    assert len(_big(parses)) == 1  # parsed again: the entry was not used


def test_another_parser_forgets_every_parse(vora: Callable[..., Any], state: Path, parses: list[int]) -> None:
    _valid_entry(vora, state)
    parses.clear()
    parse_cache._state.clear()
    parse_cache._state["parser"] = "another parser\0"
    run = vora("--state-dir", str(state), "config", "get", "gateway.port")
    assert run.exit_code == 0 and len(_big(parses)) == 1


def test_a_file_that_does_not_parse_is_never_cached(vora: Callable[..., Any], state: Path, parses: list[int]) -> None:
    text = big_config().replace("section42: {", "section42: {{", 1)
    (state / "vora.json").write_text(text)
    first = _run(vora, state, "config", "get", "gateway.port")
    second = _run(vora, state, "config", "get", "gateway.port")
    assert first == second and first[0] != 0 and "vora.json:215:15: unexpected" in first[2]
    assert len(_big(parses)) == 2 and not _entries()


def test_an_unwritable_cache_dir_changes_nothing_but_the_speed(vora: Callable[..., Any], state: Path) -> None:
    cache_dir().parent.mkdir(parents=True, exist_ok=True)
    cache_dir().write_text("not a folder")
    assert _run(vora, state, "config", "set", "gateway.port", "20000")[0] == 0
    assert _run(vora, state, "config", "get", "gateway.port") == (0, "20000\n", "")


def test_at_most_max_files_parses_are_kept(vora: Callable[..., Any], state: Path) -> None:
    for port in range(parse_cache.MAX_FILES + 4):
        assert _run(vora, state, "config", "set", "gateway.port", str(20000 + port))[0] == 0
    assert len(_entries()) == parse_cache.MAX_FILES


SECRETS = ("tok-0123456789abcdef", "hunter2-password", "sk-key-one", "sk-key-two", "pa55word", "nested-secret-7")


def secret_config() -> str:
    text = big_config().replace(
        "  gateway: { port: 18789, bind: 'loopback' },\n",
        "  gateway: { port: 18789, bind: 'loopback', auth: { token: 'tok-0123456789abcdef' } },\n"
        "  channels: { slack: { botToken: \"hunter2-password\", apiKeys: ['sk-key-one', { value: 'sk-key-two' }] } },\n"
        "  models: { base: 'https://user:pa55word@models.example/v1', plain: 'no url here' },\n"
        "  plugins: { entries: { 'token-counter': { enabled: true, config: { secret: { deep: ['nested-secret-7'] } } } } },\n",
        1)
    return text


def test_no_secret_is_kept_in_the_cache_and_every_one_reads_back(vora: Callable[..., Any], state: Path,
                                                                 parses: list[int]) -> None:
    (state / "vora.json").write_text(secret_config())
    args = ("config", "get", "--json", "--reveal")
    for path in ("gateway", "channels", "models", "plugins", "section3"):
        cold = _parsing(vora, state, *args, path)
        _run(vora, state, *args, path)  # keeps the parse
        parses.clear()
        assert _run(vora, state, *args, path) == cold, path
        assert not _big(parses), path
    [entry] = _entries()
    data = entry.read_bytes()
    for secret in SECRETS:
        assert secret.encode() not in data, secret
    assert b"no url here" in data and b"token-counter" in data  # the rest is kept


def test_an_edit_keeps_no_secret_either(vora: Callable[..., Any], state: Path, parses: list[int]) -> None:
    (state / "vora.json").write_text(secret_config())
    assert _run(vora, state, "config", "set", "gateway.auth.token", "'tok-new-fedcba9876543210'")[0] == 0
    parses.clear()
    assert _run(vora, state, "config", "get", "gateway.auth.token", "--reveal") == (0, "tok-new-fedcba9876543210\n", "")
    assert not _big(parses)
    for entry in _entries():
        data = entry.read_bytes()
        assert b"tok-new-fedcba9876543210" not in data and b"tok-0123456789abcdef" not in data


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, i))]
    return [(path, value)]


@pytest.mark.parametrize("text", [
    '{gateway: {auth: {token: "t-1"}}, a: 1}',
    '{"\\u0074oken": "escaped-name", b: "x"}',  # the name spelled with an escape
    '{"to\\u212aen": "kelvin-sign", c: 2}',  # IGNORECASE folds U+212A to k
    '{"to\u212aen": "kelvin-raw", d: 3}'.encode().decode("unicode_escape"),  # the sign itself
    '{u: "https:\\/\\/user:pw-escaped@host/x"}',
    '{u: ["https://user:pw-plain@host/x", "ftp://h/?api_key=qk"]}',
    '{plugins: {entries: {"token-counter": {enabled: true, config: {apiKey: "pk"}}}}}',
    '{list: [{password: {deep: ["p1", {x: "p2"}]}}, {cookie: "c"}], "x-api-key": "h"}',
    '{nothing: "to hide", n: [1, 2, {m: null}]}',
])
def test_every_secret_is_in_a_hole(text: str) -> None:
    from vora_cli.core.json5.parser import loads
    from vora_cli.core.secrets import redact

    value = loads(text)
    from vora_cli.core.secrets import secret_paths

    holes = secret_paths(value, text)
    shown = dict(_leaves(redact(value)))
    for path, leaf in _leaves(value):
        if shown.get(path) != leaf or (isinstance(leaf, str) and "://" in leaf):
            assert any(path[:len(h)] == h for h in holes), (path, holes)
    if "hide" in text:
        assert holes == []


def _padded(body: str) -> str:
    return body + "// padding the text over the cache's 64 KiB, as a big config is\n" * 1100


def test_a_text_with_a_nan_is_parsed_every_time_and_says_the_same(vora: Callable[..., Any], state: Path,
                                                                   parses: list[int]) -> None:
    (state / "vora.json").write_text(_padded("{\n  gateway: { port: 18789 },\n  n: [NaN],\n}\n"))
    first = _run(vora, state, "config", "set", "extra", "1")
    second = _run(vora, state, "config", "set", "extra", "1")
    assert first == second and "Unrecognized key: \"extra\"" in first[2]  # not "keys n, extra"
    assert len(_big(parses)) == 2 and not _entries()


def _entry_with(vora: Callable[..., Any], state: Path, change: Callable[[dict[int, int]], dict[int, int]]) -> None:
    _run(vora, state, "config", "get", "gateway.port")
    [entry] = _entries()
    _rewrite(entry, lambda p: (p[0], change(p[1]), p[2], p[3], p[4]))


@pytest.mark.parametrize("kind", ["an end at a later bracket of its kind", "an end left out"])
def test_a_layout_the_text_does_not_have_is_found_by_the_editor_and_nothing_is_lost(
        vora: Callable[..., Any], state: Path, tmp_path: Path, kind: str) -> None:
    text = _padded("{\n  a: [1],\n  b: [2],\n  gateway: { port: 18789 },\n}\n")
    (state / "vora.json").write_text(text)
    a, b = text.index("[1]"), text.index("[2]")

    def wrong(ends: dict[int, int]) -> dict[int, int]:
        if kind == "an end left out":
            return {s: e for s, e in ends.items() if s != a}
        return {**ends, a: b + 3}  # a's "]" moved onto b's: it would swallow b

    _entry_with(vora, state, wrong)
    assert _run(vora, state, "config", "set", "a", "5")[0] == 0
    assert (state / "vora.json").read_text() == text.replace("a: [1]", "a: 5")
    assert _run(vora, state, "config", "get", "b", "--json")[1].strip().endswith('"value": [2], "source": "file"}')


def test_nothing_is_read_written_or_pruned_through_a_linked_cache_folder(vora: Callable[..., Any], state: Path,
                                                                         tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    for i in range(parse_cache.MAX_FILES + 4):
        (mine / f"{i:064x}").write_text("the user's own file")
    cache_dir().mkdir(parents=True)
    (cache_dir() / parse_cache.FOLDER).symlink_to(mine)
    for _ in range(2):
        assert _run(vora, state, "config", "get", "gateway.port")[0] == 0
    assert sorted(p.name for p in mine.iterdir()) == [f"{i:064x}" for i in range(parse_cache.MAX_FILES + 4)]


def test_pruning_removes_only_what_the_cache_names(vora: Callable[..., Any], state: Path) -> None:
    folder = cache_dir() / parse_cache.FOLDER
    folder.mkdir(parents=True, mode=0o700)
    (folder / "notes.txt").write_text("not an entry")
    for port in range(parse_cache.MAX_FILES + 2):
        assert _run(vora, state, "config", "set", "gateway.port", str(21000 + port))[0] == 0
    assert (folder / "notes.txt").exists() and len(_entries()) == parse_cache.MAX_FILES + 1  # notes.txt too


def test_an_entry_too_big_to_be_a_parse_is_not_read(vora: Callable[..., Any], state: Path, parses: list[int]) -> None:
    entry = _valid_entry(vora, state)
    with entry.open("r+b") as handle:
        handle.truncate(parse_cache.MAX_ENTRY_BYTES + 1)  # sparse: no disk used
    parses.clear()
    assert _run(vora, state, "config", "get", "gateway.port") == (0, "18789\n", "")
    assert len(_big(parses)) == 1


def test_gateway_secret_targets_are_holes_and_a_url_in_a_key_is_not_kept(vora: Callable[..., Any], state: Path) -> None:
    (state / "vora.json").write_text(_padded(
        "{\n  gateway: { port: 18789 },\n"
        "  channels: { feishu: { encryptKey: 'FEISHU-SEKRET' }, googlechat: { serviceAccount: 'SA-SEKRET' } },\n"
        "  models: { providers: { p: { request: { auth: { value: 'AUTH-SEKRET' }, tls: { passphrase: 'TLS-SEKRET' } } } } },\n"
        "}\n"))
    assert _run(vora, state, "config", "get", "gateway.port")[0] == 0
    [entry] = _entries()
    assert b"SEKRET" not in entry.read_bytes()
    shutil.rmtree(cache_dir() / parse_cache.FOLDER)
    (state / "vora.json").write_text(_padded("{\n  gateway: { port: 18789 },\n  hooks: { 'https://u:KEY-SEKRET@h/': 1 },\n}\n"))
    assert _run(vora, state, "config", "get", "gateway.port")[0] == 0
    assert not _entries()


def test_a_config_of_thousands_of_urls_is_not_kept(vora: Callable[..., Any], state: Path) -> None:
    urls = ", ".join(f"'https://hooks.example/{i}'" for i in range(parse_cache.MAX_HOLES + 1))
    (state / "vora.json").write_text(_padded(f"{{\n  gateway: {{ port: 18789 }},\n  hooks: [{urls}],\n}}\n"))
    assert _run(vora, state, "config", "get", "hooks[3]") == (0, "https://hooks.example/3\n", "")
    assert not _entries()
