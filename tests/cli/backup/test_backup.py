"""`vora backup create`, `verify` and `list` (issue 21): what goes in, what is left out and
why, hashes and modes that round-trip, the archive's name, place and mode.

Memory stays flat (issue 21): create, verify and restore stream; a transcript twelve times
bigger does not raise the peak RSS of `vora backup` (a real process) by more than a few MiB.
The figures on 1 GB are in bench/backup_bench.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest
from backup_support import build_install, free_port, gateway_verify, members
from conftest import REPO, Run


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


@pytest.fixture
def install(tmp_path: Path) -> tuple[Path, Path]:
    return build_install(tmp_path / "install")


def create(vora: Callable[..., Run], state: Path, *args: str) -> dict:
    run = vora("--state-dir", str(state), "backup", "create", *args, "--json")
    assert run.exit_code == 0, run.stdout
    return run.json()


def manifest_of(archive: Path) -> dict:
    return json.loads(next(d for m, d in members(archive) if m.name.endswith("/manifest.json")) or b"")


def tree(root: Path) -> dict[str, tuple[str, int, str]]:
    """Every path below `root`: (type, mode, sha256 or link target)."""
    found = {}
    for path in [root, *root.rglob("*")]:
        info = os.lstat(path)
        rel = str(path.relative_to(root))
        if stat.S_ISLNK(info.st_mode):
            found[rel] = ("symlink", 0, os.readlink(path))
        elif stat.S_ISDIR(info.st_mode):
            found[rel] = ("dir", stat.S_IMODE(info.st_mode), "")
        else:
            found[rel] = ("file", stat.S_IMODE(info.st_mode), hashlib.sha256(path.read_bytes()).hexdigest())
    return found


def test_the_archive_is_0600_named_and_laid_out_like_the_gateways(vora: Callable[..., Run], install: tuple[Path, Path],
                                                                  home: Path) -> None:
    state, workspace = install
    result = create(vora, state)
    archive = Path(result["archivePath"])
    assert archive.parent == home / ".local" / "share" / "vora" / "backups"  # vora's data dir (platformdirs)
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    root = result["archiveRoot"]
    assert archive.name == root + ".tar.gz" and root.endswith("-vora-backup")
    assert root == result["createdAt"].replace(":", "-") + "-vora-backup"
    manifest = manifest_of(archive)
    assert list(manifest)[:10] == ["schemaVersion", "createdAt", "archiveRoot", "createdBy", "platform", "options",
                                   "paths", "hadConfig", "assets", "skipped"]
    assert manifest["hadConfig"] is True
    assert manifest["schemaVersion"] == 1
    assert [(a["kind"], a["sourcePath"], a["archivePath"]) for a in manifest["assets"]] == [
        ("state", str(state), f"{root}/payload/posix{state}"),
        ("workspace", str(workspace), f"{root}/payload/posix{workspace}")]
    assert manifest["paths"] == {"stateDir": str(state), "configPath": str(state / "vora.json"),
                                 "oauthDir": str(state / "credentials"), "workspaceDirs": [str(workspace)]}
    names = [m.name.rstrip("/") for m, _d in members(archive)]
    assert names[-1] == f"{root}/manifest.json" and all(n.startswith(root + "/") for n in names)


def test_every_file_is_hashed_with_its_size_and_mode(vora: Callable[..., Run], install: tuple[Path, Path]) -> None:
    state, workspace = install
    archive = Path(create(vora, state)["archivePath"])
    records = {r["path"]: r for r in manifest_of(archive)["files"]}
    root = manifest_of(archive)["archiveRoot"]
    for path in (state / "vora.json", state / "agents/main/sessions/sessions.json", workspace / "run.sh"):
        record = records[f"{root}/payload/posix{path}"]
        data = path.read_bytes()
        assert (record["type"], record["size"], record["sha256"], record["mode"]) == \
            ("file", len(data), hashlib.sha256(data).hexdigest(), f"{stat.S_IMODE(path.stat().st_mode):04o}")
    assert records[f"{root}/payload/posix{state}/credentials"]["mode"] == "0700"
    assert records[f"{root}/payload/posix{state}/agents/main/sessions/current"] == \
        {"path": f"{root}/payload/posix{state}/agents/main/sessions/current", "type": "symlink", "target": "s-one.jsonl"}


def test_hashes_and_modes_round_trip_through_restore(vora: Callable[..., Run], install: tuple[Path, Path],
                                                     tmp_path: Path) -> None:
    state, _workspace = install
    archive = create(vora, state)["archivePath"]
    before = tree(state)
    run = vora("backup", "restore", archive, "--to", str(tmp_path / "copy"), "--json")
    assert run.exit_code == 0, run.stdout
    after = tree(tmp_path / "copy")
    left_out = {"logs", "logs/devices-audit.jsonl", "agents/main/sessions/s-one.jsonl.lock"}
    # the bytes come back; the modes are the install's rule for new paths: files 0600, folders 0700
    private = {k: (t, 0 if t == "symlink" else 0o700 if t == "dir" else 0o600, h) for k, (t, _m, h) in before.items()}
    assert after == {k: v for k, v in private.items() if k not in left_out}


def test_what_is_left_out_is_listed_with_its_reason_in_the_dry_run_too(vora: Callable[..., Run],
                                                                       install: tuple[Path, Path]) -> None:
    state, _workspace = install
    (state / "agents/main/sessions/outside").symlink_to("/etc/hostname")
    (state / ".vora.json.1234.tmp").write_text("half")
    os.mkfifo(state / "pipe")
    dry = create(vora, state, "--dry-run")
    real = create(vora, state, "--output", str(state.parent / "out") + "/")
    for result in (dry, real):
        reasons = {(s["sourcePath"], s["reason"]) for s in result["skipped"]}
        assert reasons == {
            (str(state / "logs"), "not-asked"),
            (str(state / "agents/main/sessions/s-one.jsonl.lock"), "lock-file"),
            (str(state / "agents/main/sessions/outside"), "symlink-out"),
            (str(state / ".vora.json.1234.tmp"), "temp-file"),
            (str(state / "pipe"), "special-file"),
        }
    assert (dry["files"], dry["payloadBytes"]) == (real["files"], real["payloadBytes"])
    assert dry["archiveBytes"] is None and not Path(dry["archivePath"]).exists()
    assert manifest_of(Path(real["archivePath"]))["skipped"] == real["skipped"]
    human = vora("--state-dir", str(state), "backup", "create", "--dry-run")
    # a short table: what, why, how to include it; no reason codes
    assert re.search(rf"^{re.escape(str(state / 'logs'))} +the state dir's logs +add --include-logs$", human.stdout, re.M)
    assert "not-asked" not in human.stdout and "lock-file" not in human.stdout
    assert "Dry run: no archive was written" in human.stdout


def test_include_logs_and_only_config(vora: Callable[..., Run], install: tuple[Path, Path]) -> None:
    state, _workspace = install
    with_logs = create(vora, state, "--include-logs", "--dry-run")
    assert str(state / "logs") not in {s["sourcePath"] for s in with_logs["skipped"]}
    only = create(vora, state, "--only-config")
    names = [m.name for m, _d in members(Path(only["archivePath"])) if m.isfile()]
    assert sorted(n.rsplit("/", 1)[-1] for n in names) == ["gateway.json5", "manifest.json", "vora.json"]
    assert [a["kind"] for a in only["assets"]] == ["config", "config"]


def test_a_torn_last_line_is_left_out_and_a_whole_one_kept(vora: Callable[..., Run], install: tuple[Path, Path]) -> None:
    state, _workspace = install
    sessions = state / "agents/main/sessions"
    whole = (sessions / "s-one.jsonl").read_bytes()
    (sessions / "s-one.jsonl").write_bytes(whole + b'{"type":"message","id":"ff')
    (sessions / "s-two.jsonl").write_bytes((sessions / "s-two.jsonl").read_bytes() + b'{"type":"custom","id":"ab"}')
    result = create(vora, state)
    archive = Path(result["archivePath"])
    data = {m.name.rsplit("/", 1)[-1]: d for m, d in members(archive) if m.isfile()}
    assert data["s-one.jsonl"] == whole
    assert data["s-two.jsonl"] == (sessions / "s-two.jsonl").read_bytes()
    torn = [c for c in result["changedDuringBackup"] if c["path"].endswith("/s-one.jsonl")]
    assert torn == [{"path": torn[0]["path"], "changed": None, "leftOut": 26}]
    assert manifest_of(archive)["changedDuringBackup"] == [{"path": torn[0]["path"], "changed": None, "leftOut": 26}]


def test_output_rules(vora: Callable[..., Run], install: tuple[Path, Path], tmp_path: Path) -> None:
    state, _workspace = install
    inside = vora("--state-dir", str(state), "backup", "create", "--output", str(state / "b.tar.gz"), "--json")
    assert inside.exit_code == 1 and inside.json()["error"]["code"] == "refused"
    assert not (state / "b.tar.gz").exists()
    named = tmp_path / "mine.tar.gz"
    assert create(vora, state, "--output", str(named))["archivePath"] == str(named)
    again = vora("--state-dir", str(state), "backup", "create", "--output", str(named), "--json")
    assert again.exit_code == 1 and again.json()["error"]["code"] == "exists"
    assert not list(tmp_path.glob(".mine.tar.gz.*"))  # no temp file left behind


def test_nothing_to_back_up(vora: Callable[..., Run], tmp_path: Path) -> None:
    run = vora("--state-dir", str(tmp_path / "none"), "backup", "create", "--no-workspace", "--json")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "not_found"


def test_a_config_that_does_not_parse_needs_no_workspace(vora: Callable[..., Run], install: tuple[Path, Path]) -> None:
    state, _workspace = install
    (state / "vora.json").write_text("{ broken")
    run = vora("--state-dir", str(state), "backup", "create", "--json")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "parse_error"
    assert "--no-workspace" in run.json()["error"]["hint"]
    assert create(vora, state, "--no-workspace")["files"] > 0


def test_the_human_summary_names_the_archive_once(vora: Callable[..., Run], install: tuple[Path, Path]) -> None:
    state, _workspace = install
    run = vora("--state-dir", str(state), "backup", "create")
    assert run.exit_code == 0
    (archive,) = re.findall(r"^Created (\S+) \(", run.stdout, re.M)
    assert (run.stdout + run.stderr).count(archive) == 1
    assert tarfile.is_tarfile(archive) and "mode 0600" in run.stdout


def test_list_reads_manifests_only_and_every_archive_whatever_its_name(vora: Callable[..., Run],
                                                                     install: tuple[Path, Path], tmp_path: Path) -> None:
    from backup_support import repack

    state, _workspace = install
    out = tmp_path / "out"
    first = create(vora, state, "--output", str(out) + "/")
    named = create(vora, state, "--output", str(out / "mine.tar.gz"))
    (out / "notes.txt").write_text("not an archive")
    (out / "fake.tar.gz").write_bytes(b"\x1f\x8b garbage")
    # a changed byte in a file: only hashing finds it, and list without --verify does not hash
    damaged = repack(Path(first["archivePath"]), tmp_path / "d.tar.gz",
                     lambda items: [(m, d.replace(b"brief", b"brieF") if d and m.name.endswith("AGENTS.md") else d)
                                    for m, d in items])
    damaged.replace(out / "renamed-backup")
    listed = vora("backup", "list", str(out), "--json").json()
    names = {a["name"]: a for a in listed["archives"]}
    assert set(names) == {Path(first["archivePath"]).name, "mine.tar.gz", "renamed-backup"}
    assert {a["ok"] for a in listed["archives"]} == {None} and listed["verified"] is False
    assert names["mine.tar.gz"]["fileCount"] == named["files"] and names["mine.tar.gz"]["assets"] == ["state", "workspace"]
    verified = {a["name"]: a for a in vora("backup", "list", str(out), "--verify", "--json").json()["archives"]}
    assert (verified["mine.tar.gz"]["ok"], verified["renamed-backup"]["ok"]) == (True, False)
    human = vora("backup", "list", str(out), "--verify")
    assert "ok" in human.stdout and "FAILED" in human.stdout and human.exit_code == 0
    empty = vora("backup", "list", "--json").json()
    assert empty["archives"] == [] and empty["exists"] is False


def test_verify_human_output(vora: Callable[..., Run], install: tuple[Path, Path]) -> None:
    state, _workspace = install
    archive = create(vora, state)["archivePath"]
    run = vora("backup", "verify", archive)
    assert run.exit_code == 0
    assert run.stdout.splitlines()[0] == f"Backup archive OK: {archive}"
    assert "every file's sha256, size and mode checked" in run.stdout
    assert gateway_verify(Path(archive)) == (0, "")


def test_verify_of_a_missing_archive(vora: Callable[..., Run], tmp_path: Path) -> None:
    run = vora("backup", "verify", str(tmp_path / "nope.tar.gz"), "--json")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "not_found"


PEAK = ("import resource, subprocess, sys\n"
        "done = subprocess.run([sys.executable, '-m', 'vora_cli', *sys.argv[1:]], stdout=subprocess.DEVNULL)\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")


def _peak_kib(*args: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(REPO), "VORA_GATEWAY_PORT": str(free_port())}
    done = subprocess.run([sys.executable, "-c", PEAK, *args], env=env, capture_output=True, text=True, timeout=600,
                          check=True)
    code, peak = done.stdout.split()
    assert code == "0", done.stderr
    return int(peak)


def _runs(root: Path, megabytes: int) -> list[int]:
    state, _workspace = build_install(root)
    line = b'{"type":"custom","id":"00000000","data":"' + os.urandom(300).hex().encode() + b'"}\n'
    with open(state / "agents/main/sessions/s-one.jsonl", "ab") as out:
        for _ in range(megabytes * 1024 * 1024 // len(line)):
            out.write(line)
    archive = root / "b.tar.gz"
    return [_peak_kib("--state-dir", str(state), "backup", "create", "--output", str(archive)),
            _peak_kib("backup", "verify", str(archive)),
            _peak_kib("backup", "restore", str(archive), "--to", str(root / "restored"))]


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss is KiB on Linux only")
def test_peak_memory_does_not_grow_with_the_transcript(tmp_path: Path) -> None:
    small = _runs(tmp_path / "small", 8)
    big = _runs(tmp_path / "big", 48)
    for step, (a, b) in zip(("create", "verify", "restore"), zip(small, big, strict=True), strict=True):
        assert b - a < 8 * 1024, (step, a, b)  # 40 MiB more data, under 8 MiB more memory
