"""JSON text as vora writes it: strict (no NaN/Infinity), with the characters a terminal acts on
escaped (`cli/output.py` writes them)."""

from __future__ import annotations

import json
import os
import re

from vora_cli.core.strict_json import SAFE_INTEGER, as_double, is_finite, js_number, non_finite_as_strings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Compiled on first use (`re`'s cache keeps it): its class is a 64K-entry table; ASCII text skips it.
_RAW_IN_JSON = "[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


def to_json(payload: Any, *, indent: int | None = 2, ascii_only: bool = False, js_numbers: bool = False) -> str:
    """Strict JSON: a JSON5 `Infinity`/`NaN` becomes the string "Infinity"/"NaN", so every JSON
    parser reads it. `ascii_only`: `\\u` escapes for a stdout that cannot encode the text.
    `js_numbers`: numbers as JavaScript's JSON.stringify writes them (`3.00` as `3`, a huge
    integer as the double the gateway reads), for documents that show config values."""
    marks: list[str] = []
    if js_numbers:
        payload = _marked_numbers(payload, marks)
    try:
        text = json.dumps(payload, indent=indent, ensure_ascii=ascii_only, default=str, allow_nan=False)
    except ValueError:
        text = json.dumps(non_finite_as_strings(payload), indent=indent, ensure_ascii=ascii_only, default=str,
                          allow_nan=False)
    if marks:
        text = re.sub(f'"\\\\u0000{_MARK}([0-9]+)\\\\u0000"', lambda m: marks[int(m.group(1))], text)
    return escape_raw_in_json(text)


# A number whose JSON text differs from JavaScript's is written as this string, then the string
# replaced by the text: the encoder has no hook for a float's digits. NUL and a random part keep a
# config's own strings from being taken for one.
_MARK = f"vora-number-{os.urandom(8).hex()}:"


def _marked_numbers(value: Any, marks: list[str]) -> Any:
    kind = type(value)
    if kind is int or kind is float:
        if kind is int and -SAFE_INTEGER < value < SAFE_INTEGER:
            return value
        if not is_finite(value):
            return as_double(value)  # the document's "Infinity"/"NaN" strings
        text = js_number(value)
        if text.lstrip("-").isdigit() and len(text) < 16:
            return int(text)
        marks.append(text)
        return f"\x00{_MARK}{len(marks) - 1}\x00"
    if kind is dict:
        return {k: _marked_numbers(v, marks) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [_marked_numbers(v, marks) for v in value]
    return value


def escape_raw_in_json(text: str) -> str:
    """JSON text (vora's, or one made the gateway's way: `context json --session`) with the
    characters a JSON encoder leaves raw that a terminal acts on written as `\\uXXXX` escapes."""
    if text.isascii() or not re.compile(_RAW_IN_JSON).search(text):
        return text
    # A lone surrogate is written as its escape (what JavaScript's JSON.stringify does), and so
    # are the characters json.dumps leaves raw that a terminal acts on (C1 controls, DEL, U+2028/9,
    # bidi overrides): `\uXXXX` is the same string to every JSON reader, and `vora … --json` on a
    # terminal or in a CI log cannot be made to rewrite it.
    return re.compile(_RAW_IN_JSON).sub(lambda m: f"\\u{ord(m.group()):04x}", text)
