"""The whole-lines rule for a transcript being appended (core/backup/snapshot.py, spec
sessions.md's torn tail): the copy ends after the last "\\n", unless the last line parses."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.backup.snapshot import open_source, whole_lines_size


def _size(path: Path, data: bytes) -> int:
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        return whole_lines_size(fd, len(data))
    finally:
        os.close(fd)


def test_whole_lines(tmp_path: Path) -> None:
    f = tmp_path / "t.jsonl"
    assert _size(f, b"") == 0
    assert _size(f, b'{"a":1}\n{"b":2}\n') == 16
    assert _size(f, b'{"a":1}\n{"b":') == 8  # torn: left out
    assert _size(f, b'{"a":1}\n{"b":2}') == 15  # whole without its "\n": kept
    assert _size(f, b'{"a":1}\n[1, 2]') == 8  # parses, but a line is an object
    assert _size(f, b'{"b":') == 0


def test_a_torn_line_longer_than_a_block_is_found(tmp_path: Path) -> None:
    head = json.dumps({"type": "session"}).encode() + b"\n"
    torn = b'{"x": "' + b"y" * (2 * 1024 * 1024)  # a 2 MiB torn last line
    assert _size(tmp_path / "t.jsonl", head + torn) == len(head)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=5), st.integers()), min_size=0, max_size=20),
       st.integers(min_value=0, max_value=10_000))
def test_the_cut_is_the_last_whole_line(entries: list[dict[str, int]], cut: int) -> None:
    import tempfile

    data = b"".join(json.dumps(e).encode() + b"\n" for e in entries)
    cut = min(cut, len(data))
    prefix = data[:cut]
    with tempfile.TemporaryDirectory() as folder:
        got = _size(Path(folder) / "t.jsonl", prefix)
    last = prefix.rfind(b"\n") + 1
    tail = prefix[last:]
    try:
        whole = isinstance(json.loads(tail), dict)
    except ValueError:
        whole = False
    assert got == (len(prefix) if whole else last)


def test_a_source_read_gives_exactly_its_size_and_says_it_was_appended(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":')
    source = open_source(path, "jsonl", 0)
    try:
        with open(path, "ab") as more:
            more.write(b'2}\n{"c":3}\n')
        assert (source.size, source.left_out) == (8, 5)
        assert source.read(100) == b'{"a":1}\n' and source.read(100) == b""
        assert source.change() == "appended"
    finally:
        source.close()
