"""`vora gateway call --params JSON`: what vora will send, read as the gateway's `JSON.parse` will read it;
non-finite numbers and too-deep nesting are refused, since the gateway would drop such a frame.
"""

from __future__ import annotations

import math
import sys

from vora_cli.core import nesting
from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

_HINT = "give a JSON object, e.g. --params '{\"probe\": true}'"


class _NotSendable(ValueError):
    pass


def _refuse(text: str) -> NoReturn:
    shown = text if len(text) <= 24 else text[:24] + "…"
    raise _NotSendable(f"{shown} is not a finite JSON number (the gateway's JSON.parse would not read it back)")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        _refuse(text)
    return value


def _int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:  # past Python's digit limit: a double's range is far behind
        _refuse(text)
    if abs(value) > sys.float_info.max:  # JSON.parse holds numbers as doubles: this is Infinity
        _refuse(text)
    return value


def parse_call_params(text: str) -> dict[str, Any]:
    """The `--params` object; a usage error (exit 2) for anything the gateway would not read back."""
    try:
        value = nesting.loads(text, parse_float=_float, parse_int=_int, parse_constant=_refuse)
    except _NotSendable as exc:
        raise VoraError("usage", f"--params: {exc}", _HINT) from None
    except nesting.TooDeep as exc:
        raise VoraError("usage", f"--params: {exc.msg} (column {exc.colno})", _HINT) from None
    except ValueError as exc:
        raise VoraError("usage", f"--params is not valid JSON: {exc}", "give a JSON object, e.g. --params '{}'") from None
    if not isinstance(value, dict):
        raise VoraError("usage", f"--params must be a JSON object, got {type(value).__name__}", _HINT)
    return value
