"""`vora devices …` end to end: exact output, JSON, files on disk, real processes.

Where the devices commands write what: data on stdout, "wrote …" and other notes on stderr.

QA found `wrote …` and "takes effect at the device's next connect attempt" on stdout while
`config` and `plugins` print `Wrote <file>` on stderr (spec README: "Progress, warnings and
hints go to stderr").
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from devices_support import MIN, NOW, all_tokens, key, paired, read_store, request, write_store

pytestmark = pytest.mark.usefixtures("pinned_clock")

REPO = Path(__file__).resolve().parents[3]


# -- list -------------------------------------------------------------------------------------------

def test_list_shows_kind_age_and_time_left_and_token_state(vora, state_dir: Path) -> None:
    laptop = paired("laptop", label="ops laptop")
    upgrade = request("laptop", scopes=["operator.admin"], ts=NOW - 30_000, request_id="r-upgrade")
    new = request("phone", ts=NOW - 2 * MIN, request_id="r-new")
    old = request("tablet", ts=NOW - 7 * MIN, request_id="r-old")
    write_store(state_dir, [new, upgrade, old], [laptop])
    result = vora("devices", "list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Pending requests (3)"
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[1:5]]
    assert rows[0] == ["REQUEST", "DEVICE", "KIND", "ROLES", "SCOPES", "IP", "AGE", "LEFT", "CHANGES"]
    assert rows[1] == ["r-upgrade", "ops laptop", "scope upgrade", "operator",
                       "+operator.admin, operator.read, operator.write", "192.168.1.40", "30s", "4m 30s", "-"]
    assert rows[2] == ["r-new", "phone", "new device", "operator", "operator.read", "192.168.1.40", "2m", "3m", "-"]
    assert rows[3][-3:] == ["7m", "expired", "-"]
    assert "Paired devices (1)" in result.stdout
    assert "operator: active, created 30d ago, used 24h ago" in result.stdout
    assert "Approve with: vora devices approve r-upgrad " in result.stderr  # its unique prefix
    doc = vora("devices", "list", "--pending", "--json").json()
    assert set(doc) == {"stateDir", "nowMs", "pending"}
    first = doc["pending"][0]
    assert first["requestId"] == "r-upgrade" and first["classification"]["kind"] == "scope-upgrade"
    assert (first["ageMs"], first["expiresInMs"], first["expired"]) == (30_000, 270_000, False)
    assert doc["pending"][2]["expired"] is True
    paired_doc = vora("devices", "list", "--paired", "--json").json()["paired"][0]
    assert paired_doc["tokens"][0] == {"role": "operator", "state": "active", "scopes": ["operator.read", "operator.write"],
                                       "createdAtMs": NOW - 30 * 86_400_000, "rotatedAtMs": None, "revokedAtMs": None,
                                       "lastUsedAtMs": NOW - 86_400_000}


def test_list_of_an_empty_state_dir(vora, state_dir: Path) -> None:
    result = vora("devices", "list")
    assert (result.exit_code, result.stdout) == (0, "No pending pairing requests.\n\nNo paired devices.\n")
    assert not (state_dir / "devices").exists()


def test_the_example_store_lists(vora) -> None:
    doc = vora("--state-dir", str(REPO / "examples" / "vora"), "devices", "list", "--json").json()
    assert [d["name"] for d in doc["paired"]] == ["ops-laptop"]


# -- approve by each selector -----------------------------------------------------------------------

@pytest.mark.parametrize("selector", [
    lambda r: [r["requestId"]],
    lambda r: ["--device", r["deviceId"][:8]],
    lambda r: ["--device", r["deviceId"]],
    lambda r: ["--latest", "--yes"],
])
def test_approve_by_each_selector(vora, state_dir: Path, selector) -> None:
    older = request("other", ts=NOW - 3 * MIN)
    req = request("phone", ts=NOW - MIN)
    write_store(state_dir, [older, req], [])
    result = vora("devices", "approve", *selector(req), "--yes")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"Approved request {req['requestId']} of phone ({req['deviceId'][:12]}): new device",
        "  roles:  operator",
        "  scopes: operator.read",
        "  token:  operator (new; scopes operator.read); the device receives it when it connects",
    ]
    # which files were written and when it takes effect are notes: stderr (spec README, "Output contract")
    assert result.stderr.splitlines()[-2:] == [
        f"Wrote {state_dir}/devices/paired.json, {state_dir}/devices/pending.json",
        "The approval takes effect at the device's next connect attempt (the gateway re-reads the store on every connect).",
    ]
    pending, devices = read_store(state_dir)
    assert list(pending) == [older["requestId"]] and list(devices) == [req["deviceId"]]


def test_approve_latest_asks_and_never_prompts_without_a_terminal(vora, state_dir: Path) -> None:
    req = request("phone")
    folder = write_store(state_dir, [req], [])
    before = [(folder / n).read_bytes() for n in ("pending.json", "paired.json")]
    result = vora("devices", "approve", "--latest", "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "confirmation_required" and result.json()["error"]["hint"] == "pass --yes to proceed"
    assert [(folder / n).read_bytes() for n in ("pending.json", "paired.json")] == before


def test_approve_needs_exactly_one_selector(vora, state_dir: Path) -> None:
    for args in ([], ["abc", "--latest"], ["--device", "abcdef12", "--latest"]):
        result = vora("devices", "approve", *args, "--json")
        assert result.exit_code == 2 and result.json()["error"]["code"] == "usage"


def test_approve_json_and_dry_run(vora, state_dir: Path) -> None:
    req = request("phone")
    folder = write_store(state_dir, [req], [])
    before = (folder / "pending.json").read_bytes()
    doc = vora("devices", "approve", req["requestId"], "--dry-run", "--json").json()
    assert doc["report"]["dryRun"] is True and (folder / "pending.json").read_bytes() == before
    doc = vora("devices", "approve", req["requestId"], "--json", "--yes").json()
    assert doc["tokens"] == [{"role": "operator", "scopes": ["operator.read"], "rotated": False}]
    assert doc["report"]["written"] == [str(folder / "paired.json"), str(folder / "pending.json")]
    assert "next connect attempt" in doc["takesEffect"]


def test_a_different_key_is_loud_and_needs_yes(vora, state_dir: Path) -> None:
    from vora_cli.core.devices.identity import generate_keypair

    known = paired("laptop")
    req = {**request("laptop", pair=generate_keypair()), "deviceId": known["deviceId"]}
    write_store(state_dir, [req], [known])
    assert "!! DIFFERENT PUBLIC KEY !!" in vora("devices", "list").stdout
    # A well-formed device's id is the SHA-256 of its key: another key under a known id is refused
    # even with --yes (issue 12.16); nothing is minted for it.
    for extra in ((), ("--yes",)):
        refused = vora("devices", "approve", req["requestId"], *extra)
        assert refused.exit_code == 1
        assert "is not the SHA-256 of its publicKey" in refused.stderr
        assert read_store(state_dir)[1][known["deviceId"]] == known


def test_a_paired_record_with_another_key_than_a_valid_request_needs_yes(vora, state_dir: Path) -> None:
    from vora_cli.core.devices.identity import generate_keypair

    known = {**paired("laptop"), "publicKey": generate_keypair().public_key}  # a hand-edited record
    req = request("laptop")
    write_store(state_dir, [req], [known])
    assert "!! DIFFERENT PUBLIC KEY !!" in vora("devices", "list").stdout
    refused = vora("devices", "approve", req["requestId"])
    assert refused.exit_code == 1 and "DIFFERENT public key" in refused.stderr
    assert read_store(state_dir)[1][known["deviceId"]] == known
    assert vora("devices", "approve", req["requestId"], "--yes").exit_code == 0
    assert read_store(state_dir)[1][known["deviceId"]]["publicKey"] == req["publicKey"]


# -- stale ids --------------------------------------------------------------------------------------

def test_stale_ids_explain_themselves(vora, state_dir: Path) -> None:
    first = request("phone", ts=NOW - 2 * MIN)
    write_store(state_dir, [first], [])
    vora("devices", "list")
    second = request("phone", ts=NOW - 5_000)
    write_store(state_dir, [second], None)
    result = vora("devices", "approve", first["requestId"])
    assert result.exit_code == 1
    assert f"superseded by a newer request {second['requestId']}" in result.stderr
    assert f"hint: approve the newer one: vora devices approve {second['requestId']}" in result.stderr
    expired = request("tablet", ts=NOW - 6 * MIN)
    write_store(state_dir, [expired], None)
    doc = vora("devices", "approve", expired["requestId"], "--json").json()["error"]
    assert doc["code"] == "invalid" and "expired 1m ago" in doc["message"]
    doc = vora("devices", "reject", "nope-nope", "--json").json()["error"]
    assert doc["code"] == "not_found" and f"never seen in the state dir {state_dir}" in doc["message"]


def test_ambiguous_and_short_prefixes(vora, state_dir: Path) -> None:
    write_store(state_dir, [], [paired("laptop")])
    short = vora("devices", "remove", "abc", "--yes", "--json")
    assert short.exit_code == 2 and "at least 8 hex digits" in short.json()["error"]["message"]
    missing = vora("devices", "rename", "00000000", "x", "--json")
    assert missing.json()["error"]["code"] == "not_found"


# -- the other commands -----------------------------------------------------------------------------

def test_reject_remove_revoke_rename_clear(vora, state_dir: Path) -> None:
    laptop = paired("laptop")
    did = laptop["deviceId"]
    req = request("phone")
    write_store(state_dir, [req, request("tablet")], [laptop, paired("desk")])
    assert vora("devices", "reject", "--device", req["deviceId"][:8]).stdout.startswith(
        f"Rejected request {req['requestId']} of phone")
    assert req["requestId"] not in read_store(state_dir)[0]
    result = vora("devices", "revoke", "--device", did[:8], "--role", "operator")
    assert result.stdout.startswith(f"laptop ({did[:12]}): revoke: operator token revoked")
    assert vora("devices", "rename", did[:8], "ops laptop").stdout.startswith(
        f"ops laptop ({did[:12]}): rename: label: (none) -> ops laptop")
    no = vora("devices", "remove", did[:8])
    assert no.exit_code == 1 and "pass --yes to proceed" in no.stderr
    assert vora("devices", "remove", did[:8], "--yes").exit_code == 0
    assert did not in read_store(state_dir)[1]
    assert vora("devices", "clear", "--json").json()["error"]["code"] == "confirmation_required"
    doc = vora("devices", "clear", "--yes", "--pending", "--json").json()
    assert len(doc["removedDevices"]) == 1 and len(doc["rejectedRequests"]) == 1
    assert read_store(state_dir) == ({}, {})


def test_rotate_prints_the_new_token_once_on_stdout_alone(vora, state_dir: Path) -> None:
    laptop = paired("laptop")
    write_store(state_dir, [], [laptop])
    result = vora("devices", "rotate", "--device", laptop["deviceId"][:8], "--role", "operator",
                  "--scope", "operator.read")
    token = read_store(state_dir)[1][laptop["deviceId"]]["tokens"]["operator"]["token"]
    assert result.stdout == token + "\n" and len(token) == 43
    assert "Shown once" in result.stderr
    doc = vora("devices", "rotate", "--device", laptop["deviceId"][:8], "--role", "operator", "--json").json()
    assert doc["token"] == read_store(state_dir)[1][laptop["deviceId"]]["tokens"]["operator"]["token"]
    assert doc["scopes"] == ["operator.read"]
    refused = vora("devices", "rotate", "--device", laptop["deviceId"][:8], "--role", "operator",
                   "--scope", "operator.admin", "--json")
    assert refused.exit_code == 1 and refused.json()["error"]["code"] == "refused"


def test_identity(vora, state_dir: Path) -> None:
    missing = vora("devices", "identity", "--json")
    assert missing.exit_code == 1 and "--create" in missing.json()["error"]["hint"]
    dry = vora("devices", "identity", "--create", "--dry-run")
    assert dry.stdout.startswith("dry run: would create") and not (state_dir / "identity").exists()
    created = vora("devices", "identity", "--create")
    assert created.stderr.startswith(f"Wrote {state_dir}/identity/device.json")
    assert created.stdout.startswith("device id:  ") and "wrote" not in created.stdout
    doc = vora("devices", "identity", "--json").json()
    on_disk = json.loads((state_dir / "identity" / "device.json").read_text())
    assert doc["deviceId"] == on_disk["deviceId"] and doc["deviceIdMatchesKey"] is True
    assert "privateKeyPem" not in doc and "PRIVATE" not in created.stdout + json.dumps(doc)


@pytest.mark.parametrize("stored", ["private key", "another key's id", "text", "UPPER"])
def test_an_identity_whose_device_id_is_not_one_is_never_echoed(vora, state_dir: Path, stored: str) -> None:
    """A damaged or hand-edited identity may hold anything under `deviceId`, its private key too."""
    vora("devices", "identity", "--create")
    path = state_dir / "identity" / "device.json"
    doc = json.loads(path.read_text())
    value = {"private key": doc["privateKeyPem"], "another key's id": "ab" * 32, "text": "hello\x1b[2J",
             "UPPER": doc["deviceId"].upper()}[stored]
    path.write_text(json.dumps({**doc, "deviceId": value}))
    shown = vora("devices", "identity")
    as_json = vora("devices", "identity", "--json")
    assert shown.exit_code == 0 and as_json.json()["deviceIdMatchesKey"] is False
    assert "not the sha256 of its public key" in shown.stderr
    if stored == "another key's id":  # an id's shape, just not this key's: shown, as the warning says
        assert as_json.json()["deviceId"] == value
    else:
        assert as_json.json()["deviceId"] is None and value not in shown.stdout + shown.stderr + as_json.stdout
    assert "PRIVATE" not in shown.stdout + shown.stderr + as_json.stdout


def test_demo_request_stages_a_live_request_that_approves(vora, state_dir: Path) -> None:
    write_store(state_dir, [], [paired("laptop")])
    staged = vora("devices", "demo-request", "--json").json()
    pending, _ = read_store(state_dir)
    entry = pending[staged["requestId"]]
    assert entry["ts"] == NOW and len(entry["deviceId"]) == 64 and entry["isRepair"] is False
    upgrade = vora("devices", "demo-request", "--device", key("laptop").device_id[:8], "--scope", "operator.admin",
                   "--json").json()
    assert read_store(state_dir)[0][upgrade["requestId"]]["isRepair"] is True
    kinds = {p["requestId"]: p["classification"]["kind"] for p in vora("devices", "list", "--json").json()["pending"]}
    assert kinds == {staged["requestId"]: "new-device", upgrade["requestId"]: "scope-upgrade"}
    assert vora("devices", "approve", staged["requestId"], "--yes").exit_code == 0


# -- corrupt and missing stores ---------------------------------------------------------------------

@pytest.mark.parametrize("name", ["pending.json", "paired.json"])
def test_a_corrupt_store_fails_every_command_and_stays_byte_identical(vora, state_dir: Path, name: str) -> None:
    folder = write_store(state_dir, [request("phone")], [paired("laptop")])
    (folder / name).write_text('{"oops": ')
    snapshot = {p.name: p.read_bytes() for p in folder.iterdir()}
    for args in (["list"], ["approve", "--latest", "--yes"], ["clear", "--yes", "--pending"],
                 ["rename", key("laptop").device_id[:8], "x"], ["demo-request"]):
        result = vora("devices", *args, "--json")
        assert result.exit_code == 1, args
        error = result.json()["error"]
        assert error["code"] == "parse_error" and f"{folder / name}:1:10" in error["message"]
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.suffix == ".json"} == {
        k: v for k, v in snapshot.items() if k.endswith(".json")}


# -- no token leaks ---------------------------------------------------------------------------------

def test_no_command_prints_a_token_except_rotate(vora, state_dir: Path) -> None:
    vora("devices", "identity", "--create")
    private = json.loads((state_dir / "identity" / "device.json").read_text())["privateKeyPem"]
    private_body = private.splitlines()[1]
    seen_tokens: set[str] = set()
    for mode in ([], ["--json"]):
        laptop = paired("laptop", roles=["operator", "node"], scopes=["operator.read", "node.exec"])
        desk = paired("desk")
        reqs = [request(f"p{i}") for i in range(4)]
        write_store(state_dir, [*reqs, request("laptop", scopes=["operator.read", "node.exec"])], [laptop, desk])
        did = laptop["deviceId"][:8]
        commands = [
            ["list"], ["list", "--pending"], ["list", "--paired"], ["identity"], ["identity", "--create"],
            ["approve", reqs[0]["requestId"], "--yes"], ["approve", "--device", reqs[1]["deviceId"][:8], "--yes"],
            ["approve", "--latest", "--yes"], ["approve", "--device", did],  # a repair: rotates existing tokens
            ["approve", reqs[3]["requestId"], "--dry-run"], ["reject", reqs[3]["requestId"]],
            ["revoke", "--device", did, "--role", "node"], ["rename", did, "box"],
            ["rotate", "--device", did, "--role", "operator", "--dry-run"], ["demo-request"],
            ["remove", desk["deviceId"][:8], "--yes"], ["list"], ["clear", "--yes", "--pending", "--dry-run"],
        ]
        seen_tokens |= all_tokens(state_dir)
        for args in commands:
            result = vora("devices", *args, *mode)
            assert result.exit_code == 0, (args, result.stderr, result.stdout)
            seen_tokens |= all_tokens(state_dir)
            text = result.stdout + result.stderr
            assert not [t for t in seen_tokens if t in text], args + mode
            assert private_body not in text
    audit_text = (state_dir / "logs" / "devices-audit.jsonl").read_text()
    assert len(seen_tokens) > 10 and not [t for t in seen_tokens if t in audit_text]
    rotated = vora("devices", "rotate", "--device", did, "--role", "operator")
    new = read_store(state_dir)[1][laptop["deviceId"]]["tokens"]["operator"]["token"]
    assert rotated.stdout == new + "\n" and not [t for t in seen_tokens if t in rotated.stdout + rotated.stderr]
    assert new not in (state_dir / "logs" / "devices-audit.jsonl").read_text()
    assert new not in vora("devices", "list", "--json").stdout + vora("devices", "list").stdout


# -- real processes at once -------------------------------------------------------------------------

@pytest.mark.slow
def test_concurrent_processes_approving_and_rejecting_lose_nothing(state_dir: Path) -> None:
    reqs = [request(f"c{i}", ts=NOW - 1000) for i in range(10)]
    laptop = paired("laptop")
    write_store(state_dir, reqs, [laptop])
    env = {**os.environ, "PYTHONPATH": str(REPO), "VORA_NOW_MS": str(NOW), "VORA_STATE_DIR": str(state_dir)}
    procs = []
    for i, req in enumerate(reqs):
        action = "approve" if i % 2 == 0 else "reject"
        procs.append(subprocess.Popen([sys.executable, "-m", "vora_cli", "devices", action, req["requestId"], "--json",
                                       *(["--yes"] if action == "approve" else [])],
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    results = [(p.wait(timeout=60), p.stdout.read(), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    assert all(code == 0 for code, _, _ in results), results
    pending, devices = read_store(state_dir)
    assert pending == {}
    assert set(devices) == {laptop["deviceId"], *(r["deviceId"] for r in reqs[::2])}
    assert devices[laptop["deviceId"]] == laptop
    lines = (state_dir / "logs" / "devices-audit.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["action"] for line in lines) == ["approve"] * 5 + ["reject"] * 5


def test_the_help_stays_light(vora_process) -> None:
    result = vora_process("devices", "--help")
    assert result.returncode == 0 and "approve" in result.stdout and "demo-request" not in result.stdout




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
