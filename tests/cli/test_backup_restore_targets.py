"""Where a restore writes, and who else may write there meanwhile (issue 34's review, items 8-10,
12, 13, 25, 26): two restores into one target, a target under a symlinked folder, a config-only
archive into `--to`, the pre-restore backup as an undo, assets no rule of the install names, lock
files, a workspace the config reaches through a link. Real archives, real folders and links;
`test_backup_restore.py` holds the everyday restore."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest
from backup_support import asset_member, build_install, entry, free_port, gateway_archive, tree_snapshot
from conftest import REPO, Run

ROOT = "2026-01-01T00-00-00.000Z-openclaw-backup"


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


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
