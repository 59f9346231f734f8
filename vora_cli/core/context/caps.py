"""The per-file and total bootstrap caps, and where each came from (spec ``context.md`` § Caps)."""

from __future__ import annotations

import math
from collections.abc import Mapping

from vora_cli.core.agents import agents_defaults
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass
from vora_cli.core.strict_json import is_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_MAX_CHARS = 20_000
DEFAULT_TOTAL_MAX_CHARS = 150_000


@dataclass(frozen=True)
class Caps:
    """The per-file and total character caps, and where each came from."""
    max_chars: int
    max_chars_source: str  # "default" | "config" | "flag"
    total_max_chars: int
    total_max_chars_source: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "maxChars": self.max_chars,
            "maxCharsSource": self.max_chars_source,
            "totalMaxChars": self.total_max_chars,
            "totalMaxCharsSource": self.total_max_chars_source,
        }


def _config_cap(value: Any) -> int | None:
    # Spec § Caps: "a finite number > 0 (floored)". A JSON bool is not a number.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not is_finite(value) or value <= 0:
        return None
    return math.floor(value)


def resolve_caps(config: Mapping[str, Any], max_chars_flag: int | None, total_flag: int | None) -> Caps:
    """The per-file and total caps, and where each came from (spec § Caps)."""
    defaults = agents_defaults(config)

    def pick(flag: int | None, flag_name: str, key: str, fallback: int) -> tuple[int, str]:
        if flag is not None:
            if flag <= 0:
                raise VoraError("usage", f"{flag_name} must be a positive whole number, got {flag}")
            return flag, "flag"
        from_config = _config_cap(defaults.get(key))
        if from_config is not None:
            return from_config, "config"
        return fallback, "default"

    max_chars, max_src = pick(max_chars_flag, "--max-chars", "bootstrapMaxChars", DEFAULT_MAX_CHARS)
    total, total_src = pick(
        total_flag, "--total-max-chars", "bootstrapTotalMaxChars", DEFAULT_TOTAL_MAX_CHARS
    )
    return Caps(max_chars, max_src, total, total_src)
