"""Numbers and JSON as the gateway (JavaScript) writes them, since its texts are compared byte for byte
(spec sessions.md, "Reading rules").
"""

from __future__ import annotations

import json
import math
import re

from vora_cli.core import nesting
from vora_cli.core.strict_json import as_double, is_finite, js_number, refuse_non_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeGuard

# Compiled where used (`re`'s cache keeps it; its 2,048-character range is costly to compile):
# only non-ASCII text is searched.
_LONE_SURROGATE = "[\ud800-\udfff]"
_SAFE_INTEGER = 2**53
_INDEX_KEY = r"^(?:0|[1-9][0-9]{0,9})$"


def js_load_float(text: str) -> int | float:
    """`parse_float` hook: a JSON number with a fraction or exponent, as JavaScript holds it.

    An integral value (exactly representable) becomes an int, so `20000.0` prints as `20000`."""
    value = float(text)
    if value.is_integer() and abs(value) < _SAFE_INTEGER:
        return int(value)
    return value


def loads(data: bytes | str) -> Any:
    """Strict JSON (no NaN/Infinity, as JSON.parse), numbers in JavaScript form."""
    return nesting.loads(data, parse_float=js_load_float, parse_constant=refuse_non_finite)


def is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_finite_number(value: Any) -> TypeGuard[int | float]:
    # An integer past the largest double is what JavaScript's JSON.parse reads as Infinity: not
    # finite for the gateway, and `value / 1000` of it would overflow a float here.
    return isinstance(value, int | float) and not isinstance(value, bool) and is_finite(value)


def _escape_lone_surrogates(text: str) -> str:
    return re.compile(_LONE_SURROGATE).sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _string(value: str) -> str:
    out = json.dumps(value, ensure_ascii=False)
    return out if out.isascii() or not re.search(_LONE_SURROGATE, out) else _escape_lone_surrogates(out)


def _ordered_items(value: dict[str, Any]) -> list[tuple[str, Any]]:
    """JavaScript's property order: integer-like keys ascending first, then insertion order."""
    items = list(value.items())
    index_key = re.compile(_INDEX_KEY).match
    if not any(index_key(k) for k in value):
        return items
    index = sorted(((k, v) for k, v in items if index_key(k) and int(k) < 2**32 - 1), key=lambda kv: int(kv[0]))
    rest = [(k, v) for k, v in items if not (index_key(k) and int(k) < 2**32 - 1)]
    return index + rest


def js_stringify(value: Any, indent: int | None = None) -> str:
    """`JSON.stringify(value, null, indent)`: no spaces when compact, `": "` when indented."""
    parts: list[str] = []
    _write(value, parts, indent, 0)
    return "".join(parts)


def _write(value: Any, parts: list[str], indent: int | None, depth: int) -> None:
    if value is None or value is True or value is False:
        parts.append("null" if value is None else ("true" if value else "false"))
    elif isinstance(value, str):
        parts.append(_string(value))
    elif isinstance(value, int | float):
        parts.append(js_number(value) if is_finite(value) else "null")
    elif isinstance(value, dict):
        items = _ordered_items(value)
        if not items:
            parts.append("{}")
            return
        if indent is None:
            parts.append("{")
            for i, (key, child) in enumerate(items):
                if i:
                    parts.append(",")
                parts.append(_string(str(key)) + ":")
                _write(child, parts, indent, depth + 1)
            parts.append("}")
            return
        pad = "\n" + " " * (indent * (depth + 1))
        parts.append("{")
        for i, (key, child) in enumerate(items):
            parts.append(("," if i else "") + pad + _string(str(key)) + ": ")
            _write(child, parts, indent, depth + 1)
        parts.append("\n" + " " * (indent * depth) + "}")
    elif isinstance(value, list | tuple):
        if not value:
            parts.append("[]")
            return
        if indent is None:
            parts.append("[")
            for i, child in enumerate(value):
                if i:
                    parts.append(",")
                _write(child, parts, indent, depth + 1)
            parts.append("]")
            return
        pad = "\n" + " " * (indent * (depth + 1))
        parts.append("[")
        for i, child in enumerate(value):
            parts.append(("," if i else "") + pad)
            _write(child, parts, indent, depth + 1)
        parts.append("\n" + " " * (indent * depth) + "]")
    else:
        parts.append(_string(str(value)))


def format_number(value: Any) -> str:
    """`Intl.NumberFormat("en-US").format(n)`: `1,742`, `-1,234`, up to 3 fraction digits."""
    if not is_number(value):
        return "NaN"
    if isinstance(value, int) and abs(value) >= _SAFE_INTEGER:
        value = as_double(value)  # JavaScript holds a number this big as a double: its digits past 17 are zeros
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "∞" if value > 0 else "-∞"
        from decimal import ROUND_HALF_UP, Decimal, localcontext

        # ICU rounds the shortest round-trip decimal of the double, not its exact binary value;
        # a double has up to 309 integer digits, more than the default 28 of precision
        with localcontext() as context:
            context.prec = 400
            rounded = Decimal(repr(value)).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
        whole, _, frac = f"{abs(rounded):f}".partition(".")
        frac = frac.rstrip("0")
        sign = "-" if rounded < 0 else ""
        return f"{sign}{int(whole):,}" + (f".{frac}" if frac else "")
    return f"{value:,}"


def to_fixed(value: float, digits: int) -> str:
    """`n.toFixed(digits)`: half-up on the exact binary value (Python's format rounds half-even);
    from 1e21 on, and for NaN and ±Infinity, `String(n)` (ECMA-262 Number.prototype.toFixed)."""
    from decimal import ROUND_HALF_UP, Decimal

    if not math.isfinite(value) or abs(value) >= 1e21:
        return js_number(value)
    quantum = Decimal(1).scaleb(-digits)
    return f"{Decimal(value).quantize(quantum, rounding=ROUND_HALF_UP):f}"


def js_round(value: float) -> int:
    """`Math.round`: half-up (towards +infinity on a tie)."""
    return math.floor(value + 0.5)


def well_formed(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD (what a UTF-8 writer emits)."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")  # fails exactly on a surrogate, cheaper than searching for one
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text


def utf8(text: str) -> bytes:
    """UTF-8 bytes of `text`, a lone surrogate as U+FFFD (never raises)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return well_formed(text).encode("utf-8")
