"""`vora gateway status`: is the gateway up, does it accept vora, what did this start load."""

from __future__ import annotations

from vora_cli.cli.connect import open_client, setup
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, TimeoutOption, UrlOption
    from vora_cli.cli.output import Output
    from vora_cli.core.gateway.status import GatewayStatus


@command("status", hot=True, examples=(
    "vora gateway status",
    "vora gateway status --json",
    "vora gateway status --url ws://127.0.0.1:19001",
))
def gateway_status(state: AppState, url: UrlOption = None, timeout: TimeoutOption = None, json: JsonOption = False) -> int:
    """Connect to the running gateway and report version, auth, health, memory and loaded plugins.

    Exit 0 when the gateway completed the handshake (a later call that failed is reported in its
    part), 1 when it could not be reached or refused vora.
    """
    install = state.install
    out = state.output(json)
    found = setup(install, url, out)
    with open_client(install, found, timeout, out) as client:
        from vora_cli.core.gateway.status import collect_status

        status = collect_status(client, found.config)
    return out.emit(status.to_dict(), lambda o: render_status(o, status))


def _uptime(ms: object) -> str:
    from vora_cli.core.gateway.shapes import finite

    ms = finite(ms)
    if ms is None or ms < 0:
        return "?"
    minutes = int(ms // 60000)
    return f"{minutes // 60}h {minutes % 60}m" if minutes >= 60 else f"{minutes}m {int(ms // 1000) % 60}s"


def render_status(out: Output, status: GatewayStatus) -> None:
    data = status.to_dict()
    hello = status.hello

    def row(label: str, text: str) -> None:
        out.line(f"  {label:<13}  {text}", hanging=" " * 17)  # folded under the value

    out.line(f"Gateway {status.target.shown_url} ({status.target.how_chosen})")
    row("reachable", f"yes, handshake in {hello.latency_ms} ms")
    row("version", f"{hello.server.get('version') or '?'} (protocol {hello.protocol}, up "
        f"{_uptime(hello.snapshot.get('uptimeMs'))})")
    cred = hello.credential
    row("auth", "none (no shared credential, no device token)" if cred.mode == "none"
        else f"{cred.mode} from {cred.source}")
    token = "; device token stored" if hello.token_stored else ""
    row("device", f"{hello.device_id}{token}")
    token_scopes = f" (device token: {', '.join(hello.token_scopes)})" if hello.token_scopes else ""
    row("scopes", ", ".join(hello.scopes) + token_scopes)
    health = data["health"]
    if status.health_error is not None:
        row("health", f"no answer: {status.health_error}")
    else:
        channels = ", ".join(health["channels"]) or "none"
        agents = health["agents"]
        row("health", f"{'ok' if health['ok'] else 'NOT ok'}: default agent {health['defaultAgentId'] or '?'} "
            f"({agents} agent{'s' if agents != 1 else ''}), {health['sessions'] or 0} sessions, channels: {channels}")
    memory = status.memory
    if not memory["answered"]:
        row("memory", f"no answer: {memory['error']}")
    elif not memory["runtime"]:
        row("memory", f"NO memory runtime: {memory['error'] or 'no provider'}")
    elif memory["embeddingOk"]:
        row("memory", f"runtime up (provider {memory['provider'] or '?'}), embeddings ok")
    else:
        row("memory", f"runtime up (provider {memory['provider']}); embeddings unavailable: "
            f"{memory['error'] or 'unknown'}")
    evidence = status.evidence
    where = f" (log {status.log_file})" if status.log_file else ""
    if status.evidence_error is not None:
        row("plugins", f"unknown: logs.tail failed: {status.evidence_error}")
    elif evidence.loaded is None:
        row("plugins", f"unknown: no ready line of this start in the log tail{where}")
    else:
        row("plugins", f"{len(evidence.loaded)} loaded at {evidence.ready_at}: "
            f"{', '.join(evidence.loaded) or 'none'}{where}")
    for failure in evidence.failed:
        row("failed", failure.text())
    for slot in status.slots:
        if slot.builtin:
            verdict = "built in"
        elif slot.loaded is None:
            verdict = "not known (no ready line)"
        else:
            verdict = "loaded" if slot.loaded else "NOT loaded by this gateway start"
        row(slot.slot, f"{slot.configured}: {verdict}")
