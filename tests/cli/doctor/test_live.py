"""`vora doctor --live` against a real gateway, and plain doctor's `last-gateway-start` from the log file."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from gateway_server import gateway_log_line, iso, refused_port, running_gateway

from tests.conftest import EXAMPLES

LIVE_IDS = ["gateway-reachable", "gateway-live-auth", "gateway-version", "live-slot-context-engine",
            "live-slot-memory", "live-memory"]


def example(tmp_path: Path) -> Path:
    target = tmp_path / "example"
    shutil.copytree(EXAMPLES, target)
    return target / "vora"


def start_log(uptime_ms: int, ready: str, failures: tuple[str, ...] = ()) -> list[str]:
    start = int(time.time() * 1000) - uptime_ms
    lines = [gateway_log_line(iso(start + 200 + i), f, level="ERROR", subsystem="plugins")
             for i, f in enumerate(failures)]
    return [*lines, gateway_log_line(iso(start + 1500), f"ready ({ready}; 1.5s)")]


def checks(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in doc["checks"]}


def test_live_checks_pass_and_the_offline_slot_message_says_the_gateway_loaded_it(tmp_path: Path, vora) -> None:
    state = example(tmp_path)
    with running_gateway(log_lines=start_log(30_000, "1 plugins: my-engine"), uptime_ms=30_000) as gw:
        run = vora("--state-dir", str(state), "doctor", "--live", "--url", gw.url, "--json")
        human = vora("--state-dir", str(state), "doctor", "--live", "--url", gw.url)
    doc = run.json()
    found = checks(doc)
    assert [c["id"] for c in doc["checks"]][-6:] == LIVE_IDS
    assert {i: found[i]["status"] for i in LIVE_IDS} == {
        "gateway-reachable": "pass", "gateway-live-auth": "pass", "gateway-version": "pass",
        "live-slot-context-engine": "pass", "live-slot-memory": "pass", "live-memory": "info"}
    assert found["gateway-live-auth"]["message"] == "accepted: no credential; scopes operator.read"
    assert found["live-memory"]["message"] == "memory runtime answered; embeddings unavailable: no API key"
    assert found["gateway-reachable"]["evidence"] == {"config": ["gateway"], "files": []}
    assert found["slot-context-engine"]["message"].endswith(": its files check out and the running gateway loaded it")
    assert run.exit_code == (1 if not doc["ok"] else 0)
    assert "Vora doctor (offline + live gateway)" in human.stdout
    assert "\nLive gateway\n" in human.stdout


def test_a_slot_plugin_the_gateway_did_not_load_is_an_error_with_its_failure_line(tmp_path: Path, vora) -> None:
    state = example(tmp_path)
    failure = "my-engine failed to load from /x/my-engine/dist/index.js: Error: Cannot find module 'zod'"
    with running_gateway(log_lines=start_log(30_000, "0 plugins", (failure,)), uptime_ms=30_000) as gw:
        run = vora("--state-dir", str(state), "doctor", "--live", "--url", gw.url, "--json",
                   "--only", "live-slot-context-engine")
    assert run.exit_code == 1
    assert [c["id"] for c in run.json()["checks"]] == ["live-slot-context-engine"]
    check = run.json()["checks"][0]
    assert check["status"] == "error"
    assert check["message"] == f"contextEngine: the running gateway did not load my-engine: {failure}"
    assert check["fix"]["command"] == f"vora --state-dir {state} logs --limit 500"  # with the options typed


def test_no_ready_line_of_this_start_is_a_warning_and_fail_on_warn_fails(tmp_path: Path, vora) -> None:
    state = example(tmp_path)
    old = start_log(3_600_000, "1 plugins: my-engine")
    with running_gateway(log_lines=old, uptime_ms=30_000) as gw:
        plain = vora("--state-dir", str(state), "doctor", "--live", "--url", gw.url, "--json",
                     "--only", "live-slot-context-engine,live-slot-memory,gateway-reachable")
        strict = vora("--state-dir", str(state), "doctor", "--live", "--url", gw.url, "--json",
                      "--only", "live-slot-context-engine", "--fail-on", "warn")
    found = checks(plain.json())
    assert found["live-slot-context-engine"]["status"] == "warn"
    assert "restart the gateway or check `vora logs`" in found["live-slot-context-engine"]["message"]
    assert found["live-slot-memory"]["status"] == "pass"  # memory-core is built in: never looked up
    assert plain.exit_code == 0 and strict.exit_code == 1


def test_an_unreachable_gateway_is_an_error_with_live_and_nothing_without(tmp_path: Path, vora) -> None:
    state = example(tmp_path)
    url = f"ws://127.0.0.1:{refused_port()}"
    live = vora("--state-dir", str(state), "doctor", "--live", "--url", url, "--json")
    found = checks(live.json())
    assert live.exit_code == 1
    assert found["gateway-reachable"]["status"] == "error"
    assert found["gateway-reachable"]["message"].startswith(f"no gateway is listening at {url}")
    assert {found[i]["status"] for i in LIVE_IDS[1:]} == {"skip"}
    offline = vora("--state-dir", str(state), "doctor", "--url", url, "--json")
    assert not set(LIVE_IDS) & set(checks(offline.json()))


def test_pairing_required_is_an_auth_error_with_the_approve_command(tmp_path: Path, vora) -> None:
    state = example(tmp_path)
    with running_gateway(auto_pair=False) as gw:
        run = vora("--state-dir", str(state), "doctor", "--live", "--url", gw.url, "--json")
    found = checks(run.json())
    assert found["gateway-reachable"]["status"] == "pass"
    auth = found["gateway-live-auth"]
    assert auth["status"] == "error" and "requires pairing for device" in auth["message"]
    assert auth["fix"]["command"].startswith(f"vora --state-dir {state} devices approve ")
    assert run.exit_code == 1


# -- plain doctor: the log file ---------------------------------------------------------------------

def test_plain_doctor_adds_an_info_check_from_the_newest_ready_line(tmp_path: Path, vora) -> None:
    if Path("/tmp/vora").exists():
        pytest.skip("/tmp/vora exists on this host")
    state = example(tmp_path)
    folder = tmp_path / "tmp" / f"vora-{os.getuid()}"
    folder.mkdir(mode=0o700)
    plugin_root = (state.parent / "plugins" / "my-engine").resolve()
    failure = f"my-engine failed to load from {plugin_root}/index.js: Error: boom"
    (folder / "vora-2026-04-12.log").write_text("\n".join(start_log(10_000, "1 plugins: other", (failure,))) + "\n")
    run = vora("--state-dir", str(state), "doctor", "--json", "--only", "last-gateway-start")
    check = run.json()["checks"][0]
    assert check["id"] == "last-gateway-start" and check["status"] == "info"
    assert check["message"].startswith("a gateway started at ") and "loaded other; " + failure in check["message"]
    assert "may belong to another gateway" in check["details"][0]
    assert any("inside " in d and "a plugin this config uses" in d for d in check["details"])
    assert check["evidence"]["files"] == [str(folder / "vora-2026-04-12.log")]
    assert run.exit_code == 0


def test_plain_doctor_without_a_log_file_adds_nothing(tmp_path: Path, vora) -> None:
    state = example(tmp_path)
    run = vora("--state-dir", str(state), "doctor", "--json", "--only", "last-gateway-start")
    assert run.json()["checks"] == [] and run.exit_code == 0
