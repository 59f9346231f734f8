"""`vora gateway status`: what the running gateway says about itself (spec gateway.md); a call that fails
is reported in its part, only the handshake decides reachability.
"""

from __future__ import annotations

from collections.abc import Mapping

from vora_cli.core.clock import iso_or_none
from vora_cli.core.errors import VoraError
from vora_cli.core.gateway.client import GatewayClient, Hello
from vora_cli.core.gateway.logfile import StartEvidence, start_evidence_from_raw
from vora_cli.core.gateway.shapes import arr, finite, obj
from vora_cli.core.gateway.target import Target
from vora_cli.core.records import dataclass
from vora_cli.core.strict_json import is_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SLOT_DEFAULTS = {"contextEngine": "legacy", "memory": "memory-core"}
BUILTIN_SLOT_VALUES = ("legacy", "memory-core", "none")
LOGS_TAIL_MAX = {"limit": 5000, "maxBytes": 1000000}
# The gateway release line whose file formats vora writes (doctor --live `gateway-version`).
SUPPORTED_RELEASE = "2026.4"
FUTURE_SLACK_MS = 60_000  # how far past `health.ts` a line of this start may be dated


@dataclass(frozen=True)
class SlotLive:
    """A plugin slot as configured, next to what the running gateway loaded."""
    slot: str
    configured: str
    builtin: bool
    loaded: bool | None

    def to_dict(self) -> dict[str, Any]:
        return {"configured": self.configured, "builtin": self.builtin, "loaded": self.loaded}


@dataclass(frozen=True)
class GatewayStatus:
    """What `vora gateway status` learned from the running gateway."""
    target: Target
    hello: Hello
    health: dict[str, Any]
    health_error: str | None
    memory: dict[str, Any]
    evidence: StartEvidence
    evidence_error: str | None
    log_file: str | None
    slots: tuple[SlotLive, ...]

    def slot(self, name: str) -> SlotLive:
        return next(s for s in self.slots if s.slot == name)

    def to_dict(self) -> dict[str, Any]:
        hello = self.hello
        health: dict[str, Any] = dict(self.health)
        if self.health_error is not None:
            health = {"ok": False, "error": self.health_error}
        plugins: dict[str, Any] = {
            "evidence": "log" if self.evidence.found else "none",
            "loaded": list(self.evidence.loaded) if self.evidence.loaded is not None else None,
            "readyAt": iso_or_none(self.evidence.ready_at),
            "failed": [f.to_dict() for f in self.evidence.failed],
            "logFile": self.log_file,
        }
        if self.evidence_error is not None:
            plugins["error"] = self.evidence_error
        return {
            "reachable": True,
            "url": self.target.shown_url,
            "urlSource": self.target.url_source,
            "latencyMs": hello.latency_ms,
            "server": hello.server,
            "protocol": hello.protocol,
            "uptimeMs": finite(hello.snapshot.get("uptimeMs")),  # a number or null, whatever the peer sent
            "auth": hello.credential.to_dict(),
            "device": {"id": hello.device_id, "identityCreated": hello.identity_created,
                       "tokenStored": hello.token_stored},
            "scopes": list(hello.scopes),
            "deviceTokenScopes": list(hello.token_scopes) if hello.token_scopes is not None else None,
            "health": health,
            "memory": self.memory,
            "plugins": plugins,
            "slots": {s.slot: s.to_dict() for s in self.slots},
        }


def configured_slots(config: Mapping[str, Any]) -> dict[str, str]:
    plugins = config.get("plugins")
    slots = plugins.get("slots") if isinstance(plugins, dict) else None
    out: dict[str, str] = {}
    for slot, default in SLOT_DEFAULTS.items():
        value = slots.get(slot) if isinstance(slots, dict) else None
        out[slot] = value.strip() if isinstance(value, str) and value.strip() else default
    return out


def live_slots(config: Mapping[str, Any], evidence: StartEvidence) -> tuple[SlotLive, ...]:
    result = []
    for slot, value in configured_slots(config).items():
        builtin = value.lower() in BUILTIN_SLOT_VALUES
        loaded = None if builtin or evidence.loaded is None else value in evidence.loaded
        result.append(SlotLive(slot, value, builtin, loaded))
    return tuple(result)


