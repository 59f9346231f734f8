"""Redacted, bounded previews of transcript text with the gateway's default log-redaction patterns (spec
sessions.md, "Redaction"); only a bounded prefix of a text is ever scanned (docs/sessions.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from vora_cli.core.secrets import REDACTED, TOKEN_SHAPES
from vora_cli.core.sessions.jsfmt import well_formed

# Transcript text follows its own spec'd patterns (sessions.md, "Redaction"): free text has no keys
# to judge, so this is not the config key rule of core/secrets.py; the marker is the same one.
PREVIEW_MAX = 200
# Characters of a text looked at for a preview (the rest is never shown). A secret that starts
# inside the first 200 characters is matched within this window (or redacted to its end).
SCAN_MAX = 2048

_I = re.IGNORECASE

# PEM first, so the key-looking body of a block is not half-redacted by the token patterns.
# The label runs are unbounded, as the gateway's are (a cap missed a 41-character label); linear all
# the same: each starts at the literal dashes, which the label's class cannot hold.
_PEM = r"(-----BEGIN [A-Z ]*PRIVATE KEY-----)(?:[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----)|[\s\S]*)"

# (literals, one of which the lower-cased text must hold for the pattern to be tried; pattern;
# group holding the secret). Most text holds none of the literals, so each pattern is compiled
# when first tried (`_pattern`), not at every start that reads a session.
_NAMES = ("key", "token", "secret", "passw")
_RULES: tuple[tuple[tuple[str, ...], str, int], ...] = (
    # NAME=value / NAME: value, NAME ending in KEY|TOKEN|SECRET|PASSWORD|PASSWD, of any length as the
    # gateway's (`{0,128}` would miss longer names). Linear: `\b` lets a name start only where
    # a word run starts, so each run is walked back once
    (_NAMES, r"\b[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)\b\s*[=:]\s*([\"']?)([^\s\"'\\]+)\1", 2),
    # JSON fields (a value cut by the preview window, with no closing quote, is redacted too)
    (_NAMES, r"\"(?:apiKey|token|secret|password|passwd|accessToken|refreshToken)\"\s*:\s*\"([^\"]+)(?:\"|\Z)", 1),
    # CLI flags
    (_NAMES, r"--(?:api[-_]?key|hook[-_]?token|token|secret|password|passwd)\s+([\"']?)([^\s\"']+)\1", 2),
    # Authorization headers, then any long bearer token
    (("bearer",), r"Authorization\s*[:=]\s*Bearer\s+([A-Za-z0-9._\-+=]+)", 1),
    (("bearer",), r"\bBearer\s+([A-Za-z0-9._\-+=]{18,})\b", 1),
    # well-known token prefixes (core/secrets.py: the config's values are judged by the same ones)
    *(((needle,), source, 1) for needle, source in TOKEN_SHAPES),
    # Telegram bot tokens (also inside a Bot API URL: /bot<token>/)
    (("bot:",), r"\bbot(\d{6,}:[A-Za-z0-9_-]{20,})\b", 1),
    (("bot:",), r"\b(\d{6,}:[A-Za-z0-9_-]{20,})\b", 1),
    # vora's: the first three with their quotes escaped, as they are in JSON text inside a JSON
    # string (a raw log line of `logs.tail`: `PASSWORD=\"…\"`, `{\"apiKey\":\"…\"}`, `\\\"` a
    # level deeper), where the gateway's stop at the backslash. The value runs to a quote (escaped
    # or not) or a blank; possessive, and each starts at its literal (docs/secrets.md, "Escaped quotes")
    (_NAMES, r"\b[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)\b\s*[=:]\s*(?:\\\\)*+\\[\"']((?:[^\s\"'\\]++|\\++(?![\\\"']))++)", 1),
    (_NAMES, r"(?<=\\)\"(?:apiKey|token|secret|password|passwd|accessToken|refreshToken)(?:\\\\)*+\\\"\s*+:\s*+(?:\\\\)*+\\\""
             r"((?:[^\"\\\n]++|\\++(?![\\\"]))++)", 1),
    (_NAMES, r"--(?:api[-_]?key|hook[-_]?token|token|secret|password|passwd)\s+(?:\\\\)*+\\[\"']"
             r"((?:[^\s\"'\\]++|\\++(?![\\\"']))++)", 1),
)
_NEEDLES = tuple(dict.fromkeys(n for needles, _p, _g in _RULES for n in needles if n != "bot:"))
# Each `in` test costs a pass over the text: the needles holding `-` or `_` are looked for only when
# the text holds one of those (a cheap single-character scan), which prose often does not.
_PLAIN_NEEDLES = tuple(n for n in _NEEDLES if "-" not in n and "_" not in n)
_MARKED_NEEDLES = tuple(n for n in _NEEDLES if "-" in n or "_" in n)
_TELEGRAM_TRIGGER = r"\d{6}:"
# The same trigger found by its colon: a search that starts at a literal skips to each colon (its
# plain search tries every position).
_TELEGRAM_COLON = r":(?<=\d{6}:)"
_TRIGGER_COLONS_MAX = 64  # past this many colons one regex search beats a match per colon


@cache
def _pattern(source: str) -> re.Pattern[str]:
    """One of this module's case-insensitive patterns, compiled on first use."""
    return re.compile(source, _I)


