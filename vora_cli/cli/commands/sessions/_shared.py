"""What the `vora sessions` commands share: sizes as the session views print them."""

from __future__ import annotations


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
