"""vora's archives and the gateway's, each read by the other (issue 21): the gateway's verify
rules (an oracle pinned to its recorded answers, openclaw 2026.4.12) accept every archive vora
writes, and vora verifies and restores the gateway's own archive."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from backup_support import (
    GATEWAY_ARCHIVE,
    UPSTREAM,
    VORA_ARCHIVE,
    archive_root,
    build_install,
    free_port,
    gateway_verify,
    members,
    repack,
    tamperings,
)
from conftest import Run

RECORDED = json.loads((UPSTREAM / "gateway-verify-tampered.json").read_text())


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_the_oracle_answers_as_the_real_gateway_did(tmp_path: Path, case: str) -> None:
    root = archive_root(GATEWAY_ARCHIVE)
    change = tamperings(root, f"{root}/payload/posix/tmp/h5/fixture/state")[case]
    tampered = repack(GATEWAY_ARCHIVE, tmp_path / f"{case}.tar.gz", change)
    assert gateway_verify(tampered) == (RECORDED[case]["exitCode"], RECORDED[case]["stderr"])


def test_the_oracle_accepts_the_recorded_archives() -> None:
    assert gateway_verify(GATEWAY_ARCHIVE) == (0, "")
    assert gateway_verify(VORA_ARCHIVE) == (0, "")
    answer = json.loads((UPSTREAM / "gateway-verify-vora-archive.json").read_text())
    assert answer["exitCode"] == 0 and answer["stdout"]["ok"] is True


def test_vora_verifies_the_gateway_archive_by_structure_only(vora: Callable[..., Run]) -> None:
    run = vora("backup", "verify", str(GATEWAY_ARCHIVE), "--json")
    assert run.exit_code == 0, run.stdout
    report = run.json()
    recorded = json.loads((UPSTREAM / "gateway-verify.json").read_text())
    assert {k: report[k] for k in ("ok", "archiveRoot", "createdAt", "assetCount", "entryCount")} == \
        {k: recorded[k] for k in ("ok", "archiveRoot", "createdAt", "assetCount", "entryCount")}
    assert (report["format"], report["hashes"], report["note"]) == \
        ("gateway", False, "structure only: this archive carries no hashes")
    human = vora("backup", "verify", str(GATEWAY_ARCHIVE))
    assert "structure only: this archive carries no hashes" in human.stdout


def test_vora_verifies_the_recorded_vora_archive_by_every_hash(vora: Callable[..., Run]) -> None:
    report = vora("backup", "verify", str(VORA_ARCHIVE), "--json").json()
    assert (report["ok"], report["format"], report["hashes"], report["problems"]) == (True, "vora", True, [])
    assert report["fileCount"] == 11


def test_the_gateway_archive_restores_byte_for_byte_with_modes(vora: Callable[..., Run], tmp_path: Path) -> None:
    target = tmp_path / "restored"
    run = vora("backup", "restore", str(GATEWAY_ARCHIVE), "--to", str(target), "--json")
    assert run.exit_code == 0, run.stdout
    report = run.json()
    assert report["format"] == "gateway"
    assert [s["kind"] for s in report["skipped"]] == ["workspace"]  # --to: the state dir only
    root = archive_root(GATEWAY_ARCHIVE)
    state = f"{root}/payload/posix/tmp/h5/fixture/state"
    expected = {m.name.rstrip("/")[len(state):].lstrip("/"): (m, d) for m, d in members(GATEWAY_ARCHIVE)
                if m.name.rstrip("/").startswith(state)}
    found = {str(p.relative_to(target)) if p != target else "": p for p in [target, *target.rglob("*")]}
    assert sorted(found) == sorted(expected)
    for rel, (member, data) in expected.items():
        path = found[rel]
        if member.issym():
            assert os.readlink(path) == member.linkname
        elif member.isdir():  # new folders are 0700 and new files 0600, whatever the archive says
            assert path.is_dir() and stat.S_IMODE(path.stat().st_mode) == 0o700
        else:
            assert path.read_bytes() == data and stat.S_IMODE(path.stat().st_mode) == 0o600, rel


@pytest.mark.parametrize("flags", [(), ("--only-config",), ("--no-workspace",), ("--include-logs",),
                                   ("--include-links",)])
def test_every_archive_vora_writes_passes_the_gateway_rules(vora: Callable[..., Run], tmp_path: Path,
                                                           flags: tuple[str, ...]) -> None:
    state, _workspace = build_install(tmp_path)
    linked = tmp_path / "my-plugin"
    linked.mkdir()
    (linked / "index.js").write_text("export default {}\n")
    (state / "vora.json").write_text((state / "vora.json").read_text().replace(
        "agents:", f'plugins: {{ load: {{ paths: ["{linked}"] }} }},\n  agents:'))
    run = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path / "out") + "/", *flags, "--json")
    assert run.exit_code == 0, run.stdout
    archive = Path(run.json()["archivePath"])
    assert gateway_verify(archive) == (0, "")
    kinds = [a["kind"] for a in run.json()["assets"]]
    assert ("plugin-link" in kinds) == ("--include-links" in flags)
    assert vora("backup", "verify", str(archive), "--json").json()["ok"] is True


def test_a_pre_restore_backup_passes_the_gateway_rules_too(vora: Callable[..., Run], tmp_path: Path) -> None:
    state, workspace = build_install(tmp_path)
    archive = Path(vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path) + "/", "--json")
                   .json()["archivePath"])
    (workspace / "SOUL.md").write_text("changed\n")
    run = vora("--state-dir", str(state), "backup", "restore", str(archive), "--force", "--json")
    assert run.exit_code == 0, run.stdout
    assert gateway_verify(Path(run.json()["preRestoreBackup"])) == (0, "")


def test_the_gateway_accepts_a_manifest_in_a_gzip_member_of_its_own(vora: Callable[..., Run]) -> None:
    """vora's archives end with the manifest in its own gzip member (backup list reads it from the
    tail): the real gateway's verify accepted one (recorded), and so do the oracle and vora."""
    recorded = json.loads((UPSTREAM / "gateway-verify-vora-two-member.json").read_text())
    archive = UPSTREAM / recorded["archive"]
    assert archive.read_bytes().count(b"\x1f\x8b\x08\x08") >= 1  # the manifest's member names itself
    assert (recorded["exitCode"], recorded["stdout"]["ok"]) == (0, True)
    assert gateway_verify(archive) == (0, "")
    assert vora("backup", "verify", str(archive), "--json").json()["ok"] is True
