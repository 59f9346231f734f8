"""What vora shows of what a gateway sent: its answers and messages through vora's own secret rules, since
the gateway sends credentials in clear (docs/secrets.md, "From the gateway").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, partial

from vora_cli.core.secrets import (
    MIN_SCRUB_LENGTH,
    REDACTED,
    hide_member_values,
    is_secret_name,
    looks_like_token,
    may_hold_secret_name,
    member_spans,
    order_for_scrub,
    redact,
    redact_urls,
    scrub,
    secret_values,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ENV_SECRETS = ("VORA_GATEWAY_TOKEN", "VORA_GATEWAY_PASSWORD")


def known_secrets(config: Mapping[str, Any], env: Mapping[str, str]) -> frozenset[str]:
    """The secret values this run knows: the config's (placeholders resolved) and the environment's."""
    found = set(secret_values(config))
    for name in ENV_SECRETS:
        value = (env.get(name) or "").strip()
        if len(value) >= MIN_SCRUB_LENGTH:
            found.add(value)
    return frozenset(found)


class Masker:
    """The known secrets, ordered once, and the rules that hide them in text and in payloads."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self.secrets = order_for_scrub(s for s in secrets if len(s.strip()) >= MIN_SCRUB_LENGTH)

    def with_secret(self, secret: str | None) -> Masker:
        """This masker, also hiding `secret` (the credential a connection sent)."""
        if not secret or len(secret.strip()) < MIN_SCRUB_LENGTH or secret in self.secrets:
            return self
        return Masker([*self.secrets, secret])

    def text(self, text: str) -> str:
        """The known values first (one may span what a rule would cut apart), then the member rule
        and the gateway's patterns together (the union of their spans hidden, touching ones as one
        `<redacted>`), then the URL rule. In sequence, either order hides less: patterns first
        leave `X` of `token: Bearer X` shown; the member rule first takes the `PASSWORD=` a
        pattern needs."""
        from vora_cli.core.sessions.redact import pattern_spans, redact_spans

        known = scrub(text, self.secrets)
        seen, spans = pattern_spans(known)
        if ":" in seen and may_hold_secret_name(seen):  # else no member's name is a secret one
            spans += member_spans(seen)
        if not spans:
            return seen
        hidden = redact_spans(seen, spans)
        # and the member rule once more on what is left, as it ran after the patterns before: a
        # member whose value a pattern's span cut short reads on over the `<redacted>`
        if ":" in hidden and may_hold_secret_name(hidden):
            hidden = hide_member_values(hidden)
        return redact_urls(hidden)

    def code(self, line: str) -> str:
        """A line of code (as a code scan quotes it) as `text` shows it, except that what only names
        a secret stays shown: a property chain (`process.env.X`), a call, an environment variable's
        name (`code_reference_spans`). Known values, shapes and literals after a secret name are
        hidden as in any text."""
        from vora_cli.core.code_names import code_reference_spans, outside_references, to_expression_end
        from vora_cli.core.sessions.redact import pattern_spans, redact_spans

        known = scrub(line, self.secrets)
        seen, spans = pattern_spans(known)
        if seen != known:  # a private key block: not a line of code, and the text moved
            return self.text(line)
        if ":" in seen and may_hold_secret_name(seen):
            spans += member_spans(seen)
        if not spans:
            return seen
        shapes = pattern_spans(seen, shapes_only=True)[1]
        # the value after a secret name is its whole expression (a fallback literal, a call's argument)
        spans = [*to_expression_end(seen, [span for span in spans if span not in shapes]), *shapes]
        keep = [(a, b) for a, b in code_reference_spans(seen) if not any(s < b and e > a for s, e in shapes)]
        hidden = redact_spans(seen, outside_references(seen, spans, keep))
        # the member rule once more on what is left, as `text` runs it (on a changed text only:
        # on the same one it finds what it found)
        if hidden != seen and ":" in hidden and may_hold_secret_name(hidden) and (more := member_spans(hidden)):
            hidden = redact_spans(hidden, outside_references(hidden, more, code_reference_spans(hidden)))
        return redact_urls(hidden)

    def texts(self, texts: Sequence[str]) -> list[str]:
        """`[self.text(t) for t in texts]`, the rules run only on the texts one of them can change
        (`_changeable`): most lines of a log tail hold no mark of any rule."""
        changeable = self._changeable(texts)
        return [self.text(t) if i in changeable else t for i, t in enumerate(texts)]

    def _changeable(self, texts: Sequence[str]) -> set[int]:
        """The indexes of the texts that `text` may change: the non-ASCII ones, and the ASCII
        ones holding a known secret, a mark of the patterns or of the member and URL rules
        (`TEXT_MARKS`), or a Telegram trigger; each rule finds nothing in a text holding none of
        its marks. The ASCII texts are searched joined; a hit across the joining newline only
        sifts out one text more, and none is missed."""
        from bisect import bisect_right

        from vora_cli.core.sessions import redact as patterns

        plain = [i for i, t in enumerate(texts) if t.isascii()]
        found = set(range(len(texts))).difference(plain) if len(plain) < len(texts) else set()
        starts = []
        at = 0
        for i in plain:
            starts.append(at)
            at += len(texts[i]) + 1
        joined = "\n".join(texts[i] for i in plain)
        lowered = joined.lower()

        def sift(find: Callable[[int], int]) -> None:
            """Each text `find` hits, searching on from the text after each hit's."""
            hit = find(0)
            while hit != -1:
                line = bisect_right(starts, hit) - 1
                found.add(plain[line])
                hit = find(starts[line + 1]) if line + 1 < len(starts) else -1

        for mark in _marks():
            sift(partial(lowered.find, mark))
        for secret in self.secrets:
            sift(partial(joined.find, secret))
        sift(partial(patterns.telegram_trigger_at, joined))
        return found

    def payload(self, value: Any) -> Any:
        """A copy of `value` with secret-named keys' values hidden and every string masked, keys
        too (`shown_key`)."""
        value = redact(value)
        strings: dict[str, None] = {}
        _collect_strings(value, strings)
        return self._strings(value, dict(zip(strings, self.texts(list(strings)), strict=True)), False)

    def _strings(self, value: Any, shown: Mapping[str, str], below_secret: bool) -> Any:
        if isinstance(value, str):
            return shown[value]
        if isinstance(value, dict):
            out: dict[Any, Any] = {}
            for k, v in value.items():
                if type(k) is not str:
                    out[k] = self._strings(v, shown, below_secret)
                    continue
                key = shown_key(k, shown[k], below_secret, value, out)
                out[key] = self._strings(v, shown, below_secret or is_secret_name(k))
            return out
        if isinstance(value, list):
            return [shown[v] if type(v) is str else self._strings(v, shown, below_secret) for v in value]
        return value


