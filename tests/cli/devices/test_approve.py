"""`devices approve` checks a request before minting a token (issue 12.16, spec devices.md "PendingRequest").

`publicKey` is base64url (no padding) of 32 raw bytes, `deviceId` its SHA-256; a request dated in the
future (beyond the gateway's 2-minute clock skew) is shown as such and cannot be approved.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from devices_support import DAY, MIN, NOW, key, read_store, request, write_store

pytestmark = pytest.mark.usefixtures("pinned_clock")


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def with_key(public_key: Any) -> dict[str, Any]:
    """A request whose deviceId matches `public_key` when it decodes (so only the key is wrong)."""
    entry = request("phone", request_id="r-bad")
    entry["publicKey"] = public_key
    if isinstance(public_key, str):
        try:
            raw = base64.urlsafe_b64decode(public_key + "=" * (-len(public_key) % 4))
            entry["deviceId"] = hashlib.sha256(raw).hexdigest()
        except ValueError:
            pass
    return entry


def without_key() -> dict[str, Any]:
    entry = request("phone", request_id="r-bad")
    del entry["publicKey"]
    return entry


def wrong_device_id() -> dict[str, Any]:
    return {**request("phone", request_id="r-bad"), "deviceId": key("tablet").device_id}


def uppercase_device_id() -> dict[str, Any]:
    entry = request("phone", request_id="r-bad")
    return {**entry, "deviceId": entry["deviceId"].upper()}


BAD = [
    pytest.param(without_key, "no publicKey", id="missing"),
    pytest.param(lambda: with_key(None), "publicKey is not base64url", id="null"),
    pytest.param(lambda: with_key(12345), "publicKey is not base64url", id="number"),
    pytest.param(lambda: with_key(""), "publicKey is not base64url", id="empty"),
    pytest.param(lambda: with_key(b64(bytes(31))), "publicKey is not base64url", id="31-bytes"),
    pytest.param(lambda: with_key(b64(bytes(33))), "publicKey is not base64url", id="33-bytes"),
    pytest.param(lambda: with_key(b64(bytes(32)) + "="), "publicKey is not base64url", id="padded"),
    pytest.param(lambda: with_key(base64.b64encode(b"\xfb" * 32).decode().rstrip("=")), "publicKey is not base64url",
                 id="standard-base64"),
    pytest.param(lambda: with_key("-----BEGIN PUBLIC KEY-----"), "publicKey is not base64url", id="pem"),
    pytest.param(wrong_device_id, "is not the SHA-256 of its publicKey", id="other-device-id"),
    pytest.param(uppercase_device_id, "is not the SHA-256 of its publicKey", id="uppercase-device-id"),
]


@pytest.mark.parametrize(("make", "why"), BAD)
def test_approve_refuses_a_malformed_request_and_mints_nothing(vora, state_dir: Path, make, why: str) -> None:
    entry = make()
    folder = write_store(state_dir, [entry], [])  # paired.json exists (empty)
    store_files = ("pending.json", "paired.json")
    before = {name: (folder / name).read_bytes() for name in store_files}
    for args in (("r-bad",), ("--latest", "--yes"), ("r-bad", "--yes"), ("r-bad", "--dry-run")):
        result = vora("devices", "approve", *args, "--json")
        assert result.exit_code == 1, args
        error = result.json()["error"]
        assert error["code"] == "invalid"
        assert error["message"].startswith("request r-bad cannot be approved: ") and why in error["message"]
        assert "vora devices reject r-bad" in error["hint"]
    assert {name: (folder / name).read_bytes() for name in store_files} == before  # nothing minted or written
    assert not (state_dir / "logs" / "devices-audit.jsonl").exists()
    listed = vora("devices", "list", "--pending", "--json").json()["pending"][0]
    assert any(why in p and "approve refuses it" in p for p in listed["problems"])
    human = vora("devices", "list", "--pending")
    assert "approve refuses it" in human.stderr
    # reject still works on it
    assert vora("devices", "reject", "r-bad").exit_code == 0
    assert read_store(state_dir)[0] == {}


def test_a_well_formed_request_still_approves(vora, state_dir: Path) -> None:
    write_store(state_dir, [request("phone", request_id="r-ok")], [])
    assert vora("devices", "approve", "r-ok", "--yes").exit_code == 0
    assert key("phone").device_id in read_store(state_dir)[1]


@pytest.mark.parametrize(("ahead", "shown"), [(3 * MIN, "3m"), (1157 * DAY, "1157d"), (2 * DAY + 5 * MIN, "2d")])
def test_a_request_dated_in_the_future_is_shown_as_such_and_not_approved(
    vora, state_dir: Path, ahead: int, shown: str
) -> None:
    write_store(state_dir, [request("phone", ts=NOW + ahead, request_id="r-future")], [])
    table = vora("devices", "list", "--pending")
    row = next(line for line in table.stdout.splitlines() if line.startswith("r-future"))
    cells = re.split(r"\s{2,}", row.strip())
    assert cells[-3:] == [f"{shown} ahead", "future-dated", "-"]
    assert "left" not in row and "in the future" in table.stderr
    view = vora("devices", "list", "--pending", "--json").json()["pending"][0]
    assert view["futureByMs"] == ahead
    assert view["ageMs"] is None and view["expiresInMs"] is None and view["expired"] is False
    refused = vora("devices", "approve", "r-future", "--json")
    assert refused.exit_code == 1
    error = refused.json()["error"]
    assert error["code"] == "invalid" and f"ts is {shown}" in error["message"] and "clock" in error["hint"]
    latest = vora("devices", "approve", "--latest", "--yes")
    assert latest.exit_code == 1 and "in the future" in latest.stderr
    assert read_store(state_dir)[1] == {}
    doctor = json.loads(vora("doctor", "--json").stdout)
    store = next(c for c in doctor["checks"] if c["id"] == "pairing-store")
    text = " ".join([store["message"], *store["details"]])
    assert "in the future" in text and "vora devices approve r-future" not in text


def test_a_request_within_the_clock_skew_is_an_ordinary_live_request(vora, state_dir: Path) -> None:
    write_store(state_dir, [request("phone", ts=NOW + 90_000, request_id="r-skew")], [])
    view = vora("devices", "list", "--pending", "--json").json()["pending"][0]
    assert view["futureByMs"] is None and view["problems"] == []
    assert vora("devices", "approve", "r-skew", "--yes").exit_code == 0
