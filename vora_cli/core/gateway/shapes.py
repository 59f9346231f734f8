"""Reading untrusted JSON from the gateway: a field as an object, a list or a finite number, else empty."""

from __future__ import annotations

import math

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def arr(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def finite(value: Any) -> int | float | None:
    """A number vora can compute with: not a bool, not NaN or ±Infinity (a peer's `1e400` parses as
    infinity, and `int()` of it would raise as `internal`)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value if isinstance(value, int) or math.isfinite(value) else None
