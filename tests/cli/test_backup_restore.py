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
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from backup_support import build_install, free_port, repack
from conftest import Run


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
    assert error["message"] == f"1 file(s) differ from the archive: {workspace / 'SOUL.md'}"
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
