"""What the `vora backup` commands share: sizes as people read them, progress."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vora_cli.cli.output import Output


def size_text(count: int | None) -> str:
    from vora_cli.cli.progress import size_text as shown

    return "-" if count is None else shown(count)


@contextlib.contextmanager
def working(out: Output, message: str) -> Iterator[None]:
    """`message` on a terminal's stderr, its seconds ticking, while a long step runs."""
    from vora_cli.cli.progress import terminal_progress

    progress = terminal_progress(out.run, out.json_mode)
    if progress is not None:
        progress.step(message)
    try:
        yield
    finally:
        if progress is not None:
            progress.close()


def bullets(out: Output, title: str, lines: Sequence[str], shown: int) -> None:
    """`title`, then up to `shown` lines as `- …` and how many more `--json` lists."""
    out.line(title)
    for line in lines[:shown]:
        out.line(f"- {line}")
    if len(lines) > shown:
        out.line(f"  ... and {len(lines) - shown} more (--json lists each)")
