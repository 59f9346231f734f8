"""`vora backup restore` (issue 21): refuses over a changed install and changes nothing,
--force replaces after a pre-restore backup, a running gateway (port or lock) is refused,
staged writes leave nothing behind when the archive changes under the restore."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from backup_support import (
    asset_member,
    build_install,
    entry,
    free_port,
    gateway_archive,
    repack,
    tree_snapshot,
)
from conftest import REPO, Run


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> int:
    port = free_port()
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(port))
    return port


@pytest.fixture
def backed_up(vora: Callable[..., Run], tmp_path: Path) -> tuple[Path, Path, Path]:
    state, workspace = build_install(tmp_path / "install")
    run = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path) + "/", "--json")
    return Path(run.json()["archivePath"]), state, workspace


def snapshot(*roots: Path) -> dict[str, tuple[int, int, int, str]]:
    """Every path below the roots: mode, size, mtime and content hash (or link target)."""
    found = {}
    for root in roots:
        for path in [root, *root.rglob("*")]:
            info = os.lstat(path)
            if stat.S_ISREG(info.st_mode):
                what = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                what = os.readlink(path) if stat.S_ISLNK(info.st_mode) else "dir"
            found[str(path)] = (info.st_mode, info.st_size, info.st_mtime_ns, what)
    return found


def restore(vora: Callable[..., Run], state: Path, archive: Path, *args: str) -> Run:
    return vora("--state-dir", str(state), "backup", "restore", str(archive), *args, "--json")


def test_restore_over_a_changed_install_refuses_and_changes_nothing(vora: Callable[..., Run],
                                                                    backed_up: tuple[Path, Path, Path]) -> None:
    archive, state, workspace = backed_up
    (workspace / "SOUL.md").write_text("rewritten by a repair\n")
    (state / "credentials" / "oauth.json").chmod(0o644)
    (workspace / "AGENTS.md").unlink()
    before = snapshot(state, workspace)
    run = restore(vora, state, archive)
    assert run.exit_code == 1
    error = run.json()["error"]
    assert error["code"] == "exists"
    # oauth.json's bytes are the archive's: its mode on disk is kept, so it is not a difference
    assert error["message"] == f"1 file differs from the archive: {workspace / 'SOUL.md'}"
    assert "--force" in error["hint"]
    assert snapshot(state, workspace) == before  # not even the missing AGENTS.md came back


def test_the_dry_run_lists_every_file_it_would_create_replace_or_leave(vora: Callable[..., Run],
                                                                       backed_up: tuple[Path, Path, Path]) -> None:
    archive, state, workspace = backed_up
    (workspace / "SOUL.md").write_text("rewritten\n")
    (workspace / "AGENTS.md").unlink()
    before = snapshot(state, workspace)
    run = restore(vora, state, archive, "--dry-run")
    assert run.exit_code == 0, run.stdout
    report = run.json()
    actions = {f["path"]: f["action"] for f in report["files"]}
    assert actions[str(workspace / "SOUL.md")] == "replace"
    assert actions[str(workspace / "AGENTS.md")] == "create"
    assert actions[str(state / "vora.json")] == "same"
    assert report["counts"] == {"create": 1, "replace": 1, "same": len(actions) - 2}
    assert snapshot(state, workspace) == before
    human = vora("--state-dir", str(state), "backup", "restore", str(archive), "--dry-run")
    assert re.search(rf"^{re.escape(str(workspace / 'SOUL.md'))} +replace +file", human.stdout, re.M)  # the path first
    assert "would create 1, replace 1, leave" in human.stdout


def test_force_replaces_after_a_pre_restore_backup(vora: Callable[..., Run], backed_up: tuple[Path, Path, Path],
                                                   home: Path) -> None:
    archive, state, workspace = backed_up
    original = (workspace / "SOUL.md").read_bytes()
    (workspace / "SOUL.md").write_text("rewritten\n")
    run = restore(vora, state, archive, "--force")
    assert run.exit_code == 0, run.stdout
    report = run.json()
    assert (workspace / "SOUL.md").read_bytes() == original
    assert report["counts"]["replace"] == 1
    pre = Path(report["preRestoreBackup"])
    assert pre.parent == home / ".local/share/vora/backups" and pre.name.endswith("-vora-pre-restore-backup.tar.gz")
    checked = vora("backup", "verify", str(pre), "--json").json()
    assert (checked["ok"], checked["fileCount"]) == (True, 1)
    # the pre-restore backup puts back what the restore replaced
    back = restore(vora, state, pre, "--force")
    assert back.exit_code == 0, back.stdout
    assert (workspace / "SOUL.md").read_text() == "rewritten\n"


def test_a_deleted_install_comes_back_whole(vora: Callable[..., Run], backed_up: tuple[Path, Path, Path]) -> None:
    archive, state, workspace = backed_up
    before = {k: v for k, v in snapshot(state, workspace).items()
              if "/logs" not in k and not k.endswith(".lock")}
    shutil.rmtree(state)
    shutil.rmtree(workspace)
    run = restore(vora, state, archive)
    assert run.exit_code == 0, run.stdout
    # the workspace is named by the config, which was gone: the first run brings the config back,
    # the second restores what the config now names (docs/backup.md, "Where a restore writes")
    assert [(s["kind"], s["reason"]) for s in run.json()["skipped"]] == [("workspace", "not-named")]
    assert not workspace.exists()
    again = restore(vora, state, archive)
    assert again.exit_code == 0 and again.json()["skipped"] == [] and again.json()["counts"]["create"] > 0
    after = {k: v for k, v in snapshot(state, workspace).items() if not k.endswith(".lock")}  # the writers' locks
    # bytes and file times come back (folder times are the restore's); every new file is private
    # to its owner whatever the archive says (an executable stays one), every new folder 0700
    assert {k: (v[1], v[3]) for k, v in after.items()} == {k: (v[1], v[3]) for k, v in before.items()}
    for path, (mode, _size, _mtime, what) in after.items():
        if what == "dir":
            assert stat.S_IMODE(mode) == 0o700, path
        elif not stat.S_ISLNK(mode):
            assert stat.S_IMODE(mode) == (0o700 if path.endswith("run.sh") else 0o600), path
    files = [k for k, v in before.items() if stat.S_ISREG(v[0])]
    assert all(after[k][2] // 10**9 == before[k][2] // 10**9 for k in files)
    assert not [p for p in state.rglob("*.tmp")]


def test_to_restores_the_state_dir_into_a_new_dir(vora: Callable[..., Run], backed_up: tuple[Path, Path, Path],
                                                  tmp_path: Path) -> None:
    archive, state, _workspace = backed_up
    run = restore(vora, state, archive, "--to", str(tmp_path / "inspect"))
    assert run.exit_code == 0, run.stdout
    assert [(s["kind"], s["reason"]) for s in run.json()["skipped"]] == [("workspace", "not-asked")]
    assert (tmp_path / "inspect/agents/main/sessions/sessions.json").read_bytes() == \
        (state / "agents/main/sessions/sessions.json").read_bytes()
    assert stat.S_IMODE((tmp_path / "inspect/credentials").stat().st_mode) == 0o700


@pytest.fixture
def listening(no_gateway: int) -> Iterator[int]:
    with socket.socket() as server:
        server.bind(("127.0.0.1", no_gateway))
        server.listen()
        yield no_gateway


def test_a_gateway_on_the_port_is_refused_unless_forced(vora: Callable[..., Run], backed_up: tuple[Path, Path, Path],
                                                        listening: int) -> None:
    archive, state, workspace = backed_up
    (workspace / "AGENTS.md").unlink()
    run = restore(vora, state, archive)
    assert run.exit_code == 1
    assert run.json()["error"]["code"] == "refused"
    assert f"127.0.0.1:{listening}" in run.json()["error"]["message"]
    assert not (workspace / "AGENTS.md").exists()
    forced = vora("--state-dir", str(state), "backup", "restore", str(archive), "--force")
    assert forced.exit_code == 0
    assert "warning: the gateway is running" in forced.stderr
    assert (workspace / "AGENTS.md").exists()


def test_a_live_gateway_lock_is_refused(vora: Callable[..., Run], backed_up: tuple[Path, Path, Path]) -> None:
    archive, state, workspace = backed_up
    (workspace / "AGENTS.md").unlink()
    folder = Path(tempfile.gettempdir()) / f"vora-{os.getuid()}"
    folder.mkdir()
    digest = hashlib.sha256(str(state / "vora.json").encode()).hexdigest()[:8]
    lock = folder / f"gateway.{digest}.lock"
    lock.write_text(json.dumps({"pid": os.getpid(), "createdAt": "2026-01-01T00:00:00.000Z",
                                "configPath": str(state / "vora.json")}))
    run = restore(vora, state, archive)
    assert run.exit_code == 1 and f"pid {os.getpid()} holds {lock}" in run.json()["error"]["message"]
    lock.write_text(json.dumps({"pid": 2**22 + 12345, "createdAt": "2026-01-01T00:00:00.000Z"}))  # no such process
    assert restore(vora, state, archive).exit_code == 0


def test_a_folder_where_a_file_belongs_blocks_even_with_force(vora: Callable[..., Run],
                                                              backed_up: tuple[Path, Path, Path]) -> None:
    archive, state, workspace = backed_up
    (workspace / "SOUL.md").unlink()
    (workspace / "SOUL.md").mkdir()
    before = snapshot(state, workspace)
    run = restore(vora, state, archive, "--force")
    assert run.exit_code == 1 and run.json()["error"]["code"] == "refused"
    assert str(workspace / "SOUL.md") in run.json()["error"]["message"]
    assert snapshot(state, workspace) == before


def test_an_archive_changed_under_the_restore_leaves_nothing_behind(vora: Callable[..., Run],
                                                                    backed_up: tuple[Path, Path, Path],
                                                                    monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    archive, state, workspace = backed_up
    shutil.rmtree(workspace)
    (state / "devices" / "paired.json").unlink()
    before = snapshot(state)
    from vora_cli.core.backup import restore as restore_module

    real = restore_module.verify_archive

    def verify_then_swap(path: Path, keys=None):  # type: ignore[no-untyped-def]
        report = real(path, keys)  # the first pass saw the good archive; now someone rewrites it
        def change(items):  # type: ignore[no-untyped-def]
            return [(m, d.replace(b"Write", b"Wrong") if d and m.name.endswith("SKILL.md") else d) for m, d in items]
        swapped = repack(path, tmp_path / "swapped.tar.gz", change)
        os.replace(swapped, path)
        return report

    monkeypatch.setattr(restore_module, "verify_archive", verify_then_swap)
    run = restore(vora, state, archive)
    assert run.exit_code == 3 and run.json()["error"]["code"] == "conflict"
    # every file as it was and no temp file left (a folder's mtime shows a temp file came and went)
    def files(snap: dict[str, tuple[int, int, int, str]]) -> dict[str, tuple[int, int, int, str]]:
        return {k: v if v[3] != "dir" else (v[0], 0, 0, "dir") for k, v in snap.items()}

    assert files(snapshot(state)) == files(before) and not workspace.exists()


@pytest.mark.parametrize("damage", ["truncated", "garbled"])
def test_an_archive_damaged_under_the_restore_is_named_and_nothing_lands(vora: Callable[..., Run],
                                                                         backed_up: tuple[Path, Path, Path],
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         damage: str) -> None:
    """Issue 34's review, item 15: a flaky disk or another writer broke the archive between the
    verify and the staging pass; the restore ended with "aborted" (gzip's EOFError reached click)
    or `internal` (zlib, tar errors), naming no member."""
    archive, state, workspace = backed_up
    shutil.rmtree(workspace)
    before = snapshot(state)
    from vora_cli.core.backup import restore as restore_module

    real = restore_module.verify_archive

    def verify_then_damage(path: Path, keys=None):  # type: ignore[no-untyped-def]
        report = real(path, keys)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2] if damage == "truncated" else data[:200] + b"\0garbage" * 50)
        return report

    monkeypatch.setattr(restore_module, "verify_archive", verify_then_damage)
    run = vora("--state-dir", str(state), "backup", "restore", str(archive))
    assert run.exit_code == 3, run.stderr
    line, hint = run.stderr.splitlines()
    assert line.startswith(f"error: {archive}") and "changed or broke since it was verified" in line, line
    assert line.endswith("nothing was restored") and hint.startswith("hint: ")
    assert {k: v for k, v in snapshot(state).items() if v[3] != "dir"} == \
        {k: v for k, v in before.items() if v[3] != "dir"} and not workspace.exists()


def _changed(before: dict[str, tuple[int, int, str]], after: dict[str, tuple[int, int, str]]) -> set[str]:
    return {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


def test_a_symlinked_config_and_credentials_are_backed_up_and_restored_through_their_links(
        vora: Callable[..., Run], tmp_path: Path, home: Path) -> None:
    """The install reads its config and credentials through links: both are in the archive (by
    their real paths, as assets of their own), come back to the links' targets, the links kept;
    nothing outside the chosen targets is written (the whole tree is walked)."""
    from backup_support import tree_snapshot

    state, _workspace = build_install(tmp_path / "install")
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (state / "vora.json").rename(dotfiles / "vora.json")
    (state / "vora.json").symlink_to(dotfiles / "vora.json")
    (state / "credentials").rename(tmp_path / "secret-creds")
    (state / "credentials").symlink_to("../../secret-creds")
    run = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path / "b") + "/", "--json")
    assert run.exit_code == 0, run.stdout
    created = run.json()
    assets = {(a["kind"], a["sourcePath"]) for a in created["assets"]}
    assert {("config", str(dotfiles / "vora.json")), ("credentials", str(tmp_path / "secret-creds"))} <= assets
    assert not [s for s in created["skipped"] if s["reason"] == "symlink-out"]
    archive = Path(created["archivePath"])
    assert vora("backup", "verify", str(archive), "--json").json()["ok"] is True
    (dotfiles / "vora.json").unlink()
    shutil.rmtree(tmp_path / "secret-creds")
    before = tree_snapshot(tmp_path)
    restored = vora("--state-dir", str(state), "backup", "restore", str(archive), "--json")
    assert restored.exit_code == 0, restored.stdout
    assert os.readlink(state / "vora.json") == str(dotfiles / "vora.json")  # the link kept
    assert (dotfiles / "vora.json").read_text().startswith("// my install")
    assert (tmp_path / "secret-creds" / "oauth.json").exists() and os.readlink(state / "credentials") == "../../secret-creds"
    changed = _changed(before, tree_snapshot(tmp_path))
    # besides the targets: only vora's own data dir (its restore journals) and the writers' lock files
    ours = {k for k in changed if k.startswith("home/") or k.endswith(".lock") or k == "dotfiles"}
    assert changed - ours == {"dotfiles/vora.json", "secret-creds", "secret-creds/oauth.json"}, changed
    # --to DIR: the linked config lands in place of its link, so the copy never points into the install
    copy = vora("backup", "restore", str(archive), "--to", str(tmp_path / "copy"), "--json")
    assert copy.exit_code == 0, copy.stdout
    assert not (tmp_path / "copy" / "vora.json").is_symlink()
    assert (tmp_path / "copy" / "vora.json").read_bytes() == (dotfiles / "vora.json").read_bytes()
    assert (tmp_path / "copy" / "credentials" / "oauth.json").exists()


def test_a_link_that_a_link_on_disk_would_lead_out_is_refused(vora: Callable[..., Run], tmp_path: Path) -> None:
    """`notes -> x/d/../notes.json` stays inside on paper; with `x/d -> ..` already on disk the
    kernel resolves it beside the install: the restore refuses it, writing nothing."""
    from backup_support import entry, tree_snapshot

    state, _workspace = build_install(tmp_path / "install")
    (state / "x").mkdir()
    run = vora("--state-dir", str(state), "backup", "create", "--no-workspace", "--output", str(tmp_path / "a.tar.gz"),
               "--json")
    assert run.exit_code == 0
    root = run.json()["archiveRoot"]
    base = f"{root}/payload/posix{state}"
    manifest_name = f"{root}/manifest.json"

    def add_link(items):  # type: ignore[no-untyped-def]
        import json as _json

        out = []
        for m, d in items:
            if m.name == manifest_name:
                doc = _json.loads(d)
                doc["files"].append({"path": f"{base}/notes", "type": "symlink", "target": "x/d/../notes.json"})
                d = (_json.dumps(doc) + "\n").encode()
                out.append(entry(f"{base}/notes", kind=tarfile.SYMTYPE, link="x/d/../notes.json"))
            out.append((m, d))
        return out

    import tarfile

    linked = repack(tmp_path / "a.tar.gz", tmp_path / "linked.tar.gz", add_link)
    assert vora("backup", "verify", str(linked), "--json").json()["ok"] is True  # inside, as the archive alone says
    (state / "x" / "d").symlink_to("..")
    before = tree_snapshot(tmp_path)
    refused = vora("--state-dir", str(state), "backup", "restore", str(linked))
    assert refused.exit_code == 1
    assert f"{base}/notes: link-out" in refused.stderr and str(tmp_path / "install" / "notes.json") in refused.stderr
    assert tree_snapshot(tmp_path) == before


# Where a restore writes, and who else may write there meanwhile (issue 34's review, items 8-10,
# 12, 13, 25, 26): two restores into one target, a target under a symlinked folder, a config-only
# archive into `--to`, the pre-restore backup as an undo, assets no rule of the install names, lock
# files, a workspace the config reaches through a link. Real archives, real folders and links;
# `test_backup_restore.py` holds the everyday restore.

ROOT = "2026-01-01T00-00-00.000Z-openclaw-backup"




def create(vora: Callable[..., Run], state: Path, out: Path, *args: str) -> Path:
    run = vora("--state-dir", str(state), "backup", "create", "--output", str(out), *args, "--json")
    assert run.exit_code == 0, run.stdout
    return Path(run.json()["archivePath"])


@pytest.mark.slow
def test_two_restores_into_one_target_never_leave_a_mixed_tree(vora: Callable[..., Run], tmp_path: Path) -> None:
    """Item 8: the loser of two concurrent restores rolled back and removed a folder the winner had
    just restored, in 7 runs of 8. Now the second waits for the first, then finds it all there."""
    state = tmp_path / "state"
    (state / "empty").mkdir(parents=True)
    (state / "vora.json").write_text("{}\n")
    for n in range(1500):
        folder = state / "agents" / f"a{n % 15}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"s{n}.jsonl").write_text(f'{{"id":"s{n}"}}\n')
    for path in [state, *state.rglob("*")]:  # the install's own modes, which a restore gives new files
        path.chmod(0o700 if path.is_dir() else 0o600)
    archive = create(vora, state, tmp_path / "a.tar.gz")
    whole = tree_snapshot(state)
    shutil.rmtree(state / "agents")
    (state / "empty").rmdir()
    env = {**os.environ, "PYTHONPATH": str(REPO), "VORA_LOCK_TIMEOUT": "300"}
    restore = [sys.executable, "-m", "vora_cli", "--state-dir", str(state), "backup", "restore", str(archive), "--json"]
    both = [subprocess.Popen(restore, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    outcomes = [(*p.communicate(timeout=600), p.returncode) for p in both]
    assert [code for _out, _err, code in outcomes] == [0, 0], [err for _out, err, _code in outcomes]
    assert tree_snapshot(state) == whole  # the archive's tree, exactly: no folder lost, no lock file left


def test_a_folder_someone_else_made_is_never_removed_by_a_roll_back(vora: Callable[..., Run], tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 8's class: the journal named every folder the plan expected to make, and a roll back
    removed each one that was empty, made by the restore or not. Here another writer makes
    `empty/` just before the restore would, and the restore then meets a conflict and rolls back."""
    from vora_cli.core import writer
    from vora_cli.core.backup import staging

    state = tmp_path / "state"
    (state / "empty").mkdir(parents=True)
    (state / "new").mkdir()
    (state / "new" / "x.json").write_text("{}\n")
    (state / "vora.json").write_text("{}\n")
    archive = create(vora, state, tmp_path / "a.tar.gz")
    (state / "empty").rmdir()
    shutil.rmtree(state / "new")
    real_ensure, real_stage = writer.ensure_dir, staging.stage_all

    def someone_else_first(path: Path) -> list[Path]:
        if path.name == "empty":
            path.mkdir()  # another writer, a moment before
        return real_ensure(path)

    def then_a_conflict(*args: object) -> None:
        real_stage(*args)  # type: ignore[arg-type]
        (state / "vora.json").write_text('{ "gateway": { "port": 1 } }\n')

    monkeypatch.setattr(writer, "ensure_dir", someone_else_first)
    monkeypatch.setattr(staging, "stage_all", then_a_conflict)
    before_lock = sorted(p.name for p in state.iterdir())
    run = vora("--state-dir", str(state), "backup", "restore", str(archive), "--json")
    assert run.exit_code == 3 and run.json()["error"]["code"] == "conflict", run.stdout
    assert (state / "empty").is_dir() and not (state / "new").exists()
    # item 25: the writers' lock files the restore took were not there before: none is left
    assert sorted(p.name for p in state.iterdir()) == sorted({*before_lock, "empty"}) and \
        not list(state.rglob("*.lock"))


def test_a_target_under_a_symlinked_folder_is_judged_by_its_real_place(vora: Callable[..., Run],
                                                                      tmp_path: Path) -> None:
    """Item 9: `--to` under a symlinked folder (macOS's /tmp, a symlinked home), or an install whose
    home moved and was linked back, refused every archive holding an internal link (`link-out`)."""
    home1 = tmp_path / "home1"
    state, workspace = build_install(home1)
    archive = create(vora, state, tmp_path / "a.tar.gz")
    (tmp_path / "real").mkdir()
    (tmp_path / "viasym").symlink_to(tmp_path / "real")
    (tmp_path / "tolink").symlink_to(tmp_path / "real" / "x")
    for to in (tmp_path / "viasym" / "inspect", tmp_path / "tolink"):
        (tmp_path / "real" / "x").mkdir(exist_ok=True)
        run = vora("backup", "restore", str(archive), "--to", str(to))
        assert run.exit_code == 0, (to, run.stdout, run.stderr)
        assert os.readlink(to / "agents/main/sessions/current") == "s-one.jsonl"
    home1.rename(tmp_path / "home2")  # the home moved, and was linked back
    home1.symlink_to(tmp_path / "home2")
    (state / "agents/main/sessions/current").unlink()
    (workspace / "SOUL.md").unlink()
    run = vora("--state-dir", str(state), "backup", "restore", str(archive), "--json")
    assert run.exit_code == 0, run.stdout
    assert run.json()["counts"]["create"] == 2 and (tmp_path / "home2/workspace/SOUL.md").exists()


def test_a_config_only_archive_restores_into_a_folder_with_its_includes(vora: Callable[..., Run],
                                                                       tmp_path: Path) -> None:
    """Item 10: every config file went to DIR/<its name>: two called vora.json made an `internal`
    AssertionError, and an include in a subfolder no longer resolved."""
    state = tmp_path / "state"
    (state / "sub").mkdir(parents=True)
    (state / "vora.json").write_text('{ "$include": "./sub/vora.json", gateway: { mode: "local" } }\n')
    (state / "sub" / "vora.json").write_text('{ gateway: { port: 4242 } }\n')
    archive = create(vora, state, tmp_path / "oc.tar.gz", "--only-config")
    to = tmp_path / "to"
    run = vora("backup", "restore", str(archive), "--to", str(to), "--json")
    assert run.exit_code == 0, run.stdout
    assert (to / "vora.json").read_bytes() == (state / "vora.json").read_bytes()
    assert (to / "sub" / "vora.json").read_bytes() == (state / "sub" / "vora.json").read_bytes()
    got = vora("--state-dir", str(to), "config", "get", "gateway.port", "--json")
    assert got.exit_code == 0 and got.json()["value"] == 4242, got.stdout


def test_the_pre_restore_backup_of_a_link_leading_out_verifies_and_undoes(vora: Callable[..., Run],
                                                                           tmp_path: Path) -> None:
    """Item 12: replacing `vora.json -> ~/dotfiles/vora.json` (with --force) wrote a pre-restore
    backup that failed verify (`link-out`) and could never be restored. Now it holds the link's
    target as an asset of its own; restoring it needs --allow-other-paths (after the restore, no
    rule of the install names ~/dotfiles any more); a link that cannot be kept so is named."""
    state, _workspace = build_install(tmp_path / "install")
    archive = create(vora, state, tmp_path / "a.tar.gz")
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (state / "vora.json").rename(dotfiles / "vora.json")
    (dotfiles / "vora.json").write_text((dotfiles / "vora.json").read_text() + "// mine\n")
    (state / "vora.json").symlink_to(dotfiles / "vora.json")
    (state / "gateway.json5").unlink()
    (state / "gateway.json5").symlink_to("..")  # a link that leads to what holds the install: never an asset
    mine = tree_snapshot(tmp_path / "install")
    run = vora("--state-dir", str(state), "backup", "restore", str(archive), "--force", "--json")
    assert run.exit_code == 0, run.stdout
    undo = Path(run.json()["preRestoreBackup"])
    assert [s["sourcePath"] for s in run.json()["preRestoreLeftOut"]] == [str(state / "gateway.json5")]
    assert vora("backup", "verify", str(undo), "--json").json()["ok"] is True
    refused = vora("--state-dir", str(state), "backup", "restore", str(undo), "--force")
    assert refused.exit_code == 1 and "--allow-other-paths" in refused.stderr
    done = vora("--state-dir", str(state), "backup", "restore", str(undo), "--force", "--allow-other-paths")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert os.readlink(state / "vora.json") == str(dotfiles / "vora.json")
    assert (dotfiles / "vora.json").read_text().endswith("// mine\n")
    (state / "gateway.json5").unlink()
    (state / "gateway.json5").symlink_to("..")  # by hand, as the warning said
    assert tree_snapshot(tmp_path / "install") == mine


def test_an_asset_no_rule_of_the_install_names_is_not_written(vora: Callable[..., Run], tmp_path: Path) -> None:
    """Item 13: an archive may declare an asset of any kind at any absolute path; without --to it
    was written there (`state/ssh -> dotssh` and an asset `dotssh/authorized_keys`, verify OK)."""
    state = tmp_path / "inst" / "state"
    state.mkdir(parents=True)
    dotssh, other = tmp_path / "dotssh", tmp_path / "elsewhere"
    archive = gateway_archive(tmp_path / "hostile.tar.gz",
                              [("state", state), ("whatever", dotssh), ("workspace", other)], [
                                  entry(asset_member(ROOT, state), kind=tarfile.DIRTYPE),
                                  entry(asset_member(ROOT, state, "vora.json"), b"{}\n"),
                                  entry(asset_member(ROOT, state, "ssh"), kind=tarfile.SYMTYPE, link=str(dotssh)),
                                  entry(asset_member(ROOT, dotssh), kind=tarfile.DIRTYPE),
                                  entry(asset_member(ROOT, dotssh, "authorized_keys"), b"ssh-ed25519 AAAA attacker\n"),
                                  entry(asset_member(ROOT, other), kind=tarfile.DIRTYPE),
                                  entry(asset_member(ROOT, other, "AGENTS.md"), b"hi\n")])
    assert vora("backup", "verify", str(archive), "--json").json()["ok"] is True  # integrity, not origin
    before = tree_snapshot(tmp_path)
    run = vora("--state-dir", str(state), "backup", "restore", str(archive))
    assert run.exit_code == 1 and f"{state}/ssh" in run.stderr and "--allow-other-paths" in run.stderr
    assert tree_snapshot(tmp_path) == before
    no_link = gateway_archive(tmp_path / "quiet.tar.gz", [("state", state), ("workspace", other)], [
        entry(asset_member(ROOT, state), kind=tarfile.DIRTYPE), entry(asset_member(ROOT, state, "vora.json"), b"{}\n"),
        entry(asset_member(ROOT, other), kind=tarfile.DIRTYPE), entry(asset_member(ROOT, other, "AGENTS.md"), b"hi\n")])
    run = vora("--state-dir", str(state), "backup", "restore", str(no_link), "--json")
    assert run.exit_code == 0, run.stdout
    assert [(s["sourcePath"], s["reason"]) for s in run.json()["skipped"]] == [(str(other), "not-named")]
    assert (state / "vora.json").exists() and not other.exists()


def test_a_workspace_the_config_reaches_through_a_link_comes_back_with_its_link(vora: Callable[..., Run],
                                                                                tmp_path: Path) -> None:
    """Item 26: the workspace was archived at its real path, the link the config names was not:
    after losing both, a restore brought back a workspace the config could not find."""
    state, workspace = build_install(tmp_path / "install")
    real = tmp_path / "realws"
    workspace.rename(real)
    link = tmp_path / "wslink"
    link.symlink_to(real)
    config = state / "vora.json"
    config.write_text(config.read_text().replace(str(workspace), str(link)))
    archive = create(vora, state, tmp_path / "a.tar.gz")
    assert vora("backup", "verify", str(archive), "--json").json()["ok"] is True
    link.unlink()
    shutil.rmtree(real)
    run = vora("--state-dir", str(state), "backup", "restore", str(archive), "--allow-other-paths", "--json")
    assert run.exit_code == 0, run.stdout
    assert os.readlink(link) == str(real) and (link / "AGENTS.md").read_text() == "# Agents\nBe brief.\n"


def test_a_restore_into_a_target_another_restore_holds_gives_up_with_conflict(
        vora: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vora_cli.core.writer import folder_lock

    state, _workspace = build_install(tmp_path / "install")
    archive = create(vora, state, tmp_path / "a.tar.gz")
    (state / "devices" / "paired.json").unlink()
    before = tree_snapshot(tmp_path / "install")
    monkeypatch.setenv("VORA_LOCK_TIMEOUT", "0")
    with folder_lock(state, 0):  # the first restore, mid-way
        run = vora("--state-dir", str(state), "backup", "restore", str(archive))
    assert run.exit_code == 3, run.stderr
    assert run.stderr.splitlines()[0] == f"error: another vora backup restore into {state} is running; nothing was restored"
    assert tree_snapshot(tmp_path / "install") == before


def test_a_file_system_without_hard_links_is_said_so(vora: Callable[..., Run], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 26: every new file lands by link(), every replaced one is kept by one; FAT, exFAT and
    some shares refuse link() (EPERM), and the restore failed naming neither why nor what to do.
    (No FAT here: its refusal is the one thing simulated.)"""
    import errno

    state, _workspace = build_install(tmp_path / "install")
    archive = create(vora, state, tmp_path / "a.tar.gz")
    copy = tmp_path / "fat"
    real = os.link

    def no_hard_links(src: str, dst: str, **kwargs: object) -> None:
        if str(dst).startswith(str(copy)):
            raise OSError(errno.EPERM, "Operation not permitted", str(dst))
        real(src, dst, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "link", no_hard_links)
    run = vora("backup", "restore", str(archive), "--to", str(copy))
    assert run.exit_code == 1, run.stdout
    line, hint = run.stderr.splitlines()
    assert "Operation not permitted; nothing was restored" in line
    assert "hard links" in hint and "FAT" in hint and "--to DIR" in hint
    assert not [p for p in copy.rglob("*") if not p.is_dir()]


def test_an_archive_of_another_install_is_refused_in_place(vora: Callable[..., Run], tmp_path: Path) -> None:
    """Item 13: restored without --to, an archive of another install (another user's home, another
    state dir) wrote its paths, whoever ran it. None of them is this install's: refused, saying
    where it came from and how to restore it anyway."""
    alice, _workspace = build_install(tmp_path / "alice")
    archive = create(vora, alice, tmp_path / "a.tar.gz")
    shutil.rmtree(tmp_path / "alice")
    bob = tmp_path / "bob" / "state"
    run = vora("--state-dir", str(bob), "backup", "restore", str(archive))
    assert run.exit_code == 1 and f"its state was {alice}" in run.stderr and "--to DIR" in run.stderr, run.stderr
    assert not (tmp_path / "alice").exists() and not bob.exists()
    assert vora("--state-dir", str(bob), "backup", "restore", str(archive), "--to", str(bob)).exit_code == 0
