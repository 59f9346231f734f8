"""Core rules of the pairing store (spec devices.md), tested without the CLI."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from devices_support import DAY, MIN, NOW, key, paired, read_store, request, write_store
from hypothesis import given
from hypothesis import strategies as st
from install_support import install_at

from vora_cli.core import reading, writer
from vora_cli.core.devices import (
    approval,
    classify,
    lookup,
    operations,
    rules,
    store,
    tokens,
    views,
)
from vora_cli.core.devices.classify import Classification
from vora_cli.core.devices.identity import (
    b64url_decode,
    build_v3_payload,
    device_id_of,
    load_private_key_pem,
    show_identity,
    sign_payload,
)
from vora_cli.core.devices.lookup import Selection
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths, resolve_paths

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{43}$")


@pytest.fixture
def paths(state_dir: Path) -> VoraPaths:
    return resolve_paths(state_dir=str(state_dir))


def audit(state_dir: Path) -> list[dict[str, Any]]:
    path = state_dir / "logs" / "devices-audit.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


# -- scopes and tokens ------------------------------------------------------------------------------

def test_scopes_are_trimmed_deduplicated_sorted_and_implied() -> None:
    assert rules.normalize_scopes([" operator.write ", "node.exec", "operator.write", "", 3]) == [
        "node.exec", "operator.read", "operator.write"]
    assert rules.normalize_scopes(["operator.admin"]) == ["operator.admin", "operator.read", "operator.write"]
    assert rules.normalize_scopes(None) == []


def test_requested_roles_are_role_then_roles_trimmed_and_deduplicated_in_order() -> None:
    assert rules.requested_roles({"role": " node ", "roles": ["operator", "node", "", 3, [], " op "]}) == [
        "node", "operator", "op"]
    assert rules.requested_roles({"role": 5, "roles": "operator"}) == []
    assert rules.requested_roles({"roles": ("operator",)}) == []  # only a list is roles
    roles = rules.requested_roles({"role": "operator"})
    roles.append("changed by a caller")
    assert rules.requested_roles({"role": "operator"}) == ["operator"]  # a caller's list is its own


@pytest.mark.parametrize(("ms", "text"), [
    (-1, "0s"), (0, "0s"), (999, "0s"), (59_999, "59s"), (60_000, "1m"), (61_000, "1m 1s"), (3_599_999, "59m 59s"),
    (3_600_000, "1h"), (3_660_000, "1h 1m"), (172_799_999, "47h 59m"), (172_800_000, "2d"), (176_400_000, "2d 1h"),
    (10**15, "11574074d 1h"),
])
def test_durations_are_said_in_their_two_largest_units(ms: int, text: str) -> None:
    assert rules.format_duration(ms) == text


def test_a_classification_is_said_in_json_with_every_list() -> None:
    assert Classification("repair", ("repair",), ("+x",), True).to_dict() == {
        "kind": "repair", "kinds": ["repair"], "changes": ["+x"], "publicKeyChanged": True, "newRoles": [],
        "newScopes": []}


@given(st.lists(st.sampled_from(["operator.admin", "operator.write", "operator.read", " node.x", "a", "b "])))
def test_normalised_scopes_are_a_sorted_closed_fixed_point(scopes: list[str]) -> None:
    once = rules.normalize_scopes(scopes)
    assert once == sorted(set(once)) == rules.normalize_scopes(once)
    if "operator.admin" in once or "operator.write" in once:
        assert "operator.read" in once
    if "operator.admin" in once:
        assert "operator.write" in once


def test_tokens_have_43_base64url_chars_and_are_unique_over_many_approvals(paths: VoraPaths, state_dir: Path) -> None:
    reqs = [request(f"dev{i}", roles=["operator", "node"], scopes=["operator.read", "node.exec"]) for i in range(60)]
    write_store(state_dir, reqs, [])
    for req in reqs:
        approval.approve_request(install_at(paths, NOW), Selection(request_id=req["requestId"]), allow_widening=True)
    minted = [t["token"] for d in read_store(state_dir)[1].values() for t in d["tokens"].values()]
    minted += [tokens.mint_token() for _ in range(2000)]
    assert len(minted) == 2120 == len(set(minted))
    assert all(TOKEN_RE.match(t) for t in minted)
    assert len(b64url_decode(minted[0])) == 32


# -- the store on disk ------------------------------------------------------------------------------

def test_writes_use_the_gateway_format_and_modes(paths: VoraPaths, state_dir: Path) -> None:
    req = request("phone")
    folder = write_store(state_dir, [req], [])
    os.chmod(folder / "paired.json", 0o644)
    os.chmod(folder, 0o755)
    approval.approve_request(install_at(paths, NOW), Selection(request_id=req["requestId"]), allow_widening=True)
    for name in ("pending.json", "paired.json"):
        data = (folder / name).read_text()
        assert data == json.dumps(json.loads(data), indent=2)  # 2-space indent, no trailing newline
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert (folder / "pending.json").read_text() == "{}"


def test_a_fresh_state_dir_gets_0700_folders_and_0600_files(paths: VoraPaths, state_dir: Path) -> None:
    operations.stage_request(install_at(paths, NOW), request("phone", ts=NOW))
    folder = state_dir / "devices"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / "pending.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((state_dir / "logs").stat().st_mode) == 0o700
    assert stat.S_IMODE((state_dir / "logs" / "devices-audit.jsonl").stat().st_mode) == 0o600
    assert not (folder / "paired.json").exists()  # untouched files are not created


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)


@pytest.mark.slow
@given(st.dictionaries(st.text(min_size=1, max_size=6), st.dictionaries(st.text(max_size=5), json_values, max_size=4),
                       max_size=4), st.data())
def test_written_files_are_json_dumps_indent_2_even_when_entries_are_reused(original: dict[str, Any], data: Any) -> None:
    text = json.dumps(original, indent=2, ensure_ascii=False)
    scanned = store.scan_map(text)
    assert scanned is not None and scanned[0] == original
    doc, layout = scanned
    changed = data.draw(st.sets(st.sampled_from(sorted(doc))) if doc else st.just(set()))
    for name in changed:
        doc[name]["vora"] = [1, {"x": "é"}]
    expected = json.dumps(doc, indent=2, ensure_ascii=False).encode()
    assert store.dump_map(doc, layout, changed) == expected
    ascii_layout = store.scan_map(text, text.encode())[1]  # copied from the bytes when they are the text
    assert store.dump_map(doc, ascii_layout, changed) == expected
    assert store.dump_map(doc) == expected


@pytest.mark.parametrize("text", ['{\n    "a": {}\n}', '{"a": {}}', '{\n  "a": {}\n}\n', '{\n  "a": {} ,\n  "b": {}\n}'])
def test_files_in_another_layout_are_parsed_but_not_reused(text: str) -> None:
    assert store.scan_map(text) is None


def test_missing_files_are_an_empty_store(paths: VoraPaths) -> None:
    listing = views.list_devices(install_at(paths, NOW))
    assert (listing.pending, listing.paired) == ((), ())


@pytest.mark.parametrize("content, message", [
    (b'{"a": ', "paired.json:1:7: Expecting value"),
    (b"[]", "expected a JSON object of paired devices, found list"),
    (b'{"x": 1}', "entry 'x' is not a JSON object"),
    (b"", "paired.json:1:1"),
    (b"\xff\xfe", "not UTF-8"),
])
def test_a_store_that_does_not_parse_is_named_and_never_overwritten(
    paths: VoraPaths, state_dir: Path, content: bytes, message: str
) -> None:
    req = request("phone")
    folder = write_store(state_dir, [req], None)
    (folder / "paired.json").write_bytes(content)
    before = (folder / "pending.json").read_bytes()
    for action in (
        lambda: approval.approve_request(install_at(paths, NOW), Selection(request_id=req["requestId"]), allow_widening=True),
        lambda: views.list_devices(install_at(paths, NOW)),
        lambda: operations.clear_store(install_at(paths, NOW), pending=True),
    ):
        with pytest.raises(VoraError) as caught:
            action()
        assert caught.value.code == "parse_error"
        assert message in caught.value.message and str(folder / "paired.json") in caught.value.message
    assert (folder / "paired.json").read_bytes() == content
    assert (folder / "pending.json").read_bytes() == before


# -- expiry -----------------------------------------------------------------------------------------

def test_a_request_can_be_approved_at_4_59_but_not_at_5_01(paths: VoraPaths, state_dir: Path) -> None:
    young, old = request("young", ts=NOW - (4 * MIN + 59_000)), request("old", ts=NOW - (5 * MIN + 1_000))
    write_store(state_dir, [young, old], [])
    result = approval.approve_request(install_at(paths, NOW), Selection(request_id=young["requestId"]), allow_widening=True)
    assert result.device_id == young["deviceId"]
    write_store(state_dir, [old], None)
    with pytest.raises(VoraError) as caught:
        approval.approve_request(install_at(paths, NOW), Selection(request_id=old["requestId"]), allow_widening=True)
    assert caught.value.code == "invalid"
    assert f"request {old['requestId']} of device {old['deviceId'][:12]} expired 1s ago" in caught.value.message
    assert read_store(state_dir)[0] == {old["requestId"]: old}  # a failed approval writes nothing


def test_any_write_drops_expired_requests_and_list_still_shows_them(paths: VoraPaths, state_dir: Path) -> None:
    old, live = request("old", ts=NOW - 6 * MIN), request("live")
    write_store(state_dir, [old, live], [paired("laptop")])
    by_id = {v.request_id: v for v in views.list_devices(install_at(paths, NOW)).pending}
    assert by_id[old["requestId"]].expired and by_id[old["requestId"]].age_ms == 6 * MIN
    assert by_id[live["requestId"]].expires_in_ms == 4 * MIN
    operations.rename_device(install_at(paths, NOW), key("laptop").device_id[:8], "ops")
    assert list(read_store(state_dir)[0]) == [live["requestId"]]
    assert [e["action"] for e in audit(state_dir)] == ["rename", "expire"]


# -- approving --------------------------------------------------------------------------------------

def test_approve_merges_roles_and_scopes_and_mints_a_token_per_requested_role(
    paths: VoraPaths, state_dir: Path
) -> None:
    known = paired("laptop", roles=["operator"], scopes=["operator.read"], label="ops box")
    known["tokens"]["operator"]["revokedAtMs"] = NOW - DAY
    old_token = known["tokens"]["operator"]["token"]
    req = request("laptop", roles=["operator", "node"], scopes=["operator.write", "node.exec"],
                  platform="macos 15.2", displayName=None)
    del req["displayName"]
    write_store(state_dir, [req], [known])
    result = approval.approve_request(install_at(paths, NOW), Selection(device=req["deviceId"][:8]), allow_widening=True)
    record = read_store(state_dir)[1][req["deviceId"]]
    assert "displayName" not in record  # identity fields verbatim: absent in the request, absent here
    assert (record["platform"], record["publicKey"], record["label"]) == ("macos 15.2", req["publicKey"], "ops box")
    assert record["roles"] == ["operator", "node"]
    assert record["approvedScopes"] == record["scopes"] == ["node.exec", "operator.read", "operator.write"]
    op, node = record["tokens"]["operator"], record["tokens"]["node"]
    assert op["scopes"] == ["operator.read", "operator.write"] and node["scopes"] == ["node.exec"]
    assert op["token"] != old_token and op["createdAtMs"] == NOW - 30 * DAY
    assert op["rotatedAtMs"] == NOW and "revokedAtMs" not in op and op["lastUsedAtMs"] == NOW - DAY
    assert node == {"token": node["token"], "role": "node", "scopes": ["node.exec"], "createdAtMs": NOW}
    assert (record["createdAtMs"], record["approvedAtMs"]) == (NOW - 30 * DAY, NOW)
    assert read_store(state_dir)[0] == {}
    assert [(t.role, t.rotated) for t in result.tokens] == [("operator", True), ("node", False)]
    assert result.classification.kinds == ("role-upgrade", "scope-upgrade", "metadata-change")
    assert "takes effect at the device's next connect attempt" in result.takes_effect


def test_a_role_without_matching_scopes_keeps_the_previous_tokens_scopes(paths: VoraPaths, state_dir: Path) -> None:
    known = paired("node1", roles=["node"], scopes=["node.exec"])
    req = request("node1", role="node", scopes=["operator.read"])
    write_store(state_dir, [req], [known])
    approval.approve_request(install_at(paths, NOW), Selection(request_id=req["requestId"]), allow_widening=True)
    assert read_store(state_dir)[1][req["deviceId"]]["tokens"]["node"]["scopes"] == ["node.exec"]


def test_approve_latest_picks_the_newest_live_request(paths: VoraPaths, state_dir: Path) -> None:
    older, newer, expired = request("a", ts=NOW - 2 * MIN), request("b", ts=NOW - MIN), request("c", ts=NOW - 9 * MIN)
    write_store(state_dir, [older, newer, expired], [])
    assert approval.approve_request(install_at(paths, NOW), Selection(latest=True), allow_widening=True).request_id == newer["requestId"]


def test_a_different_public_key_needs_an_explicit_yes(paths: VoraPaths, state_dir: Path) -> None:
    from vora_cli.core.devices.identity import generate_keypair

    known = {**paired("laptop"), "publicKey": generate_keypair().public_key}  # the record holds another key
    asked = request("laptop")
    write_store(state_dir, [asked], [known])
    view = views.list_devices(install_at(paths, NOW)).pending[0]
    assert view.classification.public_key_changed
    with pytest.raises(VoraError) as caught:
        approval.approve_request(install_at(paths, NOW), Selection(request_id=asked["requestId"]), allow_widening=True)
    assert caught.value.code == "confirmation_required" and "DIFFERENT public key" in caught.value.message
    assert read_store(state_dir)[1][known["deviceId"]] == known
    approval.approve_request(install_at(paths, NOW), Selection(request_id=asked["requestId"]), allow_widening=True, allow_key_change=True)
    assert read_store(state_dir)[1][known["deviceId"]]["publicKey"] == asked["publicKey"]


def test_dry_run_writes_nothing(paths: VoraPaths, state_dir: Path) -> None:
    req = request("phone")
    folder = write_store(state_dir, [req, request("old", ts=NOW - 10 * MIN)], [])
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    result = approval.approve_request(install_at(paths, NOW), Selection(request_id=req["requestId"]), allow_widening=True, dry_run=True)
    assert result.report.dry_run and len(result.report.written) == 2
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.suffix == ".json"} == before
    assert audit(state_dir) == []


# -- classification ---------------------------------------------------------------------------------

@pytest.mark.parametrize("change, kind, changes", [
    ({}, "repair", ()),
    ({"role": "node", "roles": ["node"], "scopes": []}, "role-upgrade", ("role: +node",)),
    ({"scopes": ["operator.admin"]}, "scope-upgrade", ("+operator.admin",)),
    ({"platform": "macos 15.2"}, "metadata-change", ("platform: macos 15.1 -> macos 15.2",)),
    ({"deviceFamily": "ipad"}, "metadata-change", ("deviceFamily: mac -> ipad",)),
    ({"platform": " MacOS 15.1 "}, "repair", ()),  # compared as signed: trimmed, A-Z lower-cased
])
def test_classification(change: dict[str, Any], kind: str, changes: tuple[str, ...]) -> None:
    known = paired("laptop")
    req = {**request("laptop", scopes=["operator.write"]), **change}
    result = classify.classify_request(req, known)
    assert (result.kind, result.changes, result.public_key_changed) == (kind, changes, False)
    assert classify.classify_request(req, None).kind == "new-device"


def test_a_different_key_is_flagged() -> None:
    from vora_cli.core.devices.identity import generate_keypair

    result = classify.classify_request({**request("laptop"), "publicKey": generate_keypair().public_key}, paired("laptop"))
    assert result.public_key_changed and result.changes[-1] == "publicKey: DIFFERENT KEY for this device id"


# -- stale and unknown request ids ------------------------------------------------------------------

def test_a_superseded_request_names_the_newer_one_and_the_command(paths: VoraPaths, state_dir: Path) -> None:
    first = request("phone", ts=NOW - 2 * MIN)
    write_store(state_dir, [first], [])
    views.list_devices(install_at(paths, NOW - 2 * MIN))  # the operator saw `first` in a listing
    second = request("phone", ts=NOW - 10_000)
    write_store(state_dir, [second], None)  # the device retried: the gateway replaced its request
    with pytest.raises(VoraError) as caught:
        approval.approve_request(install_at(paths, NOW), Selection(request_id=first["requestId"]), allow_widening=True)
    error = caught.value
    assert error.code == "not_found"
    assert f"superseded by a newer request {second['requestId']} of the same device" in error.message
    assert f"vora devices approve {second['requestId']}" in (error.hint or "")


def test_an_expired_and_dropped_request_says_how_long_ago(paths: VoraPaths, state_dir: Path) -> None:
    req = request("phone", ts=NOW - 4 * MIN)
    write_store(state_dir, [req], [paired("laptop")])
    views.list_devices(install_at(paths, NOW))
    operations.rename_device(install_at(paths, NOW + 3 * MIN), key("laptop").device_id, "x")  # the write drops it
    assert read_store(state_dir)[0] == {}
    with pytest.raises(VoraError) as caught:
        approval.approve_request(install_at(paths, NOW + 3 * MIN), Selection(request_id=req["requestId"]), allow_widening=True)
    assert caught.value.message.endswith("expired 2m ago (requests live 5m)")


def test_a_never_seen_request_names_the_state_dir(paths: VoraPaths, state_dir: Path) -> None:
    with pytest.raises(VoraError) as caught:
        approval.approve_request(install_at(paths, NOW), Selection(request_id="0b9a5a04-0000-4000-8000-000000000000"), allow_widening=True)
    assert caught.value.code == "not_found"
    assert f"was never seen in the state dir {state_dir}" in caught.value.message
    assert "--state-dir" in (caught.value.hint or "")


def test_a_device_id_given_as_request_id_gets_a_hint(paths: VoraPaths, state_dir: Path) -> None:
    req = request("phone")
    write_store(state_dir, [req], [])
    with pytest.raises(VoraError) as caught:
        approval.approve_request(install_at(paths, NOW), Selection(request_id=req["deviceId"][:10]), allow_widening=True)
    assert f"use --device {req['deviceId'][:10]}" in (caught.value.hint or "")


def test_an_approved_request_says_so(paths: VoraPaths, state_dir: Path) -> None:
    req = request("phone")
    write_store(state_dir, [req], [])
    approval.approve_request(install_at(paths, NOW), Selection(request_id=req["requestId"]), allow_widening=True)
    with pytest.raises(VoraError) as caught:
        approval.approve_request(install_at(paths, NOW + 1), Selection(request_id=req["requestId"]), allow_widening=True)
    assert "is no longer pending: device phone" in caught.value.message and "was approved since" in caught.value.message


# -- device ids by prefix ---------------------------------------------------------------------------

def test_device_prefixes() -> None:
    ids = ["abcdef0123", "abcdef0199", "ffff000011"]
    assert lookup.resolve_device_id("ffff0000", ids, where="x") == "ffff000011"
    assert lookup.resolve_device_id("ABCDEF0123", ids, where="x") == "abcdef0123"
    assert lookup.resolve_device_id("12345678", ids, where="x") is None
    with pytest.raises(VoraError) as ambiguous:
        lookup.resolve_device_id("abcdef01", ids, where="paired.json")
    assert ambiguous.value.code == "refused" and "abcdef0123, abcdef0199" in ambiguous.value.message
    for bad in ("abcdef0", "not-hex-at-all"):
        with pytest.raises(VoraError) as caught:
            lookup.resolve_device_id(bad, ids, where="x")
        assert caught.value.code == "usage"


# -- other changes ----------------------------------------------------------------------------------

def test_revoke_rotate_rename_remove_clear(paths: VoraPaths, state_dir: Path) -> None:
    laptop, phone = paired("laptop"), paired("phone")
    did = laptop["deviceId"]
    write_store(state_dir, [request("new")], [laptop, phone])
    operations.revoke_token(install_at(paths, NOW), did[:8], "operator")
    assert read_store(state_dir)[1][did]["tokens"]["operator"]["revokedAtMs"] == NOW
    assert not operations.revoke_token(install_at(paths, NOW), did[:8], "operator").changed
    result = operations.rotate_token(install_at(paths, NOW + 1), did[:8], "operator", ["operator.read"])
    token = read_store(state_dir)[1][did]["tokens"]["operator"]
    assert token["token"] == result.token and token["scopes"] == ["operator.read"]
    assert "revokedAtMs" not in token and token["rotatedAtMs"] == NOW + 1 and token["createdAtMs"] == NOW - 30 * DAY
    with pytest.raises(VoraError) as outside:
        operations.rotate_token(install_at(paths, NOW), did[:8], "operator", ["operator.admin"])
    assert outside.value.code == "refused" and "operator.admin" in outside.value.message
    with pytest.raises(VoraError):
        operations.rotate_token(install_at(paths, NOW), did[:8], "node", None)
    operations.rename_device(install_at(paths, NOW), did, "  ops laptop ")
    assert read_store(state_dir)[1][did]["label"] == "ops laptop"
    operations.remove_device(install_at(paths, NOW), did[:8])
    assert list(read_store(state_dir)[1]) == [phone["deviceId"]]
    cleared = operations.clear_store(install_at(paths, NOW), pending=False)
    assert cleared.removed_devices == (phone["deviceId"],) and len(read_store(state_dir)[0]) == 1
    operations.clear_store(install_at(paths, NOW), pending=True)
    assert read_store(state_dir) == ({}, {})
    actions = [e["action"] for e in audit(state_dir)]
    assert actions == ["revoke", "rotate", "rename", "remove", "remove", "reject"]
    text = (state_dir / "logs" / "devices-audit.jsonl").read_text()
    assert result.token not in text and laptop["tokens"]["operator"]["token"] not in text
    assert set(audit(state_dir)[0]) >= {"time", "action", "deviceId", "requestId", "roles", "scopes"}


# -- working beside the gateway ---------------------------------------------------------------------

def test_a_gateway_rewrite_between_read_and_replace_is_redone_on_fresh_content(
    paths: VoraPaths, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    req = request("phone")
    laptop = paired("laptop")
    folder = write_store(state_dir, [req], [laptop])
    late = request("late-comer")
    real_read = reading.read_bytes
    calls = {"n": 0}

    def gateway_rewrites_once(path: Path) -> bytes | None:
        calls["n"] += path.name == "pending.json"
        if calls["n"] == 2 and path.name == "pending.json":  # vora read both files and checks before its
            calls["n"] += 1                                  # first replace: the gateway rewrites both now
            laptop["tokens"]["operator"]["lastUsedAtMs"] = NOW
            write_store(state_dir, [req, late], [laptop])
        return real_read(path)

    monkeypatch.setattr(writer, "read_bytes", gateway_rewrites_once)  # the writer re-checks with it
    monkeypatch.setattr(reading, "read_bytes", gateway_rewrites_once)  # the store reads with it
    result = approval.approve_request(install_at(paths, NOW), Selection(request_id=req["requestId"]), allow_widening=True)
    assert result.report.attempts == 2
    pending, devices = read_store(state_dir)
    assert list(pending) == [late["requestId"]]  # the gateway's new request survived
    assert devices[laptop["deviceId"]]["tokens"]["operator"]["lastUsedAtMs"] == NOW  # and its update
    assert req["deviceId"] in devices  # and the approval landed
    assert (folder / "pending.json").read_text() == json.dumps(pending, indent=2)


def test_a_store_that_keeps_changing_is_a_conflict_with_nothing_written(
    paths: VoraPaths, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    req = request("phone")
    folder = write_store(state_dir, [req], [])
    real_read = reading.read_bytes
    calls = {"n": 0}

    def gateway_always_busy(path: Path) -> bytes | None:
        calls["n"] += path.name == "pending.json"
        if calls["n"] % 2 == 0 and path.name == "pending.json":  # each attempt's check sees a fresh rewrite
            (folder / "paired.json").write_text(json.dumps({}, indent=2) + " " * calls["n"])
        return real_read(path)

    monkeypatch.setattr(writer, "read_bytes", gateway_always_busy)  # the writer re-checks with it
    monkeypatch.setattr(reading, "read_bytes", gateway_always_busy)  # the store reads with it
    before = (folder / "pending.json").read_bytes()
    with pytest.raises(VoraError) as caught:
        approval.approve_request(install_at(paths, NOW), Selection(request_id=req["requestId"]), allow_widening=True)
    assert caught.value.code == "conflict" and caught.value.exit_code == 3
    assert "5 attempts" in caught.value.message
    assert (folder / "pending.json").read_bytes() == before
    assert audit(state_dir) == []


# -- this host's identity ---------------------------------------------------------------------------

def test_identity_file_format_and_a_v3_signature_that_verifies(paths: VoraPaths) -> None:
    view = show_identity(paths.identity_path, create=True, now=NOW, lock_timeout=10)
    doc = json.loads(paths.identity_path.read_text())
    assert list(doc) == ["version", "deviceId", "publicKeyPem", "privateKeyPem", "createdAtMs"]
    assert doc["version"] == 1 and doc["createdAtMs"] == NOW
    assert doc["publicKeyPem"].startswith("-----BEGIN PUBLIC KEY-----")
    assert doc["privateKeyPem"].startswith("-----BEGIN PRIVATE KEY-----")
    assert stat.S_IMODE(paths.identity_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(paths.identity_path.parent.stat().st_mode) == 0o700
    raw = b64url_decode(view.public_key or "")
    assert len(raw) == 32 and doc["deviceId"] == view.device_id == hashlib.sha256(raw).hexdigest() == device_id_of(raw)
    assert view.device_id_matches_key and "privateKeyPem" not in json.dumps(view.to_dict())

    payload = build_v3_payload(
        device_id=doc["deviceId"], client_id="vora-cli", client_mode="cli", role="operator",
        scopes=["operator.read", "operator.write"], signed_at_ms=NOW, token=None, nonce="n-123",
        platform=" Linux 6.8 ", device_family="Server",
    )
    assert payload == (f"v3|{doc['deviceId']}|vora-cli|cli|operator|operator.read,operator.write|{NOW}||n-123"
                       "|linux 6.8|server")
    signature = sign_payload(load_private_key_pem(paths.identity_path), payload)
    assert "=" not in signature and len(b64url_decode(signature)) == 64
    assert verify_signature(view.public_key or "", payload, signature)
    assert not verify_signature(view.public_key or "", payload.replace("n-123", "n-124"), signature)
    # never replaced: a second --create shows the same identity
    assert show_identity(paths.identity_path, create=True, now=NOW + 1, lock_timeout=10).device_id == view.device_id


def test_platform_is_lowercased_a_to_z_only() -> None:
    payload = build_v3_payload(device_id="d", client_id="c", client_mode="m", role="r", scopes=[], signed_at_ms=1,
                               token="t", nonce="n", platform="ÄNDROID 15", device_family=None)
    assert payload == "v3|d|c|m|r||1|t|n|Ändroid 15|"


def verify_signature(public_key: str, payload: str, signature: str) -> bool:
    """Check a signature as the gateway does: raw public key (base64url) from the pairing store."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = Ed25519PublicKey.from_public_bytes(b64url_decode(public_key))
        key.verify(b64url_decode(signature), payload.encode("utf-8"))
    except (InvalidSignature, ValueError):
        return False
    return True
