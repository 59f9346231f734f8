"""Counting the work a block does (docs/testing.md, "No wall-clock bounds"): every Python function
call and every call into C (`sys.setprofile`'s `call` and `c_call` events), in this thread. A
command whose work grows with the square of its input shows it as a count that grows sixteen-fold
when the input grows four-fold, on any machine, however loaded.

What it cannot see is how long one C call runs (a `str.count` over a whole text is one event):
the C scans a command repeats per item are held by their own tests (`LineIndex`, `Container`).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any


@contextlib.contextmanager
def counting_calls() -> Iterator[list[int]]:
    """`with counting_calls() as count:` ... `count[0]` is the calls the block made."""
    count = [0]

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" or event == "c_call":
            count[0] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield count
    finally:
        sys.setprofile(previous)
