"""The vora.operator collection converging a fleet: the play in docs/ansible.md, built and installed
with ansible-galaxy, run by ansible-playbook on three local hosts (each its own HOME and state dir).

Check mode first (what would change, nothing written: every file's bytes and mode), then a real run
(the same tasks change), then a second run (nothing changes but the backup). The config keeps every
comment after every task; the gateway token is never printed. The modules' own unit tests are in
the collection (ansible/ansible_collections/vora/operator/tests/unit, run by ansible-test units).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from devices_support import all_tokens
from playbook_support import Fleet, Run, comments, make_fleet, snapshot

pytestmark = pytest.mark.slow

# the play's tasks that change a fresh host (docs/ansible.md); the gate and the assert never change one
CHANGING = {
    "Listen on the host's port",
    "Room for every bootstrap file",
    "The gateway token",
    "Token auth",
    "The context engine, selected",
    "Approve the ops laptop",
    "Back up, the last three kept",
}
BACKUP = "Back up, the last three kept"


@pytest.fixture
def fleet(tmp_path: Path) -> Fleet:
    pytest.importorskip("ansible", reason="the playbook test needs ansible-core: pip install -e '.[test]'")
    return make_fleet(tmp_path)


def assert_clean(run: Run, fleet: Fleet, originals: dict[str, list[str]], skipped: set[str]) -> None:
    """Every host ran every task (but `skipped`) without failing; the config held its comments after
    each task; no token shows."""
    assert run.returncode == 0, run.output
    for host in fleet.hosts:
        mine = [r for r in run.records if r["host"] == host.name]
        assert len(mine) == 9
        assert {r["task"] for r in mine if r["status"] != "ok"} == skipped
        for r in mine:
            assert all(c in r["config"] for c in originals[host.name]), f"{host.name}: {r['task']} lost a comment"
        assert host.token not in run.output
        assert all(host.token not in json.dumps(r["result"]) for r in run.records)


def test_the_fleet_play_converges_with_check_mode_diff_and_no_second_change(fleet: Fleet) -> None:
    originals = {h.name: comments(h.config.read_text()) for h in fleet.hosts}
    assert all(len(c) >= 4 for c in originals.values())

    # --check --diff: what would change, and nothing changes
    before = {h.name: snapshot(h.root) for h in fleet.hosts}
    check = fleet.run("check", "--check", "--diff")
    assert_clean(check, fleet, originals, {"The engine is selected"})
    for host in fleet.hosts:
        assert snapshot(host.root) == before[host.name], f"{host.name}: a check run changed a file"
        assert check.changed(host.name) == CHANGING
        port = check.result(host.name, "Listen on the host's port")["result"]
        assert (port["old"], port["new"]) == (18789, host.port)
        assert f"-    port: 18789,\n+    port: {host.port}," in port["diff"][0]["prepared"]
        assert check.result(host.name, "The gateway token")["result"].get("censored")
        plugin = check.result(host.name, "The context engine, selected")["result"]
        assert plugin["actions"] == ["link" if host.engine == "link" else "install", "use contextEngine"]
        assert "installs: {" in plugin["diff"][0]["prepared"]
        device = check.result(host.name, "Approve the ops laptop")["result"]
        assert device["request"]["deviceId"] == host.device_id
        assert device["diff"]["before"].startswith("pending: ")
        assert check.result(host.name, BACKUP)["result"]["archive_bytes"] is None
    assert "+    port: 18801," in check.output  # the diff Ansible prints is vora's

    # the real run: the same tasks change, and the hosts hold what the play says
    first = fleet.run("first", "--diff", "-v")  # -v: every result printed, for the secrets' sake
    assert_clean(first, fleet, originals, set())
    for host in fleet.hosts:
        assert first.changed(host.name) == CHANGING
        assert host.vora("config", "get", "gateway.port")["value"] == host.port
        assert host.vora("config", "get", "agents.defaults.bootstrapMaxChars")["value"] == 30000
        assert host.vora("config", "get", "gateway.auth.token", "--reveal")["value"] == host.token
        assert host.vora("config", "get", "plugins.slots.contextEngine")["value"] == "my-engine"
        record = host.vora("plugins", "inspect", "my-engine")["install"]
        assert record["sourcePath"] == str(host.engine_source.resolve())
        assert record["source"] == {"link": "path", "folder": "path", "archive": "archive"}[host.engine]
        assert (record["installPath"] == record["sourcePath"]) == (host.engine == "link")
        listing = host.vora("devices", "list")
        assert listing["pending"] == [] and host.device_id in [d["deviceId"] for d in listing["paired"]]
        [archive] = host.backups.glob("*-vora-backup.tar.gz")
        assert host.vora("backup", "verify", str(archive))["ok"] is True
        assert first.result(host.name, "Gate on doctor")["result"]["vora"]["doctor"]["summary"]["error"] == 0

    # the second run: nothing to do but the backup
    second = fleet.run("second", "--diff")
    assert_clean(second, fleet, originals, set())
    for host in fleet.hosts:
        assert second.changed(host.name) == {BACKUP}
        assert len(list(host.backups.glob("*-vora-backup.tar.gz"))) == 2

    # the device tokens approve minted are in the store and nowhere else
    assert all(len(all_tokens(host.state_dir)) == 2 for host in fleet.hosts)  # the example's device and the approved one
    minted = {token for host in fleet.hosts for token in all_tokens(host.state_dir)}
    for run in (first, second):
        assert not any(token in run.output or token in run.record_file.read_text() for token in minted)
