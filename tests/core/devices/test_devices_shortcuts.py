"""The pairing store's shortcuts for a big store (issue h28), each held to the general path it
replaces, on odd values: missing fields, wrong types, huge and non-finite numbers, non-ASCII and
control characters, lone surrogates, secrets in fields.

- a store only read is parsed whole (`parse_map`), one written back entry by entry with its
  `Layout` (`parse_map_with_layout`): the same maps and the same errors, an entry nested exactly
  as deep as the bound allows included;
- a write copies the entries it did not change from the file in runs (from its bytes when ASCII):
  the same bytes as encoding the whole map, with entries changed, removed, added and moved, keys
  escaped otherwise than `json.dumps` escapes them;
- unique prefixes (neighbours in sorted order): what their definition says;
- a change journal is finished by the marks of its first file, and one in another form left as it is.

The CLI side is `tests/cli/devices/test_scale.py`.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

from devices_support import NOW, paired, write_store
from hypothesis import given, settings
from hypothesis import strategies as st
from install_support import install_at

from vora_cli.core.devices import inflight, rules, stamps, store
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import resolve_paths
from vora_cli.core.strict_json import dumps_overflowing

ODD = [None, True, False, 0, -5, 1.5, 1e300, math.inf, -math.inf, 10**30, 8_640_000_000_000_001, NOW, "",
       "  ", "yesterday", "é中文🙂", "\u202eevil", "a\x1bb", "line\nbreak", "\ud800", [], {}, ["x", 1, None],
       {"a": [1]}, ["operator.read", " operator.write ", "operator.admin", ""], ["node", "node", " op "],
       "sk-live-0123456789abcdefSECRET"]
odd_values = st.sampled_from(ODD)
PAIRED_KEYS = ["label", "displayName", "platform", "deviceFamily", "clientId", "clientMode", "role", "roles",
               "scopes", "approvedScopes", "remoteIp", "createdAtMs", "approvedAtMs", "tokens", "extra"]
TOKEN_KEYS = ["token", "role", "scopes", "createdAtMs", "rotatedAtMs", "revokedAtMs", "lastUsedAtMs"]


def _odd_paired(rng: random.Random) -> dict[str, Any]:
    record = paired(rng.choice(["laptop", "phone"]), roles=rng.choice([["operator"], ["operator", "node"]]))
    for name in rng.sample(PAIRED_KEYS, rng.randrange(0, 5)):
        record[name] = rng.choice(ODD)
    if isinstance(record.get("tokens"), dict):
        for token in record["tokens"].values():
            for name in rng.sample(TOKEN_KEYS, rng.randrange(0, 4)) if isinstance(token, dict) else ():
                token[name] = rng.choice(ODD)
        if rng.random() < 0.2:
            record["tokens"]["odd"] = rng.choice(ODD)
    return record


# -- unique prefixes ---------------------------------------------------------------------------------

def test_unique_prefixes_say_what_their_definition_says() -> None:
    rng = random.Random(5)
    for _ in range(500):
        ids = {"".join(rng.choice("ab0") for _ in range(rng.randrange(0, 12))) for _ in range(rng.randrange(0, 12))}
        for minimum in (1, 3, 8):
            want = {}
            for i in ids:
                shared = max((next((n for n, (a, b) in enumerate(zip(i, o, strict=False)) if a != b), min(len(i), len(o)))
                              for o in ids if o != i), default=0)
                want[i] = i[:max(minimum, shared + 1)]
            assert rules.unique_prefixes(ids, minimum) == want


# -- the store: read whole, written back in runs ----------------------------------------------------

def _store_texts(rng: random.Random) -> list[str]:
    texts = []
    for _ in range(150):
        doc = {f"d{i}": _odd_paired(rng) for i in range(rng.randrange(0, 6))}
        text = json.dumps(doc, indent=2, ensure_ascii=rng.random() < 0.5).replace("Infinity", "1e400")
        texts.append(text)
        texts.append(json.dumps(doc).replace("Infinity", "1e400"))  # another layout
    deep = lambda n: '{\n  "d1": {"x": ' + "[" * n + "]" * n + "}\n}"  # noqa: E731
    texts += [deep(126), deep(127), deep(128), '{\n  "a": 1\n}', "[]", "", "{}", '{\n  "d1": {}\n}x',
              '{\n  "d1": {"tokens": {}},\n  "d1": {"label": "second"}\n}', '{\n\t"d1": {}\n}', '{\r\n  "d1": {}\r\n}']
    return texts


def _parsed(call: Any) -> Any:
    try:
        return ("ok", call())
    except VoraError as error:
        return ("error", error.code, error.message)


def test_a_store_only_read_is_parsed_as_one_written_back_is(tmp_path: Path) -> None:
    path = tmp_path / "paired.json"
    for text in _store_texts(random.Random(3)):
        data = text.encode("utf-8", "surrogatepass")
        whole = _parsed(lambda: store.parse_map(path, data, "paired devices"))  # noqa: B023
        by_entry = _parsed(lambda: store.parse_map_with_layout(path, data, "paired devices")[0])  # noqa: B023
        assert json.dumps(whole, default=repr) == json.dumps(by_entry, default=repr), text[:80]


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["d1", "é", 'q"', "\x7f", "\u2028", "k\\", "日本", "z" * 20, ""]),
                       st.dictionaries(st.sampled_from(["v", "w", "é"]), odd_values, max_size=3), max_size=6),
       st.data(), st.booleans())
def test_a_write_copies_what_it_did_not_change_and_is_json_dumps_indent_2(original: dict[str, Any], data: Any,
                                                                          escaped: bool) -> None:
    text = json.dumps(original, indent=2, ensure_ascii=escaped).replace("Infinity", "1e400").replace("NaN", "null")
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:
        return  # a lone surrogate read raw: no file holds that
    scanned = store.scan_map(text, raw)
    assert scanned is not None
    doc, layout = scanned
    keys = sorted(doc)
    changed = data.draw(st.sets(st.sampled_from(keys)) if keys else st.just(set()))
    removed = data.draw(st.sets(st.sampled_from(keys)) if keys else st.just(set()))
    for name in changed:
        doc[name] = {"vora": [1, {"x": "é"}]}
    for name in removed - changed:
        del doc[name]
    if data.draw(st.booleans()) and doc:  # one moved to the end
        moved = next(iter(doc))
        doc[moved] = doc.pop(moved)
        changed.add(moved)
    added = data.draw(st.sampled_from(["new", "n\u00e9w", "d1"]))
    doc[added] = {"added": True}
    changed.add(added)

    def as_read(name: str) -> str:  # an entry's value as the file holds it
        written = json.dumps(original[name], indent=2, ensure_ascii=escaped).replace("\n", "\n  ")
        return written.replace("Infinity", "1e400").replace("NaN", "null")

    # by definition: each entry's key as json.dumps writes it, its value as read unless it changed
    parts = [f"  {json.dumps(name, ensure_ascii=False)}: "
             + (as_read(name) if name not in changed else dumps_overflowing(value, indent=2).replace("\n", "\n  "))
             for name, value in doc.items()]
    try:
        expected = ("{\n" + ",\n".join(parts) + "\n}" if parts else "{}").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate written raw: the whole map escaped, as JSON.stringify does
        expected = dumps_overflowing(doc, indent=2, ensure_ascii=True).encode()
    assert store.dump_map(doc, layout, changed) == expected
    assert store.dump_map(doc, store.scan_map(text)[1], changed) == expected  # type: ignore[index]  # from the text
    if not escaped:
        assert expected == store.dump_map(doc)  # a file in the gateway's own layout: json.dumps(indent=2)


# -- the change journal -----------------------------------------------------------------------------

def _journal_of(state_dir: Path, first: dict[str, Any]) -> Path:
    journal = state_dir / "devices" / ".vora-change.json"
    journal.write_text(json.dumps({"version": 1, "changeId": "c0ffee0000000000", "atMs": NOW, "files": [first],
                                   "audit": [{"action": "approve", "deviceId": "d", "changeId": "c0ffee0000000000"}]}))
    return journal


def test_a_change_journal_is_finished_by_what_its_first_file_shows(state_dir: Path) -> None:
    device = paired("laptop")
    write_store(state_dir, [], [device])
    install = install_at(resolve_paths(state_dir=str(state_dir)))
    files = store.StoreFiles.of(install.paths)
    # each entry's mark: its fields the gateway stamps aside
    landed = {"file": "paired.json", "marks": {device["deviceId"]: stamps.entry_mark("paired.json", device)}}
    gone = {"file": "paired.json", "marks": {device["deviceId"]: None}}
    audit = state_dir / "logs" / "devices-audit.jsonl"
    journal = _journal_of(state_dir, gone)
    assert inflight.finish_interrupted(install, files) == ()
    assert not journal.exists() and not audit.exists()  # it never landed: nothing to finish
    journal = _journal_of(state_dir, landed)
    assert inflight.finish_interrupted(install, files) == ()
    assert not journal.exists()
    lines = [json.loads(line) for line in audit.read_text().splitlines()]
    assert [(line["action"], line["recovered"]) for line in lines] == [("approve", True)]


def test_a_journal_in_a_form_no_release_wrote_is_left_as_it_is(state_dir: Path) -> None:
    device = paired("laptop")
    write_store(state_dir, [], [device])
    install = install_at(resolve_paths(state_dir=str(state_dir)))
    journal = _journal_of(state_dir, {"file": "paired.json", "shows": {device["deviceId"]: "0" * 64}})
    warnings = inflight.finish_interrupted(install, store.StoreFiles.of(install.paths))
    assert len(warnings) == 1 and "is not a change journal vora can read" in warnings[0]
    assert journal.exists()