def _has_telegram_trigger(text: str) -> bool:
    """Whether `_TELEGRAM_TRIGGER` is found in `text`, tried only where it can end: at a colon (a search
    tries every position of the text)."""
    if text.count(":") > _TRIGGER_COLONS_MAX:
        return _pattern(_TELEGRAM_TRIGGER).search(text) is not None
    colon = text.find(":", 6)
    while colon != -1:
        if _pattern(_TELEGRAM_TRIGGER).match(text, colon - 6):
            return True
        colon = text.find(":", colon + 1)
    return False


def telegram_trigger_at(text: str, start: int = 0) -> int:
    """The colon of the first Telegram trigger (six digits and a colon) whose colon is at or
    after `start`, or -1: for a caller that sifts many texts at once (`TEXT_MARKS`)."""
    found = _pattern(_TELEGRAM_COLON).search(text, start)
    return -1 if found is None else found.start()


def _pem(match: re.Match[str]) -> str:
    end = match.group(2)
    return match.group(1) + "\n" + REDACTED + ("\n" + end if end else "")


# The only non-ASCII characters whose lower case holds an ASCII letter (İ -> i̇, Kelvin sign -> k);
# a test walks every code point to keep this list whole.
_LOWER_TO_ASCII = ("\u0130", "\u212a")


def _lowered_for_needles(text: str) -> str:
    """`text.lower()` as the ASCII needles see it. Lower-casing non-ASCII text is slow; any other
    non-ASCII character lowers to non-ASCII characters, which no needle holds: `?` stands in."""
    if text.isascii() or any(char in text for char in _LOWER_TO_ASCII):
        return text.lower()
    return text.encode("ascii", "replace").decode("ascii").lower()


def redact_text(text: str) -> str:
    """`text` with every secret the gateway's default patterns find replaced by `<redacted>`."""
    text, spans = pattern_spans(text)
    return redact_spans(text, spans)


# The rules of `_RULES` that know a secret by its shape, whatever names it: a long bearer token,
# the token prefixes, Telegram's bot tokens (the others know one by the name before it).
_SHAPE_RULES = frozenset(range(4, 16))


def pattern_spans(text: str, *, shapes_only: bool = False) -> tuple[str, list[tuple[int, int]]]:
    """What the gateway's default patterns hide in `text`: the text with private key blocks
    hidden (replaced first), and each pattern's spans unmerged (`redact_spans` joins them), for
    `Masker.text`. `shapes_only`: only the patterns that know a secret by its shape (`Masker.code`)."""
    lowered = _lowered_for_needles(text)
    present = {needle for needle in _PLAIN_NEEDLES if needle in lowered}
    if "-" in lowered or "_" in lowered:
        present.update(needle for needle in _MARKED_NEEDLES if needle in lowered)
    if ":" in text and _has_telegram_trigger(text):
        present.add("bot:")
    if "private key" in lowered:
        text = _pattern(_PEM).sub(_pem, text)
    elif not present:
        return text, []  # most text: no pattern can match
    # every pattern on the same text, then the union of what they capture: one pattern's match
    # can swallow where another starts (`TOKEN=--token abc`: the flag's value is abc), so
    # patterns applied one after another on the redacted text would miss what the gateway catches
    spans = []
    for index, (needles, source, group) in enumerate(_RULES):
        if not present.isdisjoint(needles) and (not shapes_only or index in _SHAPE_RULES):
            for match in _pattern(source).finditer(text):
                start, end = match.span(group)
                end = _before_escaped_quote(text, start, end)
                if end > start and text[start:end] != REDACTED:
                    spans.append((start, end))
    return text, spans


