"""Strict JSON for data that may hold non-finite numbers (one home for the rule): as strings in what vora
prints, as `1e400`/`-1e400`/null in a file the gateway reads back, and refused on reading.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

_POS_INF = "\x00vora:+inf\x00"
_NEG_INF = "\x00vora:-inf\x00"


def refuse_non_finite(name: str) -> NoReturn:
    """`json.loads(..., parse_constant=refuse_non_finite)`: NaN and ±Infinity are a ValueError."""
    raise ValueError(f"{name} is not JSON")


def replace_non_finite(value: Any, replace: Callable[[float], Any]) -> Any:
    """`value` with every NaN/±Infinity float (in dicts, lists and tuples) replaced by `replace(x)`."""
    if isinstance(value, float) and not math.isfinite(value):
        return replace(value)
    if isinstance(value, dict):
        return {k: replace_non_finite(v, replace) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [replace_non_finite(v, replace) for v in value]
    return value


MAX_DOUBLE = sys.float_info.max


def is_finite(value: float) -> bool:
    """JavaScript's `Number.isFinite` of a number read from a file. An integer past the largest
    double is what `JSON.parse` reads as Infinity, and what `math.isfinite` cannot take (it raises
    OverflowError): not finite."""
    if isinstance(value, int):
        return -MAX_DOUBLE <= value <= MAX_DOUBLE
    return math.isfinite(value)


def as_double(value: float) -> float:
    """The double JavaScript holds for a number read from a file: ±Infinity past the largest one."""
    if isinstance(value, int) and not -MAX_DOUBLE <= value <= MAX_DOUBLE:
        return math.inf if value > 0 else -math.inf
    return float(value)


def huge_integer(text: str) -> float:
    """An integer literal that `int()` refused for its length (Python caps the digits it converts
    from text, since the conversion is quadratic): the double JavaScript reads for it, ±Infinity
    past the largest one, as `as_double` gives. `float()` reads any length in linear time. For a
    reader's `except ValueError` around `int(text)`, never in the way of an ordinary number."""
    return float(text)


SAFE_INTEGER = 2**53  # past it, not every integer is a double


def js_number(value: int | float) -> str:
    """`String(n)` in JavaScript."""
    if isinstance(value, int):
        if abs(value) < SAFE_INTEGER:
            return str(value)
        value = as_double(value)  # JavaScript holds every number as a double
    if not math.isfinite(value):
        return non_finite_text(value)
    if value.is_integer() and abs(value) < SAFE_INTEGER:
        return str(int(value))
    text = repr(value)
    if "e" not in text:
        return text[:-2] if text.endswith(".0") else text
    mantissa, exp_text = text.split("e")
    exp = int(exp_text)
    if -7 < exp < 21:  # JavaScript writes these in plain decimal form
        digits = mantissa.replace(".", "").lstrip("-")
        sign = "-" if value < 0 else ""
        point = exp + 1  # position of the decimal point after the first digit
        if point <= 0:
            return f"{sign}0.{'0' * -point}{digits}"
        if point >= len(digits):
            return sign + digits + "0" * (point - len(digits))
        return f"{sign}{digits[:point]}.{digits[point:]}"
    return f"{mantissa}e{'+' if exp > 0 else '-'}{abs(exp)}"


def same_number(a: int | float, b: int | float) -> bool:
    """Whether JSON5 text holding `a` and text holding `b` give JavaScript the same Number: both
    become doubles (`3`, `3.00`, `3e0` and `0x3` alike; an integer past 2**53 rounded as
    `JSON.parse` rounds it, one past the largest double Infinity), compared as the gateway's
    `===` does, `-0` equal to `0`, and a NaN equal to a NaN (it reads back as NaN: no change)."""
    if type(a) is int and type(b) is int and -SAFE_INTEGER < a < SAFE_INTEGER and -SAFE_INTEGER < b < SAFE_INTEGER:
        return a == b
    x, y = as_double(a), as_double(b)
    return x == y or (x != x and y != y)


def non_finite_text(value: float) -> str:
    """How vora spells a non-finite number in text: "NaN", "Infinity", "-Infinity" (JavaScript's
    `String(n)` and JSON5's words; the one spelling, `config get` and the gateway's numbers alike)."""
    return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"


def non_finite_as_strings(value: Any) -> Any:
    """`value` with NaN/±Infinity as the strings "NaN"/"Infinity"/"-Infinity"."""
    return replace_non_finite(value, non_finite_text)


def _as_sentinel(value: float) -> str | None:
    return None if math.isnan(value) else _POS_INF if value > 0 else _NEG_INF


def dumps_overflowing(value: Any, *, indent: int | None = None, ensure_ascii: bool = False) -> str:
    """`json.dumps(value)`, but strict JSON: ±Infinity as `1e400`/`-1e400`, NaN as null."""
    try:
        return json.dumps(value, indent=indent, ensure_ascii=ensure_ascii, allow_nan=False)
    except ValueError:
        cleaned = replace_non_finite(value, _as_sentinel)
        text = json.dumps(cleaned, indent=indent, ensure_ascii=ensure_ascii, allow_nan=False)
        return text.replace(json.dumps(_POS_INF), "1e400").replace(json.dumps(_NEG_INF), "-1e400")
