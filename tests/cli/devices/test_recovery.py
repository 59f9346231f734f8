"""A change killed between its replaces is finished by the next run even after the gateway stamped it.

Right after an approve the approved device connects: the gateway refreshes its metadata and stamps
its token's `lastUsedAtMs`, rewriting the whole of paired.json (JSON.stringify: numbers as
JavaScript holds them). A `vora` killed after replacing paired.json and before pending.json must
still be judged landed by the next run: the request gone, the expired one dropped, one audit line.
And a `vora` killed before its first replace, whose store the gateway stamps all the same, must
still be judged as never made. Each test runs the real command as a real process, SIGKILLed at
that moment, rewrites the file as the gateway does (the fields it changes are those the upstream
gateway itself changed: tests/data/upstream/gateway-stamps-openclaw-2026.4.12.json), then runs
`vora devices list`.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from devices_support import MIN, NOW, key, paired, read_store, request, write_store

pytestmark = pytest.mark.usefixtures("pinned_clock")

REPO = Path(__file__).resolve().parents[3]
STAMPS = json.loads((REPO / "tests" / "data" / "upstream" / "gateway-stamps-openclaw-2026.4.12.json").read_text())
LAPTOP = key("laptop").device_id
PHONE = key("phone").device_id

_KILLED = """
import os, signal, sys
when = sys.argv.pop(1)
def die(*_args, **_kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
if when == "after-paired":  # right after paired.json is replaced
    from vora_cli.core.devices.transaction import BETWEEN_REPLACES
    BETWEEN_REPLACES.set(die)
else:  # the journal written, no store file replaced yet
    from vora_cli.core import writer
    writer.replace_files_if_unchanged = die
from vora_cli.cli.app import main
main(sys.argv[1:])
"""


def run_killed(state_dir: Path, when: str, args: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", _KILLED, when, "--state-dir", str(state_dir), "devices", *args],
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert (state_dir / "devices" / ".vora-change.json").exists()


def as_javascript_writes(value: Any) -> Any:
    """What JSON.parse then JSON.stringify make of a value: an integral number below 1e21 without
    a fraction, a non-finite one null (the gateway's own answer is checked below)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return int(value) if value.is_integer() and abs(value) < 1e21 else value
    if isinstance(value, int) and not isinstance(value, bool):
        return int(float(value))
    if isinstance(value, dict):
        return {k: as_javascript_writes(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_javascript_writes(v) for v in value]
    return value


def test_the_gateway_model_here_writes_numbers_back_as_the_gateway_did() -> None:
    numbers = STAMPS["numbers"]
    wrote = json.loads(numbers["vora wrote"].replace("1e400", "Infinity"))
    assert as_javascript_writes(wrote) == json.loads(numbers["the gateway wrote back"])


def gateway_stamps(state_dir: Path, device_id: str, *, token_used: bool = True) -> None:
    """paired.json as the gateway rewrites it when `device_id` connects (and uses its token): each
    field the upstream gateway changed on a connect and a token use set anew, the file written whole."""
    path = state_dir / "devices" / "paired.json"
    devices = json.loads(path.read_text())
    entry = devices[device_id]
    fields = [f for e in STAMPS["events"] if e["file"] == "paired.json" for f in e["changed"]]
    assert fields  # the recorded answer names some
    for field in fields:
        if field.startswith("tokens.<role>."):
            if token_used:
                entry["tokens"]["operator"][field.rsplit(".", 1)[1]] = NOW + 4321
        elif field == "displayName":
            entry.pop(field, None)  # a client that sends none: JSON.stringify drops the undefined
        else:
            entry[field] = f"{field} at connect"
    tmp = path.with_name("paired.json.gw")
    tmp.write_text(json.dumps(as_javascript_writes(devices), indent=2))
    os.replace(tmp, path)


def audit(state_dir: Path) -> list[dict[str, Any]]:
    path = state_dir / "logs" / "devices-audit.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def seed(state_dir: Path) -> None:
    """A paired laptop with hand-edited numbers (5.0, 1e400: written back by the gateway as 5 and
    null), its repair request, a new phone's request, and an expired request any write drops."""
    laptop = paired("laptop", token="t" * 43, handEdited=[5.0, math.inf, 1e16])
    write_store(state_dir, [request("phone", request_id="r-phone"),
                            request("laptop", request_id="r-laptop", isRepair=True),
                            request("tablet", ts=NOW - 7 * MIN, request_id="r-old")], [laptop])
    path = state_dir / "devices" / "paired.json"
    path.write_text(path.read_text().replace("Infinity", "1e400"))  # as strict JSON holds it


# command, the device the gateway then sees connect, whether it uses a token, the action audited,
# whether the change shows in the store
def _approved_phone(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return PHONE in devices


def _reapproved(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return devices[LAPTOP]["tokens"]["operator"]["token"] != "t" * 43 and devices[LAPTOP]["approvedAtMs"] == NOW


def _rotated(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return devices[LAPTOP]["tokens"]["operator"]["token"] != "t" * 43


def _revoked(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return devices[LAPTOP]["tokens"]["operator"].get("revokedAtMs") == NOW


def _renamed(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return devices[LAPTOP].get("label") == "ops"


CHANGES = [
    pytest.param(["approve", "r-phone", "--yes"], PHONE, True, "approve", "r-phone", _approved_phone, id="approve-new"),
    pytest.param(["approve", "r-laptop", "--yes"], LAPTOP, True, "approve", "r-laptop", _reapproved, id="re-approve"),
    pytest.param(["rotate", "--device", LAPTOP[:8], "--role", "operator"], LAPTOP, True, "rotate", None, _rotated,
                 id="rotate"),
    # a revoked token is never used again: the device's connect refreshes its metadata only
    pytest.param(["revoke", "--device", LAPTOP[:8], "--role", "operator"], LAPTOP, False, "revoke", None, _revoked,
                 id="revoke"),
    pytest.param(["rename", LAPTOP[:8], "ops"], LAPTOP, True, "rename", None, _renamed, id="rename"),
]


@pytest.mark.parametrize(("args", "connects", "token_used", "action", "request_id", "shows"), CHANGES)
def test_a_change_killed_after_paired_json_then_stamped_by_the_gateway_is_finished(
        vora, state_dir: Path, args: list[str], connects: str, token_used: bool, action: str,
        request_id: str | None, shows: Any) -> None:
    seed(state_dir)
    run_killed(state_dir, "after-paired", args)
    gateway_stamps(state_dir, connects, token_used=token_used)
    stamped = read_store(state_dir)[1][connects]
    listed = vora("devices", "list", "--json")
    assert listed.exit_code == 0, listed.stderr
    pending, devices = read_store(state_dir)
    assert shows(pending, devices)
    assert "r-old" not in pending  # pending.json's part of the change was replayed
    if request_id is not None:
        assert request_id not in pending  # never both pending and paired
    assert devices[connects] == stamped  # the gateway's stamps stay as it wrote them
    lines = audit(state_dir)
    assert [(e["action"], e["recovered"]) for e in lines if e["action"] != "expire"] == [(action, True)]
    assert not (state_dir / "devices" / ".vora-change.json").exists()


@pytest.mark.parametrize(("args", "connects", "token_used", "action", "request_id", "shows"), CHANGES)
def test_a_change_killed_before_its_first_replace_is_not_made_however_the_gateway_stamps(
        vora, state_dir: Path, args: list[str], connects: str, token_used: bool, action: str,
        request_id: str | None, shows: Any) -> None:
    seed(state_dir)
    run_killed(state_dir, "before-first-replace", args)
    gateway_stamps(state_dir, LAPTOP)  # the device paired before the change connects and uses its token
    before = (state_dir / "devices").joinpath("paired.json").read_bytes(), \
        (state_dir / "devices").joinpath("pending.json").read_bytes()
    listed = vora("devices", "list", "--json")
    assert listed.exit_code == 0, listed.stderr
    pending, devices = read_store(state_dir)
    assert not shows(pending, devices)
    if request_id is not None:
        assert request_id in pending
    after = (state_dir / "devices").joinpath("paired.json").read_bytes(), \
        (state_dir / "devices").joinpath("pending.json").read_bytes()
    assert after == before and audit(state_dir) == []  # nothing replayed, nothing audited
    assert not (state_dir / "devices" / ".vora-change.json").exists()


def test_a_paired_json_the_operator_restored_after_the_kill_is_not_judged_landed(vora, state_dir: Path) -> None:
    """Killed after paired.json; the operator puts the old file back before the next run (and
    the laptop connects with its old token): the change is not there, so nothing is finished."""
    seed(state_dir)
    old = (state_dir / "devices" / "paired.json").read_bytes()
    run_killed(state_dir, "after-paired", ["approve", "r-laptop", "--yes"])
    (state_dir / "devices" / "paired.json").write_bytes(old)
    gateway_stamps(state_dir, LAPTOP)
    assert vora("devices", "list", "--json").exit_code == 0
    pending, devices = read_store(state_dir)
    assert devices[LAPTOP]["tokens"]["operator"]["token"] == "t" * 43
    assert "r-laptop" in pending and audit(state_dir) == []