def _before_escaped_quote(text: str, start: int, end: int) -> int:
    """The end of the capture `text[start:end]` without the backslashes it ends with when a quote
    follows: they escape that quote (`\\"`, or `\\\\\"` a level deeper), and hiding them would
    break the masked JSON. The gateway's flag and JSON-field patterns read a backslash as part
    of a value (`--token \\"…\\"` takes only `\\`); shown, it says only that a value ended."""
    if text[end : end + 1] in ("\"", "'"):
        while end > start and text[end - 1] == "\\":
            end -= 1
    return end


def redact_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each run of overlapping or touching `spans` replaced by one `<redacted>` (an
    empty span where nothing touches it inserts one: an empty secret value is hidden too)."""
    if not spans:
        return text
    spans.sort()
    parts = []
    kept = 0
    run_start, run_end = spans[0]
    for start, end in spans[1:]:
        if start <= run_end:  # touching runs are one secret, as the plain formulation hides them
            run_end = max(run_end, end)
            continue
        parts += [text[kept:run_start], REDACTED]
        kept, (run_start, run_end) = run_end, (start, end)
    parts += [text[kept:run_start], REDACTED, text[run_end:]]
    return "".join(parts)


# What each pattern of `_RULES` finds, in its order (`vora security audit` names it, never the secret).
_KINDS = ("a NAME=value secret", "a JSON secret field", "a secret command-line flag", "an Authorization header",
          "a bearer token", "an sk- API key", "a GitHub token", "a GitHub token", "a Slack token", "a Slack app token",
          "a Groq API key", "a Google API key", "a Perplexity API key", "an npm token", "a Telegram bot token",
          "a Telegram bot token", "a NAME=value secret", "a JSON secret field", "a secret command-line flag")
# For finding (not redacting) a NAME=value secret: the name's start does not matter, so the pattern
# starts at the literal word (no leading class re-tried at every position) and asks for a value of
# 8 characters or more (`TOKEN=1` is a counter, not a credential).
_NAME_VALUE = r"(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)\b\s*+[=:]\s*+([\"']?)([^\s\"'\\]{8,})\1"
# The same for the escaped form (`PASSWORD=\"…\"`, the rule after the Telegram ones).
_ESCAPED_NAME_VALUE = r"(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)\b\s*+[=:]\s*+(?:\\\\)*+\\[\"'][^\s\"'\\]{8,}"
_FIND_FORMS = {0: _NAME_VALUE, 16: _ESCAPED_NAME_VALUE}


def secret_kind(text: str) -> str | None:
    """What secret-shaped string the gateway's redaction patterns find in `text` (the first
    one), or None. Linear: every pattern tried starts at a literal. Callers bound `text`."""
    lowered = _lowered_for_needles(text)
    if "private key" in lowered and "-----begin" in lowered and _pattern(_PEM).search(text):
        return "a private key"
    present = {needle for needle in _PLAIN_NEEDLES if needle in lowered}
    if "-" in lowered or "_" in lowered:
        present.update(needle for needle in _MARKED_NEEDLES if needle in lowered)
    if ":" in text and _has_telegram_trigger(text):
        present.add("bot:")
    if not present:
        return None
    for index, ((needles, source, _group), kind) in enumerate(zip(_RULES, _KINDS, strict=True)):
        if present.isdisjoint(needles):
            continue
        if _pattern(_FIND_FORMS.get(index, source)).search(text) is not None:
            return kind
    return None


def _escape(char: str) -> str:
    code = ord(char)
    if char == "\n":
        return "\\n"
    if char == "\r":
        return "\\r"
    if char == "\t":
        return "\\t"
    if code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029):
        return f"\\u{code:04x}"
    return char


# Compiled where used (`re`'s cache keeps it; it builds a 64K-entry table): only unprintable
# non-ASCII text is searched.
_NEEDS_ESCAPE = "[\x00-\x1f\x7f-\x9f\u2028\u2029]"


def bounded_join(pieces: Iterable[str], sep: str = " ", limit: int = SCAN_MAX) -> tuple[str, bool]:
    """The first `limit` characters of `sep.join(pieces)`, and whether anything was left out."""
    out: list[str] = []
    size = 0
    for i, piece in enumerate(pieces):
        if i:
            piece = sep + piece
        if size + len(piece) > limit:
            out.append(piece[: limit - size])
            return "".join(out), True
        out.append(piece)
        size += len(piece)
    return "".join(out), False


# Longer than every needle (`github_pat_`, `private key`: 11 characters).
_NEEDLE_SLACK = 16
_HEAD_PLAIN_NEEDLES = (*_PLAIN_NEEDLES, "private key")
_HEAD_NEEDLES = (*_HEAD_PLAIN_NEEDLES, *_MARKED_NEEDLES)
# What an ASCII text must hold, lower-cased, for `redact_text` to change it: one of these, or a
# Telegram trigger (`telegram_trigger_at`). For a caller that sifts many texts at once
# (`core/gateway/shown.py`); a non-ASCII text (`_LOWER_TO_ASCII`) must take the full path.
TEXT_MARKS = _HEAD_NEEDLES


def _unchanged_up_to(text: str, limit: int) -> bool:
    """Whether `redact_text(text)` leaves the first `limit` characters as they are (so a preview of
    `limit` characters needs no full redaction), from the first `limit + _NEEDLE_SLACK`
    characters and the Telegram trigger alone.

    Every pattern's secret starts at or after a needle the match holds (a private key after its
    `PRIVATE KEY-----` line): with no needle in the head, each secret starts past `limit`, never
    shown. A non-ASCII head takes the full path (`K`, the Kelvin sign, is a `k` to a
    case-insensitive pattern); the Telegram trigger is looked for in the whole text, as
    `redact_text` does."""
    head = text[: limit + _NEEDLE_SLACK]
    if not head.isascii():
        return False
    lowered = head.lower()
    for needle in _HEAD_NEEDLES if "-" in lowered or "_" in lowered else _HEAD_PLAIN_NEEDLES:
        if needle in lowered:
            return False
    return not (":" in text and _has_telegram_trigger(text))


def make_preview(text: str, more: bool = False, limit: int = PREVIEW_MAX) -> str:
    """Redact, escape control characters, cut to `limit` characters with a final `…`. `text` is
    already bounded (`bounded_join`); `more` says the source went on, so the preview is cut even
    when the redacted prefix is short."""
    if len(text) > SCAN_MAX:
        text, more = text[:SCAN_MAX], True
    text = well_formed(text if _unchanged_up_to(text, limit) else redact_text(text))
    # Only the first `limit` characters can be shown (an escape is never shorter than its
    # character): they alone are checked and escaped, the rest only says the preview is cut.
    cut = more or len(text) > limit
    text = text[:limit]
    # A printable text needs no escape (every escaped character is unprintable); an unprintable
    # ASCII one always does (0x00-0x1f, 0x7f); other unprintable characters (U+00AD) may not.
    if text.isprintable() or (not text.isascii() and not re.compile(_NEEDS_ESCAPE).search(text)):
        if not cut:
            return text
        if len(text) < limit:
            return text + "…"
        return text[: limit - 1] + "…"
    tokens = [_escape(c) for c in text]
    total = sum(len(t) for t in tokens)
    if total <= limit and not cut:
        return "".join(tokens)
    out: list[str] = []
    size = 0
    for token in tokens:  # never cut inside an escape
        if size + len(token) > limit - 1:
            break
        out.append(token)
        size += len(token)
    return "".join(out) + "…"
