"""A change to the pairing store lands whole (reported and audited) or leaves every file as it was read.

The gateway rewrites both files without a lock. These tests play that gateway at the worst moment:
deterministically, through the `BETWEEN_REPLACES` seam of core/devices/transaction.py (right after
vora replaced paired.json and before it checks pending.json again), and for real, with a separate
process rewriting pending.json in a loop. Each test drives the real `vora devices` command.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from devices_support import MIN, NOW, key, paired, read_store, request, write_store

from vora_cli.core.devices.transaction import BETWEEN_REPLACES

pytestmark = pytest.mark.usefixtures("pinned_clock")

PHONE = "r-phone"


@contextmanager
def between_replaces(hook: Callable[[], None]) -> Iterator[None]:
    token = BETWEEN_REPLACES.set(hook)
    try:
        yield
    finally:
        BETWEEN_REPLACES.reset(token)


def audit(state_dir: Path) -> list[dict[str, Any]]:
    path = state_dir / "logs" / "devices-audit.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def gateway_write(path: Path, doc: dict[str, Any]) -> None:
    """Replace a store file as the gateway does: whole, atomically, JSON.stringify(o, null, 2)."""
    tmp = path.with_name(path.name + ".gw")
    tmp.write_text(json.dumps(doc, indent=2))
    os.replace(tmp, path)


class Gateway:
    """Rewrites pending.json (a new device asks to pair) and, if told to, paired.json (a device connects)."""

    def __init__(self, state_dir: Path, *, times: int | None = None, touch_paired: bool = False,
                 stale_paired: bytes | None = None) -> None:
        self.folder = state_dir / "devices"
        self.times, self.touch_paired, self.stale_paired = times, touch_paired, stale_paired
        self.calls = 0

    def __call__(self) -> None:
        if self.times is not None and self.calls >= self.times:
            return
        self.calls += 1
        pending = json.loads((self.folder / "pending.json").read_text())
        asker = request(f"gw-{self.calls}", ts=NOW - 1000, request_id=f"gw-{self.calls}")
        pending[asker["requestId"]] = asker
        gateway_write(self.folder / "pending.json", pending)
        if self.stale_paired is not None:  # a gateway writing back a copy read before vora's write
            (self.folder / "paired.json").write_bytes(self.stale_paired)
        if self.touch_paired:  # it re-reads paired.json (vora's change included) and stamps a connect
            devices = json.loads((self.folder / "paired.json").read_text())
            devices[key("laptop").device_id]["tokens"]["operator"]["lastUsedAtMs"] = NOW + self.calls
            gateway_write(self.folder / "paired.json", devices)


# Every command that changes paired.json, with an expired request in pending.json so the write
# changes both files (any write drops expired requests), and what must hold once it landed.
def _approved(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return PHONE not in pending and "operator" in devices[key("phone").device_id]["tokens"]


def _removed(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return key("laptop").device_id not in devices


def _revoked(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return "revokedAtMs" in devices[key("laptop").device_id]["tokens"]["operator"]


def _renamed(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return devices[key("laptop").device_id].get("label") == "ops"


def _rotated(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return devices[key("laptop").device_id]["tokens"]["operator"]["token"] != "t" * 43


def _cleared(pending: dict[str, Any], devices: dict[str, Any]) -> bool:
    return not devices and PHONE not in pending


LAPTOP = key("laptop").device_id[:8]
COMMANDS = [
    pytest.param(["approve", PHONE, "--yes"], "approve", _approved, id="approve"),
    pytest.param(["remove", LAPTOP, "--yes"], "remove", _removed, id="remove"),
    pytest.param(["revoke", "--device", LAPTOP, "--role", "operator"], "revoke", _revoked, id="revoke"),
    pytest.param(["rename", LAPTOP, "ops"], "rename", _renamed, id="rename"),
    pytest.param(["rotate", "--device", LAPTOP, "--role", "operator"], "rotate", _rotated, id="rotate"),
    pytest.param(["clear", "--yes", "--pending"], "remove", _cleared, id="clear"),
]


def seed(state_dir: Path, *, with_paired: bool = True) -> tuple[bytes | None, bytes]:
    old = request("tablet", ts=NOW - 7 * MIN, request_id="r-old")  # expired: any write drops it
    write_store(state_dir, [request("phone", request_id=PHONE), old],
                [paired("laptop", token="t" * 43)] if with_paired else None)
    folder = state_dir / "devices"
    paired_path = folder / "paired.json"
    return (paired_path.read_bytes() if paired_path.exists() else None), (folder / "pending.json").read_bytes()


@pytest.mark.parametrize(("args", "action", "landed"), COMMANDS)
def test_a_pending_rewrite_between_the_replaces_is_replayed_and_the_change_lands_whole(
    vora, state_dir: Path, args: list[str], action: str, landed: Callable[..., bool]
) -> None:
    seed(state_dir)
    gateway = Gateway(state_dir, times=1)
    with between_replaces(gateway):
        result = vora("devices", *args)
    assert result.exit_code == 0, result.stderr
    assert gateway.calls == 1
    pending, devices = read_store(state_dir)
    assert landed(pending, devices)
    assert "gw-1" in pending  # the gateway's own change survives
    assert "r-old" not in pending  # and so does vora's whole change: the expired request is dropped
    assert action in [e["action"] for e in audit(state_dir)]
    assert all("incomplete" not in e for e in audit(state_dir))
    assert "paired.json" in result.stderr and "pending.json" in result.stderr  # "wrote …" names both
    assert "nothing was" not in result.stderr


@pytest.mark.parametrize(("args", "action", "landed"), COMMANDS)
def test_a_store_that_keeps_changing_gets_back_what_vora_replaced_and_exit_3_is_true(
    vora, state_dir: Path, args: list[str], action: str, landed: Callable[..., bool]
) -> None:
    paired_before, _ = seed(state_dir)
    gateway = Gateway(state_dir)  # rewrites pending.json every time vora is about to check it
    with between_replaces(gateway):
        result = vora("devices", *args, "--json")
    assert result.exit_code == 3, result.stdout
    error = result.json()["error"]
    assert error["code"] == "conflict" and "nothing was changed" in error["message"]
    assert "run the command again" in error["hint"]
    assert (state_dir / "devices" / "paired.json").read_bytes() == paired_before
    pending, devices = read_store(state_dir)
    assert not landed(pending, devices)
    assert audit(state_dir) == []  # nothing landed, nothing audited


def test_approve_on_a_store_without_paired_json_removes_the_file_it_created_when_it_gives_up(
    vora, state_dir: Path
) -> None:
    seed(state_dir, with_paired=False)
    with between_replaces(Gateway(state_dir)):
        result = vora("devices", "approve", PHONE, "--yes")
    assert result.exit_code == 3
    assert not (state_dir / "devices" / "paired.json").exists()
    assert PHONE in read_store(state_dir)[0] and audit(state_dir) == []


def test_a_paired_json_rewritten_by_the_gateway_after_vora_keeps_the_change_reported_and_audited(
    vora, state_dir: Path
) -> None:
    seed(state_dir)
    # The gateway keeps changing pending.json, and it also re-read paired.json after vora wrote it
    # (vora's approval included) and wrote it back: putting vora's old copy back would destroy that.
    with between_replaces(Gateway(state_dir, touch_paired=True)):
        result = vora("devices", "approve", PHONE, "--yes")
    assert result.exit_code == 0, result.stderr
    _pending, devices = read_store(state_dir)
    assert "operator" in devices[key("phone").device_id]["tokens"]
    assert devices[key("laptop").device_id]["tokens"]["operator"]["lastUsedAtMs"] > NOW  # the gateway's stamp
    assert "warning: the change landed in" in result.stderr and "but not in" in result.stderr
    assert "pending.json" in result.stderr
    events = [e for e in audit(state_dir) if e["action"] == "approve"]
    assert len(events) == 1 and events[0]["incomplete"] == ["pending.json"]


def test_a_stale_paired_json_written_back_by_the_gateway_gets_the_approval_replayed(vora, state_dir: Path) -> None:
    paired_before, _ = seed(state_dir)
    with between_replaces(Gateway(state_dir, times=1, stale_paired=paired_before)):
        result = vora("devices", "approve", PHONE, "--yes")
    assert result.exit_code == 0, result.stderr
    pending, devices = read_store(state_dir)
    assert _approved(pending, devices) and "gw-1" in pending
    assert [e["action"] for e in audit(state_dir)].count("approve") == 1


@pytest.mark.parametrize(("args", "action", "landed"), COMMANDS)
def test_an_os_refusal_on_the_second_file_puts_the_first_back(
    vora, state_dir: Path, args: list[str], action: str, landed: Callable[..., bool]
) -> None:
    paired_before, pending_before = seed(state_dir)
    (state_dir / "devices" / "pending.json").chmod(0o400)  # the operator made it read-only: "no"
    result = vora("devices", *args, "--json")
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "refused" and "read-only" in error["message"]
    assert "put back: nothing was changed" in error["message"]
    assert (state_dir / "devices" / "paired.json").read_bytes() == paired_before
    assert (state_dir / "devices" / "pending.json").read_bytes() == pending_before
    assert audit(state_dir) == []


WRITER = textwrap.dedent("""
    import json, os, sys, time
    folder, stop = sys.argv[1], sys.argv[2]
    path = os.path.join(folder, "pending.json")
    n = 0
    while not os.path.exists(stop):
        n += 1
        with open(path) as f:
            doc = json.load(f)
        doc["r-noise"]["remoteIp"] = f"10.0.0.{n % 250}"  # a device retrying: its entry is rewritten
        tmp = path + ".gw"
        with open(tmp, "w") as f:
            f.write(json.dumps(doc, indent=2))
        os.replace(tmp, path)
        if n == 1:
            open(stop + ".started", "w").close()
