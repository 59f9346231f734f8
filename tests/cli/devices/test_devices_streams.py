"""Where the devices commands write what: data on stdout, "wrote …" and other notes on stderr.

QA found `wrote …` and "takes effect at the device's next connect attempt" on stdout while
`config` and `plugins` print `Wrote <file>` on stderr (spec README: "Progress, warnings and
hints go to stderr").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from devices_support import paired, request, write_store

pytestmark = pytest.mark.usefixtures("pinned_clock")


NOTES = ("Wrote ", "Dry run:", "Nothing to change", "next connect attempt", "next:", "Approve with:")


def _no_notes_on_stdout(stdout: str) -> None:
    for line in stdout.splitlines():
        assert not any(note in line for note in NOTES), line


def test_every_devices_write_puts_data_on_stdout_and_the_write_note_on_stderr(vora, state_dir: Path) -> None:
    laptop = paired("laptop")
    did = laptop["deviceId"]
    req, other = request("phone"), request("tablet")
    write_store(state_dir, [req, other], [laptop, paired("desk")])
    folder = state_dir / "devices"
    runs = {
        "approve": vora("devices", "approve", req["requestId"], "--yes"),
        "reject": vora("devices", "reject", other["requestId"]),
        "revoke": vora("devices", "revoke", "--device", did[:8], "--role", "operator"),
        "revoke-again": vora("devices", "revoke", "--device", did[:8], "--role", "operator", "--dry-run"),
        "rename": vora("devices", "rename", did[:8], "ops laptop"),
        "rename-dry": vora("devices", "rename", did[:8], "other", "--dry-run"),
        "remove": vora("devices", "remove", did[:8], "--yes"),
        "demo-request": vora("devices", "demo-request"),
        "clear": vora("devices", "clear", "--yes", "--pending"),
    }
    for name, result in runs.items():
        assert result.exit_code == 0, (name, result.stderr)
        assert result.stdout.strip(), name  # the command's data is still there
        _no_notes_on_stdout(result.stdout)
    assert f"Wrote {folder}/paired.json, {folder}/pending.json" in runs["approve"].stderr
    assert "takes effect at the device's next connect attempt" in runs["approve"].stderr
    assert runs["approve"].stdout.startswith(f"Approved request {req['requestId']} of phone")
    assert runs["reject"].stderr.startswith(f"Wrote {folder}/pending.json")
    assert runs["revoke"].stderr.startswith(f"Wrote {folder}/paired.json")
    assert runs["rename-dry"].stderr.startswith(f"Dry run: nothing written; would write {folder}/paired.json")
    assert "Approve it with: vora devices approve " in runs["demo-request"].stderr
    assert runs["clear"].stdout == "Removed 2 paired devices and 1 pending request\n"


def test_rotate_keeps_the_token_alone_on_stdout(vora, state_dir: Path) -> None:
    laptop = paired("laptop")
    write_store(state_dir, [], [laptop])
    result = vora("devices", "rotate", "--device", laptop["deviceId"][:8], "--role", "operator")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout) == 44 and result.stdout.endswith("\n")
    assert f"Wrote {state_dir}/devices/paired.json" in result.stderr


def test_list_keeps_the_approve_hint_on_stderr(vora, state_dir: Path) -> None:
    req = request("phone")
    write_store(state_dir, [req], [])
    result = vora("devices", "list", "--pending")
    _no_notes_on_stdout(result.stdout)
    assert f"Approve with: vora devices approve {req['requestId'][:8]} " in result.stderr
