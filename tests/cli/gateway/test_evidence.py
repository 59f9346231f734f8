"""Live evidence that says what the gateway did (issue 22, class 12).

The real gateway's start with a plugin that throws at import, and its memory answer without a
memory runtime, were recorded (openclaw 2026.4.12, `tests/data/upstream/gateway-start-broken-plugin-…`):
it logs the failure twice (again when it reloads its plugin registry), answers
`doctor.memory.status` with no `provider` and "memory plugin unavailable", and names its port
only in its canvas line. Replayed here by the test gateway, with the times moved to now.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from gateway_server import gateway_log_line, iso, running_gateway

DATA = json.loads((Path(__file__).resolve().parents[2] / "data" / "upstream" /
                   "gateway-start-broken-plugin-openclaw-2026.4.12.json").read_text())
UPTIME = 60_000


def moved(lines: list[str], start_ms: int, *, port: int | None = None) -> list[str]:
    """The recorded lines as if the start had begun at `start_ms` (and named `port`)."""
    first = _ms(json.loads(lines[0])["time"])
    out = []
    for raw in lines:
        doc = json.loads(raw)
        when = iso(start_ms + _ms(doc["time"]) - first)
        doc["time"] = doc["_meta"]["date"] = when
        text = json.dumps(doc)
        out.append(text.replace(f":{DATA['port']}/", f":{port}/") if port is not None else text)
    return out


def _ms(text: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(text).timestamp() * 1000)


def now_ms() -> int:
    return int(time.time() * 1000)


def write_config(state_dir: Path, memory: str | None = None) -> None:
    slots: dict[str, Any] = {"contextEngine": "broken-one"}
    if memory is not None:
        slots["memory"] = memory
    (state_dir / "vora.json").write_text(json.dumps({"plugins": {"slots": slots}}))


def test_status_lists_a_failure_the_gateway_logged_twice_once(state_dir: Path, vora: Any) -> None:
    write_config(state_dir, "none")
    lines = moved(DATA["lines"], now_ms() - UPTIME + 200)
    with running_gateway(log_lines=lines, uptime_ms=UPTIME, memory=DATA["memoryStatus"]) as gw:
        doc = vora("gateway", "status", "--url", gw.url, "--json").json()
        human = vora("gateway", "status", "--url", gw.url)
    failed = doc["plugins"]["failed"]
    assert [(f["id"], f["phase"], f["error"]) for f in failed] == [("broken-one", "load", "Error: boom at import")]
    assert human.stdout.count("  failed ") == 1
    assert doc["slots"]["contextEngine"]["loaded"] is False
    assert doc["memory"] == {"answered": True, "runtime": False, "agentId": "main", "provider": None,
                             "embeddingOk": False, "error": "memory plugin unavailable"}
    assert "  memory         NO memory runtime: memory plugin unavailable\n" in human.stdout


@pytest.mark.parametrize(("slot", "answer", "status", "says"), [
    (None, DATA["memoryStatus"], "error", "the running gateway has no memory runtime for memory-core: memory plugin "
                                          "unavailable"),
    ("memory-core", {"agentId": "main", "provider": None, "embedding": {"ok": False, "error": "memory search unavailable"}},
     "error", "no memory runtime for memory-core: memory search unavailable"),
    ("none", DATA["memoryStatus"], "pass", "no memory runtime, as configured"),
    (None, {"agentId": "main", "provider": "auto", "embedding": {"ok": False, "error": "no API key"}}, "info",
     "memory runtime answered; embeddings unavailable: no API key"),
    (None, {"agentId": "main", "provider": "openai", "embedding": {"ok": True}}, "pass",
     "memory runtime answered (provider openai)"),
])
def test_live_memory_fails_when_the_gateway_has_no_memory_runtime(state_dir: Path, vora: Any, slot: str | None,
                                                                  answer: dict[str, Any], status: str, says: str) -> None:
    write_config(state_dir, slot)
    with running_gateway(memory=answer) as gw:
        run = vora("doctor", "--live", "--url", gw.url, "--only", "live-memory", "--json")
    check = next(c for c in run.json()["checks"] if c["id"] == "live-memory")
    assert (check["status"], run.exit_code) == (status, 1 if status == "error" else 0)
    assert says in check["message"], check


def test_a_memory_call_that_never_answers_is_a_warning(state_dir: Path, vora: Any) -> None:
    with running_gateway(silent_on={"doctor.memory.status"}) as gw:
        run = vora("doctor", "--live", "--url", gw.url, "--only", "live-memory", "--timeout", "0.5", "--json")
    check = next(c for c in run.json()["checks"] if c["id"] == "live-memory")
    assert check["status"] == "warn" and "did not answer" in check["message"]


# -- vora logs: whose lines --------------------------------------------------------------------------

def two_gateways(own_port: int, other_port: int) -> list[str]:
    """Earlier lines (an older start on another port and a CLI's), this gateway's start (a minute
    ago), then another gateway's start on `other_port`."""
    now = now_ms()
    return [
        *moved(DATA["lines"][:9], now - 3_600_000, port=other_port),
        gateway_log_line(iso(now - 3_000_000), "Config invalid", subsystem=None, level="ERROR"),
        *moved(DATA["lines"][:13], now - UPTIME + 200, port=own_port),
        gateway_log_line(iso(now - 20_000), "a line of this gateway's"),
        *moved(DATA["lines"][:13], now - 10_000, port=other_port),
        gateway_log_line(iso(now - 1_000), "a line of either"),
    ]


def test_logs_through_the_gateway_mark_lines_of_other_starts(state_dir: Path, vora: Any) -> None:
    with running_gateway(uptime_ms=UPTIME) as gw:
        gw.log_lines = two_gateways(gw.port, 28795)
        doc = vora("logs", "--url", gw.url, "--json").json()
        human = vora("logs", "--url", gw.url).stdout.splitlines()
    origins = [(line["origin"], line["gatewayPort"]) for line in doc["lines"]]
    assert origins[:10] == [("earlier", 28795)] * 10  # the older start (named from its first line) and a CLI's
    assert origins[10:24] == [(None, gw.port)] * 14  # this start, from its first line, and after it
    assert origins[24:] == [("other", 28795)] * 14
    assert human[0].startswith("[before this gateway started] ")
    assert not human[10].startswith("[") and human[10].endswith("[gateway] loading configuration…")
    assert human[24].startswith("[after gateway :28795 started] ") and human[-1].endswith("a line of either")


def test_logs_from_the_file_mark_the_starts_of_gateways_on_other_ports(tmp_path: Path, state_dir: Path,
                                                                        vora: Any) -> None:
    log = tmp_path / "gateway.log"
    log.write_text("\n".join(two_gateways(18789, 28795)) + "\n")
    (state_dir / "vora.json").write_text(json.dumps({"logging": {"file": str(log)}}))
    doc = vora("logs", "--file", "--json").json()
    origins = [line["origin"] for line in doc["lines"]]
    # no process start is known from the file: only the other port's starts are marked
    assert origins == ["other"] * 10 + [None] * 14 + ["other"] * 14
    assert [line["gatewayPort"] for line in doc["lines"]][10] == 18789
