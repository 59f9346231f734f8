"""Lay out a table to a width, the way `gh` does on a terminal, and tab-separated for scripts
(docs/terminal.md, "Tables").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from vora_cli.core.records import dataclass

GAP = "  "
ELLIPSIS = "\u2026"
# A cell at most this wide is a value (an address, an age, a version): cut, it means nothing.
ATOMIC = 16
# What a long cell of an informative column can shrink to (never below its header's width).
SHRUNK = 10


@dataclass(frozen=True)
class Cell:
    """A cell's text, and the shorter form a narrow terminal shows instead (same meaning)."""

    text: str
    short: str

    def __str__(self) -> str:
        return self.text


Row = Sequence["str | Cell"]


def _short(cell: str | Cell) -> str:
    return cell.short if isinstance(cell, Cell) else cell


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]], columns: Sequence[int]) -> list[int]:
    cells = list(zip(*rows, strict=False)) if rows else [()] * len(headers)
    return [max(len(headers[c]), max(map(len, cells[c]), default=0)) for c in columns]


def _shrink(widths: list[int], minimums: list[int], width: int) -> bool:
    """Narrow the columns above their minimum, widest first, until the row fits; False if it cannot."""
    total = sum(widths) + len(GAP) * (len(widths) - 1)
    while total > width:
        candidates = [i for i in range(len(widths)) if widths[i] > minimums[i]]
        if not candidates:
            return False
        widest = max(candidates, key=lambda i: (widths[i], i))
        widths[widest] -= 1
        total -= 1
    return True


def _total(widths: Sequence[int]) -> int:
    return sum(widths) + len(GAP) * (len(widths) - 1) if widths else 0


def fit_columns(headers: Sequence[str], rows: Sequence[Row], width: int | None, keep: int = 1,
                whole: Collection[int] = ()) -> tuple[list[int], list[int], list[list[str]]]:
    """(the column indexes shown, their widths, the cell texts) for a table `width` wide: whole
    when it fits; else short forms, the identifying and decisive columns first (the rightmost
    decisive ones dropped while they do not fit), then each other column that fits at its
    narrowest, left to right; the room left widens the shrunk ones again.
    """
    every = list(range(len(headers)))
    keep = min(keep, len(every))
    texts = [list(map(str, row)) for row in rows]  # a `Cell`'s `str` is its whole text
    natural = _widths(headers, texts, every)
    if width is None or _total(natural) <= width:
        return every, natural, texts
    texts = [[_short(cell) for cell in row] for row in rows]
    natural = _widths(headers, texts, every)
    fixed = [c for c in every if c < keep or c in whole]
    while len(fixed) > keep and _total([natural[c] for c in fixed]) > width:
        fixed.pop()  # the rightmost decisive column, when even these do not fit
    minimum = {c: natural[c] if c in fixed or natural[c] <= ATOMIC else max(len(headers[c]), SHRUNK) for c in every}
    columns = list(fixed)
    for c in every:
        if c not in fixed and _total([minimum[i] for i in (*columns, c)]) <= width:
            columns.append(c)
    columns.sort()
    widths = [natural[c] for c in columns]
    _shrink(widths, [minimum[c] for c in columns], width)
    return columns, widths, texts


def _cell(text: str, width: int) -> str:
    if len(text) > width:
        text = text[: max(width - 1, 0)] + ELLIPSIS
    return text.ljust(width)


def tab_separated(rows: Sequence[Row]) -> list[str]:
    """`--no-headers`: one line per row, the cells (already `one_line`d) whole, joined by a tab."""
    return ["\t".join(map(str, row)) for row in rows]


def render_table(headers: Sequence[str], rows: Sequence[Row], *, width: int | None, keep: int = 1,
                 whole: Collection[int] = (), show_headers: bool = True) -> list[str]:
    """The table's lines (no newline), headers upper-cased the same in every table."""
    headers = [h.upper() for h in headers]
    columns, widths, texts = fit_columns(headers, rows, width, keep, whole)
    lines = []
    for row in ([headers] if show_headers else []) + texts:
        lines.append(GAP.join(_cell(row[c], w) for c, w in zip(columns, widths, strict=True)).rstrip())
    return lines
