"""JSON text as vora writes it: strict (no NaN/Infinity), with the characters a terminal acts on
escaped, compact documents from an encoder built once (`cli/output.py` writes them)."""

from __future__ import annotations

import json
import re

from vora_cli.core.strict_json import non_finite_as_strings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Compiled on first use (`re`'s cache keeps it): its class is a 64K-entry table; ASCII text skips it.
_RAW_IN_JSON = "[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"


def to_json(payload: Any, *, indent: int | None = 2, ascii_only: bool = False) -> str:
    """Strict JSON: a JSON5 `Infinity`/`NaN` from a config becomes the string "Infinity"/"NaN",
    so every JSON parser (not only Python's) reads the document. `ascii_only`: `\\u` escapes
    for a stdout that cannot encode the text (the same document to a JSON reader)."""
    try:
        text = _encoder(indent, ascii_only).encode(payload)
    except ValueError:
        text = json.dumps(non_finite_as_strings(payload), indent=indent, ensure_ascii=ascii_only, default=str,
                          allow_nan=False)
    return escape_raw_in_json(text)


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


class _CompactEncoder:
    """`json.JSONEncoder(ensure_ascii=…, default=str, allow_nan=False).encode` for compact JSON,
    with its C encoder made once instead of on every call (a streamed list of 20,000 segments
    encodes 20,000 documents: half of that time was making the encoder)."""

    def __init__(self, ascii_only: bool) -> None:
        from json import encoder

        self.c_make_encoder: Any = getattr(encoder, "c_make_encoder", None)
        self.string = encoder.encode_basestring_ascii if ascii_only else encoder.encode_basestring
        self._fresh()

    def _fresh(self) -> None:
        # the circular-reference marks are emptied by every encode that finishes; after one that
        # raised, a stale mark could match a new object's id: start over
        self._encode = self.c_make_encoder({}, str, self.string, None, ": ", ", ", False, False, False)

    def encode(self, payload: Any) -> str:
        if isinstance(payload, str):
            return str(self.string(payload))
        try:
            return "".join(self._encode(payload, 0))
        except BaseException:
            self._fresh()
            raise


_ENCODERS: dict[tuple[int | None, bool], json.JSONEncoder | _CompactEncoder] = {}


def _encoder(indent: int | None, ascii_only: bool) -> json.JSONEncoder | _CompactEncoder:
    """What `json.dumps(..., indent=, ensure_ascii=, default=str, allow_nan=False)` builds on
    every call, built once."""
    found = _ENCODERS.get((indent, ascii_only))
    if found is None:
        from json import encoder

        compact = indent is None and getattr(encoder, "c_make_encoder", None) is not None
        found = _ENCODERS[(indent, ascii_only)] = _CompactEncoder(ascii_only) if compact else json.JSONEncoder(
            indent=indent, ensure_ascii=ascii_only, default=str, allow_nan=False)
    return found
