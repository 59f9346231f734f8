"""Pictures in the terminal, drawn as text, for `Output.styled`: bars, a gauge, a bar chart, a timeline
(docs/terminal.md, "Pictures"). Nothing here imports rich.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    Parts = list[tuple[str, str | None]]


class Glyphs:
    """The cells a picture is drawn with."""

    __slots__ = ("arrow", "cut", "dot", "eighths", "empty", "full", "line", "mark")

    def __init__(self, *, full: str, cut: str, empty: str, mark: str, eighths: str, dot: str, line: str,
                 arrow: str) -> None:
        self.full, self.cut, self.empty, self.mark = full, cut, empty, mark
        self.eighths = eighths  # a partial last cell, 1/8 to 7/8 (empty: whole cells only)
        self.dot, self.line, self.arrow = dot, line, arrow


UNICODE = Glyphs(full="█", cut="░", empty=" ", mark="│", eighths="▏▎▍▌▋▊▉", dot="●", line="│", arrow="→")
ASCII = Glyphs(full="#", cut="x", empty=" ", mark="|", eighths="", dot="*", line="|", arrow="->")


def glyphs(ascii_only: bool) -> Glyphs:
    return ASCII if ascii_only else UNICODE


def cells(value: float, scale: float, width: int, g: Glyphs) -> str:
    """`value` of `scale` as a run of cells in `width` (partial last cell in eighths): a value
    above zero shows at least a sliver."""
    if scale <= 0 or value <= 0:
        return ""
    eighths = max(1, round(min(value, scale) / scale * width * 8))
    whole, part = divmod(eighths, 8)
    if not g.eighths:
        return g.full * max(1, round(eighths / 8))
    return g.full * whole + (g.eighths[part - 1] if part else "")


def file_bar(raw: int, injected: int, cap: int, scale: int, width: int, g: Glyphs, *, truncated: bool) -> Parts:
    """A bootstrap file: what is injected (filled), what the cap cuts (shaded), the per-file cap as
    a mark, all on one scale so files compare."""
    kept = cells(injected, scale, width, g)
    lost = cells(raw, scale, width, g)
    cut = g.cut * max(0, len(lost) - len(kept)) if raw > injected else ""
    drawn = kept + cut
    at = min(width - 1, round(cap / scale * width)) if scale > 0 else width - 1
    row: Parts = []
    if at < len(drawn):  # the cap falls inside the bar: the mark replaces that cell
        head, tail = drawn[:at], drawn[at + 1:]
        row += _split(head, len(kept), "yellow" if truncated else "green", "red")
        row.append((g.mark, "bold"))
        row += _split(tail, max(0, len(kept) - at - 1), "yellow" if truncated else "green", "red")
    else:
        row += _split(drawn, len(kept), "yellow" if truncated else "green", "red")
        row.append((g.empty * (at - len(drawn)), None))
        row.append((g.mark, "dim"))
    return row


def _split(text: str, kept: int, kept_style: str, cut_style: str) -> Parts:
    return [(part, style) for part, style in ((text[:kept], kept_style), (text[kept:], cut_style)) if part]


def gauge(used: int, total: int, width: int, g: Glyphs) -> Parts:
    """A context window: the used share filled, green under 70 %, yellow under 90 %, red above."""
    share = used / total if total > 0 else 0.0
    style = "green" if share < 0.7 else "yellow" if share < 0.9 else "bold red"
    filled = cells(used, total, width, g)
    return [("[", "dim"), (filled, style), (g.empty * max(0, width - len(filled)), None), ("]", "dim")]


def bar_chart(rows: Sequence[tuple[str, int]], width: int, g: Glyphs, style: str = "cyan") -> list[Parts]:
    """A horizontal bar chart: each label, then its value's bar on the largest value's scale."""
    if not rows:
        return []
    scale = max(value for _label, value in rows)
    label_width = max(len(label) for label, _value in rows)
    bar_width = max(4, width - label_width - 1)
    return [[(label.ljust(label_width) + " ", None), (cells(value, scale, bar_width, g), style)]
            for label, value in rows]


def before_after(before: int, after: int, scale: int, width: int, g: Glyphs) -> Parts:
    """A compaction: the tokens before (dim) and after (filled) on one scale."""
    return [(cells(before, scale, width, g), "dim"), (f" {g.arrow} ", None), (cells(after, scale, width, g), "green")]
