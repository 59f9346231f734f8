"""Reading untrusted JSON from the gateway: a field as an object or a list, else empty."""

from __future__ import annotations

from typing import Any


def obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def arr(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
