"""Every "now" vora writes comes from the run's clock (`Install.now_ms`, `core/clock.py`), so
`VORA_NOW_MS` pins them all (issue 18): a plugin's `installedAt`, the config audit line's time,
and what the gateway client signs and stores (the identity's `createdAtMs`, the connect
signature's `signedAt`, the device token's `updatedAtMs`); devices and doctor date pending requests
by the same clock and refuse the same bad `VORA_NOW_MS`. The clock's own rules are in
`tests/core/test_clock_and_strict_json_rules.py`."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from devices_support import MIN, NOW, request, write_store
from gateway_server import running_gateway
from plugins_support import make_plugin

PINNED = 1_700_000_000_123  # 2023-11-14T22:13:20.123Z
ENV = {"VORA_NOW_MS": str(PINNED)}


def _audit(state_dir: Path) -> list[dict[str, object]]:
    lines = (state_dir / "logs" / "config-audit.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_config_writes_are_audited_at_the_pinned_time(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    assert vora("config", "set", "gateway.port", "18790", env=ENV).exit_code == 0
    assert [line["time"] for line in _audit(state_dir)] == ["2023-11-14T22:13:20.123Z"]


def test_installed_at_is_the_pinned_time(vora, state_dir: Path, tmp_path: Path) -> None:
    plugin = make_plugin(tmp_path / "my-engine")
    for args in (["plugins", "install", "-l", str(plugin)], ["plugins", "install", str(plugin), "--force"]):
        vora("plugins", "uninstall", "my-engine", "--yes", env=ENV)
        result = vora(*args, "--json", env=ENV)
        assert result.exit_code == 0, result.stdout
        record = json.loads((state_dir / "vora.json").read_text())["plugins"]["installs"]["my-engine"]
        assert record["installedAt"] == "2023-11-14T22:13:20.123Z", args  # the gateway's toISOString()
    assert {line["time"] for line in _audit(state_dir)} == {"2023-11-14T22:13:20.123Z"}


def test_the_gateway_client_signs_and_stores_with_the_pinned_time(vora, state_dir: Path) -> None:
    # The fake gateway accepts a signature within 2 minutes of its own clock: give it the pinned one.
    with running_gateway(skew_ms=PINNED - int(time.time() * 1000)) as gw:
        result = vora("gateway", "status", "--json", env={**ENV, "VORA_GATEWAY_PORT": str(gw.port)})
        assert result.exit_code == 0, result.stderr
        assert gw.connects[0]["device"]["signedAt"] == PINNED
    identity = json.loads((state_dir / "identity" / "device.json").read_text())
    tokens = json.loads((state_dir / "identity" / "device-auth.json").read_text())["tokens"]
    assert identity["createdAtMs"] == PINNED and tokens["operator"]["updatedAtMs"] == PINNED


# -- devices and doctor read the same clock ----------------------------------------------------

@pytest.mark.parametrize(("offset", "live"), [(1 * MIN, True), (4 * MIN + 59_000, True), (5 * MIN + 1_000, False),
                                              (60 * MIN, False)])
def test_doctor_dates_pending_requests_by_the_same_clock_as_devices(
    vora, state_dir: Path, offset: int, live: bool
) -> None:
    entry = request("phone", ts=NOW, request_id="r-phone")
    write_store(state_dir, [entry], [])
    env = {"VORA_NOW_MS": str(NOW + offset)}
    checks = {c["id"]: c for c in vora("doctor", "--json", env=env).json()["checks"]}
    text = " ".join([checks["pairing-store"]["message"], *checks["pairing-store"].get("details", [])])
    assert ("vora devices approve r-phone" in text) is live
    assert ("1 expired pending request" in text) is not live
    listed = vora("devices", "list", "--pending", "--json", env=env).json()["pending"][0]
    assert listed["expired"] is not live


@pytest.mark.parametrize(("pinned", "said"), [
    ("tomorrow", "is not a whole number"), ("9" * 5000, "outside the years 1-9999"), ("1_000", "is not a whole number"), ("-+5", "is not a whole number"), (" +-5", "is not a whole number"), ("٣", "is not a whole number"),
    ("253402300800000", "outside the years 1-9999"), ("-62135596800001", "outside the years 1-9999"),
    ("8640000000000000", "outside the years 1-9999"),
])
def test_every_command_refuses_a_bad_vora_now_ms_alike(vora, state_dir: Path, pinned: str, said: str) -> None:
    """A time no date can be written for is refused up front, not an internal error where a date is written."""
    for args in (("doctor",), ("devices", "list"), ("backup", "create", "--dry-run"), ("sessions", "list")):
        result = vora(*args, env={"VORA_NOW_MS": pinned})
        assert result.exit_code == 2, (args, result.stderr)
        assert f"VORA_NOW_MS={pinned[:40]!r}" in result.stderr and said in result.stderr, args


def test_the_first_and_last_writable_millisecond_are_taken(vora, state_dir: Path) -> None:
    for pinned in ("-62135596800000", "253402300799999", "0" * 20 + "1775986200000", " +1775986200000 "):
        result = vora("backup", "create", "--dry-run", env={"VORA_NOW_MS": pinned})
        assert result.exit_code == 0, result.stderr


