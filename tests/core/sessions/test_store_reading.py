"""Reading `sessions.json` one member at a time gives what `json.loads` of the whole file gives,
for every chunk size; a file it cannot read so goes through the whole-file parse (one error
message for every bad file); the gateway-layout scan of `context --session` finds what the key
rules can pick; a store over the size limit is refused unread."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vora_cli.core.agents import StoreTarget
from vora_cli.core.sessions import storefile
from vora_cli.core.sessions.jsfmt import loads
from vora_cli.core.sessions.store import (
    Store,
    StoreError,
    _read_whole,
    read_store,
    read_store_candidates,
    read_store_entries,
)

keys = st.one_of(st.sampled_from(["agent:main:main", "Agent:Main:Main", "agent:main:telegram:direct:u1", "global"]),
                 st.text(max_size=12))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)
entries = st.dictionaries(st.sampled_from(["sessionId", "updatedAt", "label", "x"]), values, max_size=4)
stores = st.lists(st.tuples(keys, st.one_of(entries, scalars)), max_size=8)


def _write(tmp: Path, text: str | bytes) -> StoreTarget:
    path = tmp / "sessions.json"
    path.write_bytes(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    return StoreTarget("main", path, True)


def _dump(members: list[tuple[str, Any]], indent: int | None, ensure_ascii: bool) -> str:
    """A JSON object with these members, duplicates kept (json.dumps of a dict cannot have any)."""
    if not members:
        return "{}"
    if indent is None:
        return "{" + ", ".join(json.dumps(k, ensure_ascii=ensure_ascii) + ": " + json.dumps(v, ensure_ascii=ensure_ascii)
                               for k, v in members) + "}"
    pad = " " * indent
    body = (",\n" + pad).join(
        json.dumps(k, ensure_ascii=ensure_ascii) + ": " + json.dumps(v, indent=indent, ensure_ascii=ensure_ascii)
        .replace("\n", "\n" + pad) for k, v in members)
    return "{\n" + pad + body + "\n}"


def _expected(text: str | bytes) -> dict[str, Any]:
    value = loads(text)
    return {k: v for k, v in value.items() if isinstance(v, dict)}


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(members=stores, indent=st.sampled_from([None, 0, 2, 4]), ensure_ascii=st.booleans(),
       chunk=st.integers(1, 64), trailing=st.sampled_from(["", "\n", " \n\t"]))
def test_member_reading_equals_json_loads(tmp_path: Path, members: list[tuple[str, Any]], indent: int | None,
                                          ensure_ascii: bool, chunk: int, trailing: str) -> None:
    text = _dump(members, indent, ensure_ascii) + trailing
    target = _write(tmp_path, text)
    saved = storefile.CHUNK_BYTES
    storefile.CHUNK_BYTES = chunk
    try:
        store = read_store(target)
    finally:
        storefile.CHUNK_BYTES = saved
    assert isinstance(store, Store)
    assert store.entries == _expected(text)
    assert list(store.entries) == list(_expected(text))  # file order, a duplicate in its first place


blanks = st.text(alphabet=" \t\n\r", max_size=3)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(members=stores, before=blanks, after=blanks, around=blanks, chunk=st.integers(1, 64))
def test_any_blanks_around_colons_and_commas_read_as_json_loads(tmp_path: Path, members: list[tuple[str, Any]],
                                                                before: str, after: str, around: str,
                                                                chunk: int) -> None:
    """The member reader tries the gateway's `"key": value,` with character comparisons before
    its whitespace regex: every other spacing JSON allows reads the same."""
    text = "{" + around + ("," + around).join(json.dumps(k) + before + ":" + after + json.dumps(v) + around
                                                for k, v in members) + "}"
    target = _write(tmp_path, text)
    saved = storefile.CHUNK_BYTES
    storefile.CHUNK_BYTES = chunk
    try:
        store = read_store(target)
    finally:
        storefile.CHUNK_BYTES = saved
    assert isinstance(store, Store)
    assert list(store.entries.items()) == list(_expected(text).items())


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(members=stores.filter(bool), cut=st.integers(0, 10_000), junk=st.sampled_from(["", "x", "}", ",", "\x00", "NaN",
                                                                                      "\ud800", "\ufeff"]),
       chunk=st.integers(1, 64))
def test_a_damaged_store_gets_the_whole_file_error(tmp_path: Path, members: list[tuple[str, Any]], cut: int, junk: str,
                                                  chunk: int) -> None:
    text = _dump(members, 2, False)
    cut %= len(text) + 1
    damaged = text[:cut] + junk + text[cut:] if junk else text[:cut]
    data = damaged.encode("utf-8", "surrogatepass")
    target = _write(tmp_path, data)
    saved = storefile.CHUNK_BYTES
    storefile.CHUNK_BYTES = chunk
    try:
        store = read_store(target)
    finally:
        storefile.CHUNK_BYTES = saved
    assert store == _read_whole(target, data)


def test_a_bom_and_utf16_read_as_json_loads_reads_them(tmp_path: Path) -> None:
    text = json.dumps({"agent:main:main": {"sessionId": "s1"}}, indent=2)
    for data in (b"\xef\xbb\xbf" + text.encode(), text.encode("utf-16-le"), text.encode("utf-16")):
        store = read_store(_write(tmp_path, data))
        assert isinstance(store, Store) and store.entries == {"agent:main:main": {"sessionId": "s1"}}


def test_keep_sees_each_entry_once_and_what_it_returns_is_kept(tmp_path: Path) -> None:
    seen: list[str] = []

    def keep(entry: dict[str, Any]) -> dict[str, Any]:
        seen.append(entry["sessionId"])
        return {"sessionId": entry["sessionId"]}

    target = _write(tmp_path, json.dumps({f"k{i}": {"sessionId": f"s{i}", "big": "x" * 100} for i in range(50)}, indent=2))
    store = read_store_entries(target, keep)
    assert isinstance(store, Store)
    assert seen == [f"s{i}" for i in range(50)]
    assert store.entries["k7"] == {"sessionId": "s7"}


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(members=st.lists(st.tuples(keys, st.one_of(entries, st.just({"sessionId": "agent:main:main"}), scalars)),
                        max_size=8),
       indent=st.sampled_from([None, 2, 4]), wanted=keys, chunk=st.integers(1, 64))
def test_the_layout_scan_finds_every_entry_the_key_rules_can_pick(tmp_path: Path, members: list[tuple[str, Any]],
                                                                  indent: int | None, wanted: str, chunk: int) -> None:
    text = _dump(members, indent, False) + "\n"
    target = _write(tmp_path, text)
    saved = storefile.CHUNK_BYTES
    storefile.CHUNK_BYTES = chunk
    try:
        found = read_store_candidates(target, {wanted.lower()}, wanted)
    finally:
        storefile.CHUNK_BYTES = saved
    full = _expected(text)
    if found is None:  # not the gateway's layout (or an entry it would parse does not): read whole
        assert indent != 2 or not all(isinstance(v, dict) for _k, v in members)
        return
    assert isinstance(found, Store)
    assert all(full[k] == v for k, v in found.entries.items())
    picked = [k for k, v in full.items() if k.lower() == wanted.lower() or v.get("sessionId") == wanted]
    assert [k for k in found.entries if k in picked] == picked  # every candidate, in file order


def test_the_layout_scan_skips_other_entries_unparsed(tmp_path: Path) -> None:
    """A damaged entry the key rules cannot pick is not parsed by the layout scan (read whole,
    the same store is `store_unreadable`)."""
    good = json.dumps({"agent:main:main": {"sessionId": "s1"}, "agent:main:other": {"sessionId": "s2"}}, indent=2)
    damaged = good.replace('"s2"', '"s2" oops')
    target = _write(tmp_path, damaged)
    found = read_store_candidates(target, {"agent:main:main"}, "agent:main:main")
    assert isinstance(found, Store) and found.entries == {"agent:main:main": {"sessionId": "s1"}}
    assert isinstance(read_store(target), StoreError)
    assert read_store_candidates(target, {"agent:main:other"}, "agent:main:other") is None


def test_a_store_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "sessions.json"
    with open(path, "wb") as handle:
        handle.truncate(storefile.STORE_MAX_BYTES + 1)  # sparse: nothing is written
    target = StoreTarget("main", path, True)
    for error in (read_store(target), read_store_candidates(target, {"x"}, "x")):
        assert isinstance(error, StoreError)
        assert error.message == ("is 536,870,888 bytes: over 536,870,887, the largest store the gateway can load "
                                 "(it reads such a file as empty)")
    os.truncate(path, storefile.STORE_MAX_BYTES)  # at the limit it is read (zeros: not the layout)
    assert read_store_candidates(target, {"x"}, "x") is None