def summarize_health(payload: Any) -> dict[str, Any]:
    payload = payload if isinstance(payload, dict) else {}
    agents = payload.get("agents")
    sessions = payload.get("sessions")
    count = sessions.get("count") if isinstance(sessions, dict) else None
    channels = payload.get("channels")
    return {
        "ok": payload.get("ok") is True,
        "defaultAgentId": payload.get("defaultAgentId"),
        "agents": len(agents) if isinstance(agents, list) else 0,
        "sessions": count if finite(count) is not None else None,
        "channels": list(channels) if isinstance(channels, dict) else [],
    }


def summarize_memory(payload: Any) -> dict[str, Any]:
    """`doctor.memory.status` as `memory`. An answer is not a runtime: without one the gateway
    still answers, with no `provider` and `embedding.error` "memory plugin unavailable" (openclaw
    2026.4.12; the spec's "memory search unavailable"). `runtime` says which."""
    payload = payload if isinstance(payload, dict) else {}
    embedding = obj(payload.get("embedding"))
    provider = payload.get("provider")
    return {
        "answered": True,
        "runtime": isinstance(provider, str) and bool(provider.strip()),
        "agentId": payload.get("agentId"),
        "provider": provider,
        "embeddingOk": embedding.get("ok") is True,
        "error": embedding.get("error"),
    }


def collect_status(client: GatewayClient, config: Mapping[str, Any]) -> GatewayStatus:
    """Ask the open connection for health, memory and the log tail; each part fails on its own."""
    hello = client.hello
    assert hello is not None
    # One round trip for the three calls; each answer (or error) is reported in its own part.
    health_raw, memory_raw, tail = client.call_many(
        [("health", {}), ("doctor.memory.status", {}), ("logs.tail", LOGS_TAIL_MAX)])
    health_error = health_raw.message if isinstance(health_raw, VoraError) else None
    if isinstance(memory_raw, VoraError):
        memory = {"answered": False, "runtime": None, "agentId": None, "provider": None, "embeddingOk": False,
                  "error": memory_raw.message}
    else:
        memory = summarize_memory(memory_raw)
    evidence, evidence_error, log_file = StartEvidence(None, None, ()), None, None
    if isinstance(tail, VoraError):
        evidence_error = tail.message
    else:
        tail = obj(tail)
        raw_lines = arr(tail.get("lines"))
        log_file = tail.get("file") if isinstance(tail.get("file"), str) else None
        now = gateway_now_ms(health_raw)
        # a line dated after the gateway's own now was not written by this start (a forged or
        # far-future `time` must not become this start's ready line)
        # a failure's error is printed: masked once decoded, as `vora logs` shows the line
        evidence = start_evidence_from_raw((s for s in raw_lines if isinstance(s, str)),
                                           start_bound_ms(health_raw, hello.snapshot),
                                           now + FUTURE_SLACK_MS if now is not None else None,
                                           None if client.reveal else client.masker.text)
    return GatewayStatus(
        target=client.target,
        hello=hello,
        health=summarize_health(health_raw),
        health_error=health_error,
        memory=memory,
        evidence=evidence,
        evidence_error=evidence_error,
        log_file=log_file,
        slots=live_slots(config, evidence),
    )


def start_bound_ms(health: Any, snapshot: Mapping[str, Any]) -> int | None:
    """This gateway process's start minus 1 s: `health.ts − snapshot.uptimeMs − 1000`."""
    ts = finite(health.get("ts")) if isinstance(health, dict) else None
    uptime = finite(snapshot.get("uptimeMs"))
    if ts is not None and uptime is not None and is_finite(bound := ts - uptime - 1000):
        return int(bound)
    return None


def gateway_now_ms(health: Any) -> int | None:
    """`health.ts`: the gateway's clock, when it is a usable number."""
    ts = finite(health.get("ts")) if isinstance(health, dict) else None
    return int(ts) if ts is not None else None
