"""Lay out a table to a width, the way `gh` does on a terminal (docs/terminal.md, "Tables").

The first `keep` columns identify a row (a request id, a device name): they are never cut or
wrapped, whatever the width. The others shrink, widest first, down to their header's width,
their cells ending in `…`; when that is still too wide, the rightmost of them are dropped. With
no width (stdout is not a terminal) every cell is printed whole, for `cut` and `awk`.

`--no-headers` is the form for scripts: the rows alone, cells whole and separated by one tab
(`tab_separated`), as `gh` prints a table into a pipe, so a name with spaces (`My Engine`) stays
one field for `cut -f2` or `awk -F'\t'`, and `awk '{print $1}'` still prints the id.
"""

from __future__ import annotations

from collections.abc import Sequence

GAP = "  "
ELLIPSIS = "\u2026"


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]], columns: Sequence[int]) -> list[int]:
    cells = list(zip(*rows, strict=False)) if rows else [()] * len(headers)
    return [max(len(headers[c]), max(map(len, cells[c]), default=0)) for c in columns]


def _shrink(widths: list[int], minimums: list[int], keep: int, width: int) -> bool:
    """Narrow the shrinkable columns (index >= keep) until the row fits `width`; False if it cannot."""
    total = sum(widths) + len(GAP) * (len(widths) - 1)
    while total > width:
        candidates = [i for i in range(keep, len(widths)) if widths[i] > minimums[i]]
        if not candidates:
            return False
        widest = max(candidates, key=lambda i: (widths[i], i))
        widths[widest] -= 1
        total -= 1
    return True


def fit_columns(headers: Sequence[str], rows: Sequence[Sequence[str]], width: int | None,
                keep: int = 1) -> tuple[list[int], list[int]]:
    """(the column indexes shown, their widths) for a table `width` characters wide."""
    columns = list(range(len(headers)))
    keep = min(keep, len(columns))
    while True:
        widths = _widths(headers, rows, columns)
        if width is None:
            return columns, widths
        minimums = [max(len(headers[c]), 4) for c in columns]
        if _shrink(widths, minimums, keep, width) or len(columns) <= keep:
            return columns, widths
        columns.pop()  # the rightmost optional column goes first


def _cell(text: str, width: int) -> str:
    if len(text) > width:
        text = text[: max(width - 1, 0)] + ELLIPSIS
    return text.ljust(width)


def cell_text(text: str) -> str:
    """A cell on one line: a tab or a line break inside it is shown as its escape (`\\t`, `\\n`),
    so it can neither split a row nor add a column."""
    if "\t" in text or "\n" in text or "\r" in text:
        return text.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    return text


def tab_separated(rows: Sequence[Sequence[str]]) -> list[str]:
    """`--no-headers`: one line per row, the cells (already `cell_text`) joined by a tab."""
    return ["\t".join(row) for row in rows]


def render_table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, width: int | None, keep: int = 1,
                 show_headers: bool = True) -> list[str]:
    """The table's lines (no newline), headers upper-cased the same in every table."""
    headers = [h.upper() for h in headers]
    columns, widths = fit_columns(headers, rows, width, keep)
    if width is None:  # every cell whole: one format call per row (a list of 100,000 sessions)
        line = GAP.join(f"{{{c}:<{w}}}" for c, w in zip(columns, widths, strict=True))
        return [line.format(*row).rstrip() for row in ([headers] if show_headers else []) + list(rows)]
    lines = []
    for row in ([headers] if show_headers else []) + [list(r) for r in rows]:
        lines.append(GAP.join(_cell(row[c], w) for c, w in zip(columns, widths, strict=True)).rstrip())
    return lines