def shown_key(key: str, masked: str, below_secret: bool, keys: Mapping[Any, Any], taken: Mapping[Any, Any]) -> str:
    """How a payload's key is shown (docs/secrets.md, "Keys"): masked as any string is
    (`masked`), or wholly hidden when it sits below a secret-named key and looks like a token;
    a hidden one numbered (`<redacted-2>`, …) so it collides with no other key of its object
    (`keys`, the original ones; `taken`, those shown so far)."""
    if below_secret and masked == key and looks_like_token(key):
        masked = REDACTED
    if masked == key:
        return key
    candidate, n = masked, 2
    while candidate in taken or candidate in keys:
        candidate = masked.replace(REDACTED, f"<redacted-{n}>", 1) if REDACTED in masked else f"{masked}-{n}"
        n += 1
    return candidate


def _collect_strings(value: Any, into: dict[str, None]) -> None:
    """Every string in `value`, its keys included, once each, in order."""
    if isinstance(value, str):
        into[value] = None
    elif isinstance(value, dict):
        for k, v in value.items():
            if type(k) is str:
                into[k] = None
            _collect_strings(v, into)
    elif isinstance(value, list):
        for v in value:
            if type(v) is str:
                into[v] = None
            else:
                _collect_strings(v, into)


@cache
def _marks() -> tuple[str, ...]:
    """The marks of the gateway's patterns and of the member and URL rules, without one that holds
    another (`password` holds `passw`: a text with the one has the other)."""
    from vora_cli.core.secrets import TEXT_MARKS as RULE_MARKS
    from vora_cli.core.sessions.redact import TEXT_MARKS as PATTERN_MARKS

    every = dict.fromkeys((*PATTERN_MARKS, *RULE_MARKS))
    return tuple(m for m in every if not any(o != m and o in m for o in every))
