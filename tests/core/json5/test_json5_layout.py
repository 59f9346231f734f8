"""The parser's layout: where each container ends, the member spans scanned from it on demand,
and the layout an edit derives without parsing (core/json5/parser.py, document.py `_moved`).

A parse keeps only the ends of its containers; `Container.members` scans one container's members
when the editor reads it. These tests hold every span so found to the text itself (the key token,
the value that parses to the tree's value, the comma), and the layout of every edited document
to a fresh parse of its text: a second edit of the same document walks the layout the first one
derived, so a wrong one would be a wrong edit.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.json5.test_json5doc import _KEYS, _VALUES, _documents, _eq, _get, _paths
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.parser import Container, Member, Parser, loads
from vora_cli.core.json5.style import _MEMBERS_LOOKED_AT

_FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_spans(text: str, member: Member, value: Any) -> int:
    """Every span below `member` against the text; the number of members checked."""
    node = member.node
    assert _eq(loads(text[member.vstart:member.vend]), value)
    if member.comma >= 0:
        assert text[member.comma] == ","
    if node is None:
        assert not isinstance(value, dict | list) or text[member.vstart] not in "{["
        return 1
    assert (node.start, node.end) == (member.vstart, member.vend)
    assert node.is_object == isinstance(value, dict)
    checked = 1
    if node.is_object:
        seen: dict[str, Member] = {}
        for m in node.members:
            assert m.key is not None
            assert _eq(loads(text[m.kstart:m.kend]), m.key) if text[m.kstart] in "\"'" else text[m.kstart:m.kend] == m.key
            seen[m.key] = m  # the last copy of a key is the one the value holds
        assert list(seen) == list(value)
        for key, m in seen.items():
            checked += _check_spans(text, m, value[key])
    else:
        assert len(node.members) == len(value)
        for m, item in zip(node.members, value, strict=True):
            assert m.key is None and m.kstart == m.kend == m.vstart
            checked += _check_spans(text, m, item)
    return checked


def _fresh_layout(text: str) -> tuple[dict[int, int], tuple[int, int]]:
    parser = Parser(text, "x")
    parser.parse()
    return parser.ends, parser.top


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_every_span_scanned_on_demand_is_the_text_of_its_member(doc: tuple[str, Any, int]) -> None:
    text, value, _ = doc
    d = Json5Document.parse(text)
    assert _check_spans(text, d._root_member(), value) == len(_paths(value)) + 1


def _spans(member: Member | None) -> tuple[Any, ...] | None:
    if member is None:
        return None
    return (*member[:6], None if member.node is None else (member.node.is_object, member.node.start, member.node.end))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_a_member_read_alone_is_the_one_a_full_read_finds(doc: tuple[str, Any, int]) -> None:
    """The top-level object's members the parse noted (a key's last one, the last one) read alone,
    and its first ones read as far as asked, are those of a read of every member."""
    text, value, _ = doc
    if not isinstance(value, dict):
        return
    alone = Json5Document.parse(text)._root_member().node
    full = Json5Document.parse(text)._root_member().node
    assert alone is not None and full is not None
    members = full.members
    for key in [*value, "not-a-key-of-it"]:
        i = full.index_of(key)
        assert _spans(alone.holder(key)) == _spans(members[i] if i >= 0 else None)
    assert _spans(alone.last()) == _spans(members[-1] if members else None)
    assert [_spans(m) for m in alone.head(3)] == [_spans(m) for m in members[:3]]
    assert alone._members is None or len(members) <= 3  # no read of every member was needed


def test_an_edit_through_the_top_level_object_reads_only_its_own_member() -> None:
    text = "{\n" + "".join(f"  /* block {i} */\n  s{i}: {{ a: [1, 2] }},\n" for i in range(500)) + \
        "  gateway: { port: 18789 },\n}\n"
    doc = Json5Document.parse(text)
    root = doc._root_member().node
    assert root is not None
    edited = doc.set(("gateway", "port"), 20000)
    assert root._members is None and len(root._scanned or ()) <= _MEMBERS_LOOKED_AT  # the style looks at the first
    assert edited.text == text.replace("port: 18789", "port: 20000")
    removed = doc.unset(("s7",))
    assert "s7:" not in removed.text and "/* block 7 */" in removed.text and "s8: {" in removed.text


def test_a_container_is_scanned_only_when_its_members_are_read() -> None:
    text = "{a: {b: [1, {c: 2}]}, d: [3], e: 4}"
    root = Json5Document.parse(text)._root_member()
    assert root.node is not None and root.node._members is None
    a = root.node.members[root.node.index_of("a")]
    assert a.node is not None and a.node._members is None  # found, not scanned
    d = root.node.members[root.node.index_of("d")]
    assert isinstance(d.node, Container) and text[d.node.start:d.node.end] == "[3]"


@pytest.mark.slow  # 150 documents, three edits and a fresh parse each: ~2 s
@_FAST
@given(_documents(), st.data())
def test_an_edited_document_knows_the_layout_a_parse_of_its_text_finds(doc: tuple[str, Any, int], data: Any) -> None:
    d = Json5Document.parse(doc[0])
    for _ in range(3):
        paths = _paths(d.value)
        op = data.draw(st.sampled_from(["set", "insert", "unset"]))
        objects = [p for p in [(), *paths] if isinstance(_get(d.value, p), dict)]
        try:
            if op == "insert" or not paths:
                parent = data.draw(st.sampled_from(objects))
                d = d.set((*parent, data.draw(_KEYS)), data.draw(_VALUES))
            elif op == "set":
                d = d.set(data.draw(st.sampled_from(paths)), data.draw(_VALUES))
            else:
                d = d.unset(data.draw(st.sampled_from(paths)))
        except Exception as error:  # a key the object holds twice: the editor refuses it
            assert "appears" in str(error)
            return
        assert d._known_layout() == _fresh_layout(d.text)
        assert _check_spans(d.text, d._root_member(), d.value) == len(_paths(d.value)) + 1


def test_layouts_after_many_edits_of_a_commented_config() -> None:
    """Seeded random walks of edits (sets deep and shallow, inserts, removals, container for
    scalar and back) over configs written as operators write them."""
    rng = random.Random(24)
    texts = [
        "// top\n{\n  /* g */ gateway: { port: 18789, bind: 'loopback', },\n  agents: { list: [\n"
        "    { id: 'a', tools: ['x', 'y',], }, // one\n    { id: 'b', },\n  ], },\n  e: [[], {}, [[1]]],\n}\n",
        "[1, {a: 2}, [3, [4, {b: [5]}]]]",
        "{}",
        '{"strict": {"json": [1, 2.5, true, null, "s"]}}',
    ]
    values = [0, "s", None, [], {}, [1, {"k": [2]}], {"x": {"y": []}}]
    edits = 0
    for text in texts:
        for _ in range(60):
            d = Json5Document.parse(text)
            for _ in range(5):
                paths = _paths(d.value)
                path = rng.choice([(), *paths])
                target = _get(d.value, path)
                if isinstance(target, dict) and rng.random() < 0.5:
                    d = d.set((*path, f"n{rng.randrange(4)}"), rng.choice(values))
                elif path and rng.random() < 0.3:
                    d = d.unset(path)
                else:
                    d = d.set(path, rng.choice(values)) if path else d
                assert d._known_layout() == _fresh_layout(d.text)
                edits += 1
    assert edits == 4 * 60 * 5


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_a_position_found_scanning_only_as_far_as_it_is_the_walks(doc: tuple[str, Any, int]) -> None:
    """`get_node_position` stops each container's scan at the member it wants when no key is held
    twice: the same member the full walk finds."""
    from vora_cli.core.json5.parser import line_col

    text, value, _ = doc
    for path in _paths(value):
        early = Json5Document.parse(text)
        assert not early._maybe_duplicates
        full = Json5Document.parse(text)._walk(path)[-1][1]
        assert early.get_node_position(path) == line_col(text, full.kstart)
    assert Json5Document.parse(text).get_node_position(("no such key", 0)) is None


def test_a_member_put_into_an_emptied_object_looks_like_its_neighbours() -> None:
    """A key quoted because it must be (`"1"`) teaches no quoting, and an inline object emptied by
    an edit gets the file's brace spacing back (a `doctor --fix config-schema` rewrite is an unset
    then a set)."""
    text = ('{\n  session: { threadBindings: { ttlHours: 12 } },\n'
            '  discord: { token: "d", guilds: { "1": { channels: { "2": { allow: true } } } } },\n}\n')
    doc = Json5Document.parse(text)
    doc = doc.unset(("session", "threadBindings", "ttlHours")).set(("session", "threadBindings", "idleHours"), 12)
    path = ("discord", "guilds", "1", "channels", "2")
    doc = doc.unset((*path, "allow")).set((*path, "enabled"), True)
    assert doc.text == ('{\n  session: { threadBindings: { idleHours: 12 } },\n'
                        '  discord: { token: "d", guilds: { "1": { channels: { "2": { enabled: true } } } } },\n}\n')
    tight = Json5Document.parse('{"a": {"b": 1}}').unset(("a", "b")).set(("a", "c"), 2)
    assert tight.text == '{"a": {"c": 2}}'  # a strict-JSON, tight file stays so
