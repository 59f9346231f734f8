"""One clock (`core/clock.py`, VORA_NOW_MS) for devices and doctor; one strict-JSON rule (`core/strict_json.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from devices_support import MIN, NOW, request, write_store


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
    assert ("1 expired pending request(s)" in text) is not live
    listed = vora("devices", "list", "--pending", "--json", env=env).json()["pending"][0]
    assert listed["expired"] is not live


def test_doctor_refuses_a_bad_vora_now_ms_like_devices(vora, state_dir: Path) -> None:
    for args in (("doctor",), ("devices", "list")):
        result = vora(*args, env={"VORA_NOW_MS": "tomorrow"})
        assert result.exit_code == 2, args
        assert "VORA_NOW_MS='tomorrow'" in result.stderr


