"""How a conversation with the gateway fails: the errors the client raises, and the bound on
what one wait drops. Every message names the URL and how it was chosen;
whatever the gateway said in it has been through the client's masker (`shown.py`).
"""

from __future__ import annotations

from vora_cli.core.errors import VoraError
from vora_cli.core.gateway.shown import Masker

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.gateway.client import GatewayClient
    from vora_cli.core.gateway.target import Target

# What one wait drops (events, answers to ids vora never sent or no longer waits for) before it
# stops: a gateway sends a few small events; a flood in a timeout is not one.
MAX_DROPPED_BYTES = 64 * 1024 * 1024
MAX_DROPPED_FRAMES = 10_000
START_HINT = ("start the gateway, or check gateway.port / VORA_GATEWAY_PORT / --url "
              "(vora logs --file shows its last log lines)")


LATEST = "vora devices approve --latest"


class PairingRequired(VoraError):
    """`gateway-pairing-required`, with the approve command as data (the request id quoted for a
    shell), so doctor's next step is this command, never a pattern matched in the hint."""

    def __init__(self, message: str, hint: str, command: str) -> None:
        super().__init__("gateway-pairing-required", message, hint)
        self.command = command


def pairing_required(details: dict[str, Any], device_id: str, masker: Masker) -> PairingRequired:
    """The gateway's `PAIRING_REQUIRED` refusal, with the command that approves the request."""
    from vora_cli.core.shell import command_line

    request_id = details.get("requestId")
    reason = masker.text(str(details.get("reason") or "not-paired"))
    known = isinstance(request_id, str) and bool(request_id)
    # the id is the gateway's text, pasted into a shell: quoted as one word
    command = command_line("vora", "devices", "approve", request_id) if known else LATEST
    approve = f"{command} (or: {LATEST})" if known else LATEST
    req = f", request {masker.text(str(request_id))}" if known else ""
    return PairingRequired(
        f"the gateway requires pairing for device {device_id} (reason: {reason}{req})",
        f"on the gateway host run: {approve}; it works offline and a running gateway picks it up at the next connect",
        command,
    )


def not_followed(target: Target, masker: Masker, exc: ValueError) -> VoraError:
    """websockets refused to go on over vora's own socket: a redirect (never followed) or else."""
    from vora_cli.core.secrets import redact_urls

    shown = target.shown_url
    response = getattr(exc.__cause__, "response", None)
    status = getattr(response, "status_code", None)
    if isinstance(status, int) and 300 <= status < 400:
        location = getattr(response, "headers", {}).get("Location") or "?"
        return VoraError("gateway-protocol", f"{shown} ({target.how_chosen}) answered with a redirect "
                         f"(HTTP {status} to {masker.text(redact_urls(str(location)))[:200]}); vora does not "
                         "follow redirects: the credential would go to a URL nobody named",
                         "point --url (or VORA_GATEWAY_URL / gateway.remote.url) at the gateway itself")
    return VoraError("gateway-protocol", f"{shown} ({target.how_chosen}) did not accept a gateway "
                     f"WebSocket: {masker.text(str(exc))[:200]}", "check that the URL points at a Vora gateway")


def timed_out(target: Target, timeout: float, waiting_for: str) -> VoraError:
    return VoraError("gateway-timeout", f"{target.shown_url} ({target.how_chosen}) did not answer "
                     f"{waiting_for} within {timeout:g}s",
                     "is something else listening on that port? raise --timeout right after a gateway start")


def closed(target: Target, masker: Masker, exc: Any, during: str) -> VoraError:
    close = getattr(exc, "rcvd", None)
    code = getattr(close, "code", None)
    reason = masker.text(getattr(close, "reason", "") or "")
    if code == 4001:
        return VoraError("gateway-closed", f"the gateway ended the connection: {reason or 'auth changed'} "
                         "(close 4001)", "run the command again; approve this device if it was removed")
    what = f"close {code}" + (f": {reason}" if reason else "") if code is not None else "no close frame"
    return VoraError("gateway-closed", f"the gateway at {target.shown_url} closed the connection during "
                     f"{during} ({what})", "check vora logs --file for the gateway's side; then retry")


class Dropped:
    """What one wait has dropped so far; past the bounds, the wait ends with `gateway-protocol`."""

    def __init__(self, client: GatewayClient, waiting_for: str) -> None:
        self.client, self.waiting_for = client, waiting_for
        self.frames = self.size = 0

    def add(self, size: int) -> None:
        self.frames += 1
        self.size += size
        if self.frames > MAX_DROPPED_FRAMES or self.size > MAX_DROPPED_BYTES:
            raise VoraError(
                "gateway-protocol",
                f"{self.client.target.shown_url} sent {self.frames:,} frames ({self.size:,} characters) that answer "
                f"nothing vora asked while it waited for {self.waiting_for}; vora stopped reading them",
                "check that the URL points at a Vora gateway (a gateway sends a few small events, not a flood)")


def method_error(method: str, error: Any, masker: Masker | None = None) -> VoraError:
    """A method's error response as `gateway-method-error` (spec gateway.md, `gateway call`),
    its code and message masked (a gateway may quote what it was sent)."""
    masker = masker or Masker()
    error = error if isinstance(error, dict) else {}
    code = masker.text(str(error.get("code") or "ERROR"))
    message = masker.text(str(error.get("message") or ""))
    hint: str | None = None
    if message.startswith("missing scope: "):
        scope = message.removeprefix("missing scope: ").strip()
        hint = (f"pass --scope {scope} (vora gateway call only); asking for a scope beyond the device's "
                "approved ones needs a pairing approval (vora devices approve --latest)")
    return VoraError("gateway-method-error", f"{method}: {code}: {message}", hint)
