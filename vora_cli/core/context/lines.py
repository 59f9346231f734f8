"""Which lines of a truncated file reach the prompt, and the Markdown headings of those that do not.

Used by ``vora context detail`` (``dropped lines 281-1107: ## Deploy, ## Testing``).
"""

from __future__ import annotations

import re

from vora_cli.core.context.budget import BudgetStep
from vora_cli.core.records import dataclass
from vora_cli.core.text import utf16_len

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class LineRange:
    """Lines of a file (1-based, inclusive) and the headings above them."""
    start: int  # 1-based, inclusive
    end: int
    headings: tuple[str, ...] = ()

    def to_dict(self, with_headings: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {"start": self.start, "end": self.end}
        if with_headings:
            d["headings"] = list(self.headings)
        return d


# A fence or an ATX heading at a line start (CommonMark allows up to 3 spaces of indent).
# Searching from a newline lets the regex engine jump between "\n" characters.
_FENCE_OR_HEADING = re.compile(r"\n {0,3}(?:(```|~~~)|#{1,6}(?:[ \t]|(?=\n)|\Z))")


def _index_of_unit(t: str, n: int, unit: int) -> int:
    """The Python index of the character holding UTF-16 unit ``unit`` of ``t`` (``n`` units),
    counted from the nearer end: cut points lie near the start (head) or the end (tail)."""
    if unit <= n - unit:
        k = unit  # t[:k] has >= unit units; step back until it has <= unit
        units = utf16_len(t[:k])
        while units > unit:
            k -= 1
            units -= 2 if ord(t[k]) > 0xFFFF else 1
        return k
    back = n - unit  # the suffix from the wanted character holds >= back units
    k = len(t) - back
    units = utf16_len(t[k:])
    while units - (2 if ord(t[k]) > 0xFFFF else 1) >= back:
        units -= 2 if ord(t[k]) > 0xFFFF else 1
        k += 1
    return k


def line_ranges(
    t: str, n: int, kept: list[tuple[int, int]]
) -> tuple[tuple[LineRange, ...], tuple[LineRange, ...]]:
    """Kept and dropped line ranges of ``t`` (``n`` UTF-16 units; the unit ranges ``kept``
    survive), with the Markdown headings whose line starts inside a dropped range (headings
    inside code fences do not count)."""
    kept = sorted((a, b) for a, b in kept if b > a)
    dropped: list[tuple[int, int]] = []
    cursor = 0
    for a, b in kept:
        if a > cursor:
            dropped.append((cursor, a))
        cursor = max(cursor, b)
    if cursor < n:
        dropped.append((cursor, n))

    ascii_text = t.isascii()

    def index_of(unit: int) -> int:
        return unit if ascii_text else _index_of_unit(t, n, unit)

    # 1-based line holding the character at index. The positions asked for grow along the
    # text, so each count continues from the last one: one pass over the file.
    counted = [0, 0]  # [index counted up to, newlines before it]

    def line_at(index: int) -> int:
        done, lines = counted
        if index >= done:
            lines += t.count("\n", done, index)
        else:
            lines = t.count("\n", 0, index)
        counted[:] = [index, lines]
        return lines + 1

    kept_ranges = tuple(LineRange(line_at(index_of(a)), line_at(index_of(b - 1))) for a, b in kept)
    spans = [(index_of(a), index_of(b - 1) + 1) for a, b in dropped]
    headings: list[list[str]] = [[] for _ in spans]
    if spans:
        in_fence = False
        end_of_scan = spans[-1][1]
        first_line_end = t.find("\n")
        first = _FENCE_OR_HEADING.match("\n" + (t if first_line_end < 0 else t[:first_line_end]))
        found = [(0, first)] if first else []
        # Every later line starts after a "\n" of t itself (no copy of the string).
        found_iter = ((m.start() + 1, m) for m in _FENCE_OR_HEADING.finditer(t, 0, end_of_scan))
        for start, m in (*found, *found_iter):
            if start >= end_of_scan:
                break
            if m.group(1):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            for i, (lo, hi) in enumerate(spans):
                if lo <= start < hi:
                    end = t.find("\n", start)
                    headings[i].append(t[start : end if end >= 0 else len(t)].strip())
                    break
    dropped_ranges = tuple(
        LineRange(line_at(lo), line_at(hi - 1), tuple(h)) for (lo, hi), h in zip(spans, headings, strict=True)
    )
    return kept_ranges, dropped_ranges


def kept_unit_ranges(step: BudgetStep) -> list[tuple[int, int]]:
    """Which unit ranges of the trimmed original text reached the prompt."""
    trim = step.trim
    if step.injected is None or trim is None:
        return []
    if not trim.truncated:
        return [(0, step.kept_units)]
    n = trim.original_chars
    head, tail = trim.head_chars, trim.tail_chars
    full_len = utf16_len(trim.content)
    tail_from = full_len - tail  # where the tail starts inside the trimmed content
    kept_head = min(head, step.kept_units)
    kept_tail = max(0, min(tail, step.kept_units - tail_from))
    return [(0, kept_head), (n - tail, n - tail + kept_tail)]
