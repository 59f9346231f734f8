"""`stream_json` encodes its items `STREAM_BATCH` at a time (issue 24: 100,000 rows of
`sessions list --json`): the bytes are the one document `to_json` writes, for any count of
items around the batch size, values that take the encoder's slow path (non-finite numbers,
odd objects), characters escaped for a terminal, and a stream that cannot take Unicode."""

from __future__ import annotations

import io
import math
import sys
from typing import Any

import pytest

from vora_cli.cli import streaming as output
from vora_cli.cli.json_text import to_json


def _item(n: int) -> dict[str, Any]:
    odd: list[Any] = [
        "plain", "é\u2028\x85\x1b[31m", "\ud800 lone", "\U0001f600", math.inf, -math.inf, math.nan, 2**70, 0.1,
        None, True, {"nested": [1, {"x": "\u202e"}]}, (1, 2), object.__name__,
    ]
    return {"n": n, "value": odd[n % len(odd)], "key": f"agent:main:s{n}"}


def _streamed(head: Any, items: list[Any], encoding: str) -> str:
    buffer = io.BytesIO()
    stream = io.TextIOWrapper(buffer, encoding=encoding, errors="strict", newline="")
    saved = sys.stdout
    sys.stdout = stream
    try:
        output.stream_json(head, iter(items))
        stream.flush()
    finally:
        sys.stdout = saved
    return buffer.getvalue().decode(encoding)


@pytest.mark.parametrize("count", [0, 1, 2, output.STREAM_BATCH - 1, output.STREAM_BATCH, output.STREAM_BATCH + 1,
                                   3 * output.STREAM_BATCH, 3 * output.STREAM_BATCH + 7])
@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_batches_write_the_one_document(count: int, encoding: str) -> None:
    items = [_item(n) for n in range(count)]
    ascii_only = encoding != "utf-8"
    expected = to_json({"count": count, "sessions": items}, indent=None, ascii_only=ascii_only) + "\n"
    assert _streamed({"count": count, "sessions": []}, items, encoding) == expected
    # a head made after the items (it holds their totals): the items wait in a spool
    assert _streamed(lambda: {"count": count, "sessions": []}, items, encoding) == expected


def test_a_batch_with_a_non_finite_number_falls_back_for_that_batch_alone() -> None:
    items = [{"n": n, "x": math.nan if n == output.STREAM_BATCH + 3 else n} for n in range(2 * output.STREAM_BATCH)]
    text = _streamed({"rows": []}, items, "utf-8")
    assert text == to_json({"rows": items}, indent=None) + "\n"
    assert '"x": "NaN"' in text
