"""Odd values in the pairing store never crash a devices command (QA: `revokedAtMs: 1e400` was "internal").

Any time field may be absent, non-numeric, huge, negative, NaN or Infinity: it is unknown (shown
as unknown, JSON null), a pending request with an unknown `ts` counts as expired and cannot be
approved (and the error says why). Other odd shapes are reported; untouched records are written
back byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from devices_support import NOW, paired, request, write_store
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.usefixtures("pinned_clock")


def _strict(text: str) -> Any:
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in the JSON output")

    return json.loads(text, parse_constant=refuse)


def _write_raw(state_dir: Path, name: str, text: str) -> Path:
    folder = state_dir / "devices"
    folder.mkdir(mode=0o700, exist_ok=True)
    (folder / name).write_text(text)
    return folder / name


ODD_TIMES = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", '"yesterday"', "true", "[]", "{}", "null",
             "-5", "1e300", "123456789012345678901234567890"]


@pytest.mark.parametrize("raw", ODD_TIMES)
def test_odd_token_times_are_unknown_not_internal(vora, state_dir: Path, raw: str) -> None:
    text = ('{"d1": {"tokens": {"operator": {"revokedAtMs": %s, "createdAtMs": %s, "lastUsedAtMs": %s}}, '
            '"createdAtMs": %s, "approvedAtMs": %s}}') % ((raw,) * 5)
    _write_raw(state_dir, "paired.json", text)
    result = vora("devices", "list", "--json")
    assert result.exit_code == 0, result.stdout
    token = _strict(result.stdout)["paired"][0]["tokens"][0]
    # only a finite integer in range is a time; everything else is unknown (null)
    expected = -5 if raw == "-5" else None
    assert (token["revokedAtMs"], token["createdAtMs"]) == (expected, expected)
    human = vora("devices", "list")
    assert human.exit_code == 0 and "Paired devices (1)" in human.stdout


def test_the_qa_case_shows_revocation_unknown(vora, state_dir: Path) -> None:
    _write_raw(state_dir, "paired.json", '{"d1": {"tokens": {"operator": {"revokedAtMs": 1e400}}}}')
    doc = _strict(vora("devices", "list", "--json").stdout)
    device = doc["paired"][0]
    assert device["tokens"][0]["state"] == "unknown" and device["tokens"][0]["revokedAtMs"] is None
    assert any("revokedAtMs is not a time (Infinity)" in p for p in device["problems"])
    human = vora("devices", "list")
    assert "operator: revocation unknown, created unknown, used never" in human.stdout
    assert "warning: paired.json: device d1: tokens.operator.revokedAtMs is not a time" in human.stderr


@pytest.mark.parametrize("ts", ["1e400", "NaN", '"now"', "null", "-1e400", "1e300"])
def test_a_request_with_an_unknown_ts_is_expired_with_unknown_age_and_cannot_be_approved(
        vora, state_dir: Path, ts: str) -> None:
    req = request("phone", request_id="r-odd")
    req_text = json.dumps({"r-odd": {**req, "ts": "@TS@"}}, indent=2).replace('"@TS@"', ts)
    _write_raw(state_dir, "pending.json", req_text)
    doc = _strict(vora("devices", "list", "--json").stdout)["pending"][0]
    assert (doc["requestedAtMs"], doc["ageMs"], doc["expiresInMs"], doc["expired"]) == (None, None, 0, True)
    assert any("cannot be approved" in p for p in doc["problems"])
    human = vora("devices", "list", "--pending")
    row = next(line for line in human.stdout.splitlines() if line.startswith("r-odd"))
    assert row.split()[-3:] == ["unknown", "expired", "-"]
    refused = vora("devices", "approve", "r-odd", "--json")
    assert refused.exit_code == 1
    error = _strict(refused.stdout)["error"]
    assert error["code"] == "invalid" and "no usable timestamp" in error["message"]
    assert "cannot be approved" in error["message"]
    by_device = vora("devices", "approve", "--device", req["deviceId"][:8], "--json", "--yes")
    assert by_device.exit_code == 1 and "no usable timestamp" in _strict(by_device.stdout)["error"]["message"]


def test_odd_shapes_are_reported_and_writes_keep_other_records_byte_for_byte(vora, state_dir: Path) -> None:
    good = paired("laptop")
    odd = {**paired("desk"), "tokens": {"operator": "not-a-record", "node": {"scopes": 5, "revokedAtMs": "x"}},
           "scopes": "operator.read", "roles": [1, None, "operator"], "createdAtMs": float("inf")}
    folder = write_store(state_dir, [], [good, odd])
    before = (folder / "paired.json").read_text()
    result = vora("devices", "list", "--json")
    assert result.exit_code == 0
    problems = {d["deviceId"]: d["problems"] for d in _strict(result.stdout)["paired"]}
    assert problems[good["deviceId"]] == []
    assert any("tokens.operator is not a token record" in p for p in problems[odd["deviceId"]])
    assert any("tokens.node.scopes is not a list" in p for p in problems[odd["deviceId"]])
    assert vora("devices", "list").exit_code == 0
    # a change to the good device leaves the odd record's text exactly as it was
    assert vora("devices", "rename", good["deviceId"][:8], "ops").exit_code == 0
    after = (folder / "paired.json").read_text()
    odd_text = before[before.index(f'"{odd["deviceId"]}"'):].rstrip("}\n")
    assert odd_text in after
    # a change to the odd device itself writes strict JSON (1e400, never Infinity)
    assert vora("devices", "revoke", "--device", odd["deviceId"][:8], "--role", "node").exit_code == 0
    stored = _strict((folder / "paired.json").read_text().replace("1e400", "0"))
    assert stored[odd["deviceId"]]["tokens"]["node"]["revokedAtMs"] == NOW
    assert "1e400" in (folder / "paired.json").read_text()
    for args in (["rotate", "--device", odd["deviceId"][:8], "--role", "node"],
                 ["remove", odd["deviceId"][:8], "--yes"]):
        run = vora("devices", *args, "--json")
        assert run.exit_code == 0, (args, run.stdout)


# -- random values in every field -------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
PENDING_FIELDS = ["ts", "deviceId", "roles", "role", "scopes", "displayName", "platform", "label", "isRepair"]
PAIRED_FIELDS = ["createdAtMs", "approvedAtMs", "tokens", "roles", "scopes", "approvedScopes", "label", "platform"]
TOKEN_FIELDS = ["revokedAtMs", "createdAtMs", "rotatedAtMs", "lastUsedAtMs", "scopes", "role", "token"]


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pending_values=st.dictionaries(st.sampled_from(PENDING_FIELDS), json_values, max_size=4),
    paired_values=st.dictionaries(st.sampled_from(PAIRED_FIELDS), json_values, max_size=4),
    token_values=st.dictionaries(st.sampled_from(TOKEN_FIELDS), json_values, max_size=4),
    token_record=st.one_of(st.none(), json_values),
)
def test_list_json_survives_random_field_values(vora, state_dir: Path, pending_values: dict[str, Any],
                                                paired_values: dict[str, Any], token_values: dict[str, Any],
                                                token_record: Any) -> None:
    device = paired("laptop")
    device["tokens"]["operator"].update(token_values)
    if token_record is not None:
        device["tokens"]["node"] = token_record
    device.update(paired_values)
    req = {**request("laptop"), **pending_values}
    folder = state_dir / "devices"
    folder.mkdir(mode=0o700, exist_ok=True)
    (folder / "pending.json").write_text(json.dumps({req["requestId"]: req}, indent=2))
    (folder / "paired.json").write_text(json.dumps({device["deviceId"]: device}, indent=2))
    for args in (("devices", "list", "--json"), ("devices", "list", "--paired", "--json")):
        result = vora(*args)
        assert result.exit_code == 0, result.stdout
        doc = _strict(result.stdout)
        assert isinstance(doc, dict) and "error" not in doc, doc
    human = vora("devices", "list")
    assert human.exit_code == 0, human.stderr


def test_a_request_written_twice_goes_whole_and_is_written_once(vora, state_dir: Path) -> None:
    """A hand-edited pending.json naming a request twice (JSON keeps the last): a write that keeps
    it writes it once, one that removes it removes it, copies and all (the copied runs of entries
    once spanned the stale copy: `reject` said done and left the request pending)."""
    first, other, again, last = (request("a", request_id="r-a"), request("b", request_id="r-b"),
                                 request("a", request_id="r-a", ts=NOW - 2000), request("c", request_id="r-c"))
    members = [f'  "{entry["requestId"]}": ' + json.dumps(entry, indent=2).replace("\n", "\n  ")
               for entry in (first, other, again, last)]
    text = "{\n" + ",\n".join(members) + "\n}"
    for gone, kept in (("r-a", {"r-b": other, "r-c": last}), ("r-b", {"r-a": again, "r-c": last})):
        path = _write_raw(state_dir, "pending.json", text)
        result = vora("devices", "reject", gone)
        assert result.exit_code == 0, result.stderr
        assert path.read_text() == json.dumps(kept, indent=2)
