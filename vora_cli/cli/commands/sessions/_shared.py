"""What the `vora sessions` commands share: the --agent option and a size formatter."""

from __future__ import annotations

from typing import Annotated

import typer

AgentOption = Annotated[
    str | None, typer.Option("--agent", metavar="ID", help="The agent whose store to read (default: the default agent).")
]


def size_text(size: int | None) -> str:
    """`812 B`, `14.2 KB`, `3.1 MB` (1,000-based, one decimal); `missing` when unknown."""
    if size is None:
        return "missing"
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} B"
