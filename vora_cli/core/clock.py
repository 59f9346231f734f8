"""vora's one clock: milliseconds since the epoch, pinned by `VORA_NOW_MS` when it is set (docs/devices.md);
and the one way a moment is written as text, `iso_utc` (docs/exit-codes-and-json.md, "Times").
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping

from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

NOW_ENV = "VORA_NOW_MS"


def now_ms(env: Mapping[str, str] | None = None) -> int:
    """The current time in ms since the epoch; `VORA_NOW_MS` in `env` (default: os.environ) pins it."""
    pinned = (os.environ if env is None else env).get(NOW_ENV)
    if pinned:
        whole = re.fullmatch(r"\s*([+-]?)0*([0-9]+)\s*", pinned)
        if whole is None:
            raise VoraError("usage", f"{NOW_ENV}={pinned[:40]!r} is not a whole number of milliseconds",
                            f"unset it, or pin a time such as {NOW_ENV}=1775986200000")
        sign, digits = whole.groups()
        ms = int(sign + digits) if len(digits) <= 16 else _LAST_MS + 1  # longer is past any date
        if not _FIRST_MS <= ms <= _LAST_MS:
            raise VoraError("usage", f"{NOW_ENV}={pinned[:40]!r} is outside the years 1-9999 a time can be written in",
                            f"unset it, or pin a time such as {NOW_ENV}=1775986200000")
        return ms
    return time.time_ns() // 1_000_000


# the first and last millisecond `iso_utc` can write (0001-01-01T00:00:00.000Z, 9999-12-31T23:59:59.999Z)
_FIRST_MS, _LAST_MS = -62_135_596_800_000, 253_402_300_799_999


class _Dates:
    """`datetime`, imported on the first moment written or read as text: `now_ms` (every command)
    needs none of it, and `vora doctor` on most installs writes no date."""

    loaded = False

    def load(self) -> _Dates:
        from datetime import UTC, datetime, timedelta

        self.datetime, self.timedelta = datetime, timedelta
        self.epoch = datetime(1970, 1, 1, tzinfo=UTC)
        self.one_ms = timedelta(milliseconds=1)
        self.loaded = True
        return self


_dates = _Dates()
# A date, `T` or a space, a time, optional fraction and offset: what `parse_iso_ms` accepts.
# Compiled on first use (`re`'s cache keeps it): most commands that ask the clock read no ISO time.
_ISO = r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:?\d\d)?"


def iso_utc(ms: int) -> str:
    """`2026-04-12T09:30:00.000Z` for epoch ms `ms`, as JavaScript's `toISOString` writes it.

    Raises OverflowError outside the years 1-9999 (`iso_or_none` is for values read from files).
    """
    dates = _dates if _dates.loaded else _dates.load()
    moment = dates.epoch + dates.timedelta(milliseconds=ms)
    if moment.year >= 1000:
        return moment.isoformat(timespec="milliseconds")[:-6] + "Z"  # less its `+00:00`
    # Years before 1000 padded to four digits, as JavaScript writes them (strftime's %Y does not pad).
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment.hour:02d}:{moment.minute:02d}:"
            f"{moment.second:02d}.{moment.microsecond // 1000:03d}Z")


def iso_or_none(value: Any) -> str | None:
    """`iso_utc` of a value read from a file: a finite number of epoch ms (cut to whole ms, as a
    JavaScript Date holds it), an ISO string (normalised to UTC), else None."""
    ms = ms_or_none(value)
    if ms is None:
        return None
    try:
        return iso_utc(ms)
    except OverflowError:
        return None


def ms_or_none(value: Any) -> int | None:
    """Epoch ms of a value read from a file: a finite number, or an ISO 8601 string; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if value == value and abs(value) != float("inf") else None
    if isinstance(value, str):
        return parse_iso_ms(value)
    return None


def parse_iso_ms(text: str | None) -> int | None:
    """Epoch ms of an ISO 8601 time (`…Z`, `…+02:00`; one without an offset is local time, as the
    gateway's log writes it), None when it is not one."""
    if not text or len(text) > 64 or not re.fullmatch(_ISO, text.strip(), re.IGNORECASE):
        return None
    try:
        dates = _dates if _dates.loaded else _dates.load()
        moment = dates.datetime.fromisoformat(text.strip().upper().replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.astimezone()
        return (moment - dates.epoch) // dates.one_ms
    except (ValueError, OverflowError, OSError):  # year 1 or 9999 in local time is out of range
        return None
