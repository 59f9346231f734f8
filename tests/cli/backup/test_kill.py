"""`kill -9` of `vora backup restore` while its files land, and a landing that fails after the
first rename: the install ends as it was or as the archive has it, never half of each, and no
temp file, kept old file or journal is left (docs/backup.md, "After a disaster: restore").

The real `vora` runs as a real process (tests/support/kill_points.py, each run forked from one
that imported vora once) on an archive of hundreds of files and is SIGKILLed at file system calls
drawn from its landing steps (the last calls of the run: two per file, the journal, the
clean-up), before or after the call. Then `vora doctor` must report the interrupted restore, and
`vora doctor --fix` (or the next `vora backup restore`) must finish or roll it back. Kill points
come from a seeded generator (the seed is in the id).
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from backup_support import free_port, tree_snapshot
from conftest import Run
from kill_points import Launcher

REPO = Path(__file__).resolve().parents[3]
FILES = 600
SAMPLES = 8  # landing steps killed per test, drawn at random; the first and last are always in


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


def run_killed(launcher: Launcher, tmp_path: Path, args: list[str], kill_at: int, when: str = "before") -> int:
    status, stderr = launcher.run(args, kill_at, when, tmp_path / "calls")
    assert "Traceback" not in stderr, stderr
    return status


def build(state: Path) -> None:
    """A state dir of FILES small files in 20 folders, a config, and a link."""
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text('{ gateway: { mode: "local" } }\n')
    for n in range(FILES):
        folder = state / "agents" / f"a{n % 20}" / "sessions"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"s{n}.jsonl").write_text(f'{{"type":"session","id":"s{n}"}}\n')
    (state / "current").symlink_to("vora.json")
    for path in [state, *state.rglob("*")]:  # the install's own rule: files 0600, folders 0700
        if not path.is_symlink():
            path.chmod(0o700 if path.is_dir() else 0o600)


def damage(state: Path) -> None:
    """What a disaster left: a third of the files gone, some rewritten, a folder gone."""
    for n in range(0, FILES, 3):
        (state / "agents" / f"a{n % 20}" / "sessions" / f"s{n}.jsonl").unlink()
    for n in range(1, FILES, 50):
        rewritten = state / "agents" / f"a{n % 20}" / "sessions" / f"s{n}.jsonl"
        rewritten.write_text("rewritten\n")
        rewritten.chmod(0o600)
    shutil.rmtree(state / "agents" / "a7")


def leftovers(*roots: Path) -> list[str]:
    return sorted(str(p) for root in roots for p in root.rglob("*")
                  if p.name.endswith(".tmp") or ".vora-restore-" in p.name)


def comparable(snapshot: dict[str, tuple[int, int, str]]) -> dict[str, tuple[int, int, str]]:
    """A snapshot without the lock files vora's writers keep (the config's, taken while landing)."""
    return {k: v for k, v in snapshot.items() if not k.endswith(".lock")}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [34])
def test_kill_at_any_landing_step_is_finished_or_rolled_back(vora: Callable[..., Run], tmp_path: Path, home: Path,
                                                             seed: int) -> None:
    rng = random.Random(seed)
    state = tmp_path / "state"
    build(state)
    created = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path / "a.tar.gz"), "--json")
    assert created.exit_code == 0, created.stdout
    archive = tmp_path / "a.tar.gz"
    whole = comparable(tree_snapshot(state))
    damage(state)
    before = comparable(tree_snapshot(state))
    restore = ["--state-dir", str(state), "backup", "restore", str(archive), "--force", "--json"]
    plan = vora(*restore, "--dry-run").json()["counts"]
    landing = 2 * (plan["create"] + plan["replace"]) + 24  # two calls a file, the journal and the clean-up
    journals = home / ".local/share/vora/restores"

    def fresh() -> None:
        shutil.rmtree(state)
        shutil.copytree(tmp_path / "damaged", state, symlinks=True)

    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with Launcher(env) as launcher:
        shutil.copytree(state, tmp_path / "damaged", symlinks=True)
        assert run_killed(launcher, tmp_path, restore, 0) == 0
        calls = int((tmp_path / "calls").read_text())
        assert comparable(tree_snapshot(state)) == whole and not leftovers(state)
        points = sorted({calls - landing, calls - 1, *rng.sample(range(calls - landing, calls), SAMPLES)})
        outcomes = set()
        for n, point in enumerate(points):
            fresh()
            when = rng.choice(["before", "after"])
            assert run_killed(launcher, tmp_path, restore, point, when) == -9, (point, when)
            now = comparable(tree_snapshot(state))
            if now not in (before, whole):
                doctor = vora("--state-dir", str(state), "doctor", "--only", "backup-restore", "--json").json()
                assert doctor["checks"][0]["status"] == "error", (point, when)
            if n % 2:  # the doctor repairs it ...
                fixed = vora("--state-dir", str(state), "doctor", "--fix", "backup-restore", "--yes", "--json")
                assert fixed.exit_code == 0, fixed.stdout
                after = comparable(tree_snapshot(state))
                assert after in (before, whole), (point, when)
                outcomes.add("whole" if after == whole else "before")
            else:  # ... or the next restore does, then restores
                again = vora(*restore)
                assert again.exit_code == 0, again.stdout
                assert comparable(tree_snapshot(state)) == whole, (point, when)
            assert leftovers(state) == [] and not any(journals.glob("*.json")), (point, when)
    assert outcomes  # the doctor repaired at least one


def test_a_landing_failure_after_the_first_rename_puts_everything_back(
        vora: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    state = tmp_path / "state"
    build(state)
    assert vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path / "a.tar.gz")).exit_code == 0
    damage(state)
    before = comparable(tree_snapshot(state))
    real_link, real_replace = os.link, os.replace
    landed: list[str] = []
    failed: list[str] = []

    def failing(kind: Callable[..., None]) -> Callable[..., None]:
        def call(src: str, dst: str, **kwargs: bool) -> None:
            lands = str(dst).startswith(str(state)) and ".vora-restore-" not in str(dst) and \
                not str(dst).endswith(".tmp")
            if lands and not failed:
                if landed:  # the second file to land meets a full disk, once
                    failed.append(str(dst))
                    raise OSError(28, "No space left on device", str(dst))
                landed.append(str(dst))
            kind(src, dst, **kwargs)
        return call

    monkeypatch.setattr(os, "link", failing(real_link))
    monkeypatch.setattr(os, "replace", failing(real_replace))
    run = vora("--state-dir", str(state), "backup", "restore", str(tmp_path / "a.tar.gz"), "--force", "--json")
    monkeypatch.undo()
    assert run.exit_code == 1 and run.json()["error"]["code"] == "io_error", run.stdout
    assert "nothing was restored" in run.json()["error"]["message"]
    assert len(landed) == 1  # one file had landed before the failure
    assert comparable(tree_snapshot(state)) == before
    assert leftovers(state) == [] and not any((home / ".local/share/vora/restores").glob("*.json"))


def test_doctor_reports_no_restore_when_none_was_interrupted(vora: Callable[..., Run], tmp_path: Path) -> None:
    report = vora("--state-dir", str(tmp_path), "doctor", "--only", "backup-restore", "--json").json()
    assert [(c["id"], c["status"]) for c in report["checks"]] == [("backup-restore", "pass")]


def test_a_journal_whose_restore_died_before_landing_is_rolled_back(vora: Callable[..., Run], tmp_path: Path,
                                                                     home: Path) -> None:
    """Killed while staging: temp files the journal could not name yet go too."""
    state = tmp_path / "state"
    state.mkdir()
    target = state / "vora.json"
    stray = state / ".vora.json.vora-999999-1.abcdef0123.tmp"
    stray.write_text("half")
    made = state / "newdir"
    made.mkdir()
    journals = home / ".local/share/vora/restores"
    journals.mkdir(parents=True)
    (journals / "dead.json").write_text(json.dumps({
        "version": 1, "id": "dead", "archive": "/x.tar.gz", "owner": "vora-999999-1", "phase": "staging",
        "dirs": [str(made)], "ops": [{"path": str(target), "type": "file", "action": "create", "temp": None,
                                      "identity": None}]}))
    report = vora("--state-dir", str(state), "doctor", "--only", "backup-restore", "--json").json()
    assert report["checks"][0]["status"] == "error" and report["checks"][0]["fix"]["id"] == "backup-restore"
    fixed = vora("--state-dir", str(state), "doctor", "--fix", "backup-restore", "--yes", "--json")
    assert fixed.exit_code == 0, fixed.stdout
    assert sorted(p.name for p in state.iterdir()) == []
    assert list(journals.iterdir()) == []
