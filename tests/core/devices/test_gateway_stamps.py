"""vora's list of what the gateway stamps on its own is the gateway's (openclaw 2026.4.12), and an
entry's mark sets exactly those fields aside.

The answer is the upstream gateway's own (`scripts/gen_gateway_stamps.py` called its pairing
module on a store vora wrote); if a later release stamps more, regenerating the data fails here.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from devices_support import NOW, paired, request

from vora_cli.core.devices import stamps
from vora_cli.core.devices.stamps import entry_mark

DATA = Path(__file__).resolve().parents[2] / "data" / "upstream" / "gateway-stamps-openclaw-2026.4.12.json"
STAMPS = json.loads(DATA.read_text())


def _recorded(file: str) -> set[str]:
    return {f for e in STAMPS["events"] if e["file"] == file for f in e["changed"]}


def test_the_stamped_fields_are_those_the_gateway_rewrote() -> None:
    paired_fields = _recorded("paired.json")
    assert {f for f in paired_fields if not f.startswith("tokens.")} == stamps.PAIRED_STAMPED
    assert {f.rsplit(".", 1)[1] for f in paired_fields if f.startswith("tokens.<role>.")} == stamps.TOKEN_STAMPED
    assert _recorded("pending.json") == stamps.PENDING_STAMPED
    # and it rewrote nothing else, of that entry or any other
    assert all(e.get("other entries changed", []) == [] for e in STAMPS["events"])


def test_a_number_marks_alike_as_vora_wrote_it_and_as_the_gateway_wrote_it_back() -> None:
    numbers = STAMPS["numbers"]
    vora_wrote = json.loads(numbers["vora wrote"])  # 1e400 reads as inf, as vora reads the store
    gateway_wrote = json.loads(numbers["the gateway wrote back"])
    assert vora_wrote != gateway_wrote
    assert entry_mark("paired.json", {"n": vora_wrote}) == entry_mark("paired.json", {"n": gateway_wrote})
    assert entry_mark("paired.json", {"n": [math.nan]}) == entry_mark("paired.json", {"n": [None]})


def _stamped(device: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(device))
    for field in stamps.PAIRED_STAMPED:
        out[field] = "changed on connect"
    out.pop("displayName")
    out["tokens"]["operator"]["lastUsedAtMs"] = NOW + 1
    return out


def test_the_gateways_stamps_leave_a_mark_as_it_was() -> None:
    device = paired("laptop")
    assert entry_mark("paired.json", _stamped(device)) == entry_mark("paired.json", device)
    ask = request("phone")
    refreshed = {**ask, **{f: "asked again" for f in stamps.PENDING_STAMPED}}
    assert entry_mark("pending.json", refreshed) == entry_mark("pending.json", ask)


@pytest.mark.parametrize("edit", [
    pytest.param(lambda d: d["tokens"]["operator"].update(token="n" * 43), id="a fresh token"),
    pytest.param(lambda d: d.update(approvedAtMs=NOW), id="approvedAtMs"),
    pytest.param(lambda d: d["tokens"]["operator"].update(revokedAtMs=NOW), id="revokedAtMs"),
    pytest.param(lambda d: d["tokens"]["operator"].update(rotatedAtMs=NOW), id="rotatedAtMs"),
    pytest.param(lambda d: d.update(label="ops"), id="a label"),
    pytest.param(lambda d: d.update(publicKey="k" * 43), id="the key"),
    pytest.param(lambda d: d.update(roles=["operator", "node"]), id="roles"),
    pytest.param(lambda d: d.update(platform="macos 15.2"), id="the pinned platform"),
])
def test_what_a_change_produces_changes_the_mark(edit: Any) -> None:
    device = paired("laptop")
    changed = json.loads(json.dumps(device))
    edit(changed)
    assert entry_mark("paired.json", changed) != entry_mark("paired.json", device)
    assert entry_mark("paired.json", _stamped(changed)) != entry_mark("paired.json", device)