""")


@pytest.mark.slow
def test_a_real_process_rewriting_pending_json_never_leaves_a_half_landed_approval(
    vora_process, state_dir: Path, tmp_path: Path
) -> None:
    outcomes = []
    for run in range(4):
        if (state_dir / "devices").exists():
            for child in (state_dir / "devices").iterdir():
                child.unlink()
        (state_dir / "logs" / "devices-audit.jsonl").unlink(missing_ok=True)
        write_store(state_dir, [request("phone", request_id=PHONE), request("noise", request_id="r-noise")],
                    [paired("laptop")])
        paired_before = (state_dir / "devices" / "paired.json").read_bytes()
        stop = tmp_path / f"stop-{run}"
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(state_dir / "devices"), str(stop)])
        try:
            for _ in range(500):
                if Path(str(stop) + ".started").exists():
                    break
                subprocess.run([sys.executable, "-c", "import time; time.sleep(0.01)"], check=True)
            result = vora_process("devices", "approve", PHONE, "--json", "--yes", env={"VORA_NOW_MS": str(NOW)})
        finally:
            stop.touch()
            writer.wait(timeout=30)
        approvals = [e for e in audit(state_dir) if e["action"] == "approve"]
        devices = read_store(state_dir)[1]
        assert result.returncode in (0, 3), result.stderr
        if result.returncode == 0:  # landed: reported, audited, paired
            assert len(approvals) == 1 and key("phone").device_id in devices
            assert json.loads(result.stdout)["deviceId"] == key("phone").device_id
        else:  # a conflict: nothing landed, nothing audited
            assert (state_dir / "devices" / "paired.json").read_bytes() == paired_before
            assert approvals == []
        outcomes.append(result.returncode)
    assert outcomes  # which outcome each run had depends on the machine; each one was checked above


def test_a_journal_back_after_its_change_was_audited_replays_nothing_over_the_operators_edit(
        vora, state_dir: Path) -> None:
    """The journal goes without an fsync of its folder: after a power cut it can be back although
    its change landed whole and was audited. The next run then leaves the store as it is: a
    pending.json the operator restored since keeps the request the change had removed (it was
    replayed over the restore), and the change is not audited twice."""
    _, restored = seed(state_dir)
    journal = state_dir / "devices" / ".vora-change.json"
    kept: list[bytes] = []
    with between_replaces(lambda: kept.append(journal.read_bytes())):
        assert vora("devices", "approve", PHONE, "--yes").exit_code == 0
    assert not journal.exists() and [e["action"] for e in audit(state_dir)] == ["approve", "expire"]
    journal.write_bytes(kept[0])  # back after the power cut
    (state_dir / "devices" / "pending.json").write_bytes(restored)  # the operator's restore
    listed = vora("devices", "list", "--json")
    assert listed.exit_code == 0, listed.stderr
    assert (state_dir / "devices" / "pending.json").read_bytes() == restored and not journal.exists()
    assert [e["action"] for e in audit(state_dir)] == ["approve", "expire"]


@pytest.mark.parametrize("stamps_the_approved_device", [False, True])
def test_a_landed_in_part_report_names_only_the_file_that_lacks_the_change(
        vora, state_dir: Path, stamps_the_approved_device: bool) -> None:
    """paired.json holds the re-approval, whose record carries a hand-edited NaN (written as null)
    and maybe the gateway's stamp of its token's use; only pending.json, which the gateway kept
    rewriting, lacks its part. Comparing the record as set (`NaN != NaN`, the stamp) with the file
    once listed paired.json as incomplete too."""
    phone = {**paired("phone"), "lastSeenMs": math.nan}
    write_store(state_dir, [request("phone", request_id=PHONE, isRepair=True)], [paired("laptop"), phone])
    gateway = Gateway(state_dir, touch_paired=True)
    if stamps_the_approved_device:
        def stamp_both() -> None:
            gateway()
            devices = json.loads((state_dir / "devices" / "paired.json").read_text())
            devices[key("phone").device_id]["tokens"]["operator"]["lastUsedAtMs"] = NOW + 7
            gateway_write(state_dir / "devices" / "paired.json", devices)
        hook: Callable[[], None] = stamp_both
    else:
        hook = gateway
    with between_replaces(hook):
        result = vora("devices", "approve", PHONE, "--yes")
    assert result.exit_code == 0, result.stderr
    events = [e for e in audit(state_dir) if e["action"] == "approve"]
    assert len(events) == 1 and events[0]["incomplete"] == ["pending.json"]
    assert "but not in " + str(state_dir / "devices" / "pending.json") + ":" in result.stderr
