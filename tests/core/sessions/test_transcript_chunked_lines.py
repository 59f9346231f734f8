"""The JSONL line splitter (large chunks split on b"\\n") yields what one `readline` per
line yields: the same lines, sizes and newline flags, a line too long to hold as None, at every
placement of lines across chunk edges."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vora_cli.core.sessions import jsonl


def reference_lines(handle: io.BytesIO, max_line: int) -> Iterator[tuple[bytes | None, int, bool]]:
    """The splitter as first written: `readline(max_line)`, a longer line read through."""
    while True:
        raw = handle.readline(max_line)
        if not raw:
            return
        if raw.endswith(b"\n") or len(raw) < max_line:
            yield raw, len(raw), raw.endswith(b"\n")
            continue
        size = len(raw)
        complete = False
        while True:
            chunk = handle.readline(3)
            size += len(chunk)
            if not chunk or chunk.endswith(b"\n"):
                complete = bool(chunk)
                break
        yield None, size, complete


def split(data: bytes, monkeypatch: pytest.MonkeyPatch, chunk: int, max_line: int) -> list[tuple[bytes | None, int, bool]]:
    monkeypatch.setattr(jsonl, "READ_CHUNK_BYTES", chunk)
    monkeypatch.setattr(jsonl, "MAX_LINE_BYTES", max_line)
    return list(jsonl._split_lines(io.BytesIO(data)))


@settings(max_examples=300, deadline=None)
@given(data=st.lists(st.sampled_from([b"a", b"bc", b"{}", b"\n", b"\n\n", b"xyzxyzxyz", b" "]), max_size=30).map(b"".join),
       chunk=st.integers(1, 12), max_line=st.integers(1, 12))
def test_chunked_split_matches_readline(data: bytes, chunk: int, max_line: int) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert split(data, monkeypatch, chunk, max_line) == list(reference_lines(io.BytesIO(data), max_line))


@pytest.mark.parametrize(("data", "expected"), [
    (b"12345\n", [(None, 6, True)]),  # text of MAX bytes: not held
    (b"1234\n", [(b"1234\n", 5, True)]),  # just under: held, whatever the chunk edges
    (b"1234", [(b"1234", 4, False)]),  # a torn tail under the limit
    (b"12345", [(None, 5, False)]),  # a torn tail at the limit
    (b"123456789\nab\n", [(None, 10, True), (b"ab\n", 3, True)]),  # the next line is whole again
])
def test_limit_edges(data: bytes, expected: list[tuple[bytes | None, int, bool]], monkeypatch: pytest.MonkeyPatch) -> None:
    for chunk in (1, 2, 3, 64):
        assert split(data, monkeypatch, chunk, 5) == expected


PIECES = [b'{"a": 1}', b'{"a": [1, {"b": "c"}]}', b"  {}", b"{} x", b"{}  ", b'{"a":\n1}', b"[1]", b"12", b"\x0b",
          b" ", b"\t\r", b"{", b"}", b'{"a": "\xc3\xa9"}', b'{"a": "\\u00e9"}', b"{\"a\": 1e400}", b"NaN", b"\n", b"\n\n"]


@settings(max_examples=500, deadline=None)
@given(data=st.lists(st.sampled_from(PIECES), max_size=25).map(b"".join), chunk=st.integers(1, 40))
def test_lines_parsed_in_their_chunk_are_what_parsing_each_line_gives(data: bytes, chunk: int) -> None:
    """The scan parses the lines of an ASCII chunk in place; the values are those of parsing each
    line alone (`_value`), the blank and odd lines included."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(jsonl, "READ_CHUNK_BYTES", chunk)
        got = list(jsonl.line_values(io.BytesIO(data)))
        want = [(jsonl.line_value(raw), size, complete) for raw, size, complete in jsonl._split_lines(io.BytesIO(data))]
    assert got == want


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(st.sampled_from(PIECES), min_size=1, max_size=25), run=st.integers(1, 60),
       pick=st.lists(st.booleans(), min_size=25, max_size=25))
def test_lines_read_back_together_are_what_reading_each_alone_gives(tmp_path: Path, pieces: list[bytes], run: int,
                                                                     pick: list[bool]) -> None:
    """`values_at` reads neighbouring lines in one call (up to RUN_BYTES) and parses them in
    that text; each value is the one of its line read and parsed alone, with its line's count
    of `{` and `[` (what bounds how deep it nests)."""
    data = b"".join(pieces)
    path = tmp_path / "t.jsonl"
    path.write_bytes(data)
    offsets, sizes, position = [], [], 0
    for _raw, size, _complete in jsonl._split_lines(io.BytesIO(data)):
        offsets.append(position)
        sizes.append(size)
        position += size
    indices = [i for i in range(len(offsets)) if pick[i % len(pick)]]
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(jsonl, "RUN_BYTES", run)
        got = list(jsonl.values_at(path, offsets, sizes, indices))
    alone = [jsonl.line_value(data[offsets[i] : offsets[i] + sizes[i]]) for i in indices]
    lines = [data[offsets[i] : offsets[i] + sizes[i]] for i in indices]
    assert got == [(i, None if v is jsonl.BLANK else v, line.count(b"{") + line.count(b"["))
                   for i, v, line in zip(indices, alone, lines, strict=True)]
