"""What vora shows of what a gateway sent: its answers and messages through vora's own secret
rules (issue 22, class 1; docs/secrets.md, "From the gateway").

The real gateway's `config.get` carries its auth token and every API key in clear (under
`sourceConfig` and `runtimeConfig`, openclaw 2026.4.12), and an error may repeat the credential it
was sent. So every payload vora returns to a command, every gateway message in an error and every
close reason passes through here: the key rule of `core/secrets.py` (a secret-named key hides
its value), the member rule over free text (`token: …`), the gateway's own free-text patterns
(`core/sessions/redact.py`), and the exact values vora knows to be secret — the credential it
sent, the config's secrets, the environment's token and password — wherever they appear.
`--reveal` (`vora gateway call`, `vora logs`) opts out for payloads; messages are always masked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from vora_cli.core.secrets import MIN_SCRUB_LENGTH, order_for_scrub, redact, redact_text, scrub, secret_values

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
        """The known values first, then the gateway's patterns (which know `Authorization: Bearer
        X` is one secret), then the member rule (`token: X`)."""
        from vora_cli.core.sessions.redact import redact_text as gateway_patterns

        return redact_text(gateway_patterns(scrub(text, self.secrets)))

    def payload(self, value: Any) -> Any:
        """A copy of `value` with secret-named keys' values hidden and every string masked."""
        return self._strings(redact(value))

    def _strings(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {scrub(k, self.secrets) if isinstance(k, str) else k: self._strings(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._strings(v) for v in value]
        return value
