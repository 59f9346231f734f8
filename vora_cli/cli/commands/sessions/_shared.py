"""What the `vora sessions` commands share: the effective config and a size formatter."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from vora_cli.core.paths import VoraPaths

AgentOption = Annotated[
    str | None, typer.Option("--agent", help="The agent whose store to read (default: the default agent).")
]


def load_effective_config(paths: VoraPaths) -> dict[str, Any]:
    """The effective config ($include merged, ${VAR} resolved); an absent file is empty."""
    from vora_cli.core.config.loading import load_config

    return load_config(paths).effective


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
