"""vora's one clock: milliseconds since the epoch, pinned by `VORA_NOW_MS` when it is set.

`VORA_NOW_MS` is for tests (docs/devices.md): it lets expiry be tested at 4:59 and 5:01 from the
outside, for `vora devices` and `vora doctor` alike. Every "now" in vora comes from here.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

from vora_cli.core.errors import VoraError

NOW_ENV = "VORA_NOW_MS"


def now_ms(env: Mapping[str, str] | None = None) -> int:
    """The current time in ms since the epoch; `VORA_NOW_MS` in `env` (default: os.environ) pins it."""
    pinned = (os.environ if env is None else env).get(NOW_ENV)
    if pinned:
        try:
            return int(pinned)
        except ValueError:
            raise VoraError("usage", f"{NOW_ENV}={pinned!r} is not a whole number of milliseconds", None) from None
    return time.time_ns() // 1_000_000
