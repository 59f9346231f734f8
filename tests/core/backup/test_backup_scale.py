"""Verify, plan and roll back do work linear in what an archive holds (issue 34's review, items 6,
7 and 19): thousands of assets, a folder of thousands of files, a link target of thousands of
components, a manifest of many records. Work is counted (entries read from a folder, characters
of paths looked up, bytes allocated per byte of manifest) at n and 4n, or held under a generous
CPU guard; speed itself is bench/backup_bench.py's. The CLI side is in tests/cli/test_backup_*.py."""

from __future__ import annotations

import io
import json
import os
import tarfile
import tracemalloc
from pathlib import Path

import pytest
from hang_guard import cpu_hang_guard

ROOT = "2026-01-01T00-00-00.000Z-openclaw-backup"


def _many_assets(path: Path, count: int, base: Path) -> Path:
    """A gateway-layout archive of `count` workspace assets, each one folder."""
    sources = [base / f"a{i}" for i in range(count)]
    manifest = {"schemaVersion": 1, "createdAt": "2026-01-01T00:00:00.000Z", "archiveRoot": ROOT,
                "assets": [{"kind": "workspace", "sourcePath": str(s), "archivePath": f"{ROOT}/payload/posix{s}"}
                           for s in sources]}
    data = json.dumps(manifest).encode()
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo(f"{ROOT}/manifest.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        for source in sources:
            folder = tarfile.TarInfo(f"{ROOT}/payload/posix{source}")
            folder.type, folder.mode = tarfile.DIRTYPE, 0o700
            tar.addfile(folder)
    return path


def test_verify_and_the_restore_plan_are_linear_in_the_number_of_assets(tmp_path: Path) -> None:
    """Every entry was compared with every asset (owner lookup, the `missing` check, shared
    targets, the restore plan): 4,000 assets took 30 s, 40,000 would take an hour."""
    from vora_cli.core.backup.restore_plan import choose_targets, plan_actions
    from vora_cli.core.backup.verify import verify_archive

    archive = _many_assets(tmp_path / "many.tar.gz", 6000, tmp_path / "many")
    with cpu_hang_guard("verify and plan of 6,000 assets"):
        report = verify_archive(archive)
        assert report.ok, report.problems[:3]
        targets, skipped, dropped = choose_targets(report, None)
        planned, _left = plan_actions(report, targets, dropped)
    assert len(planned) == 6000 and {p.action.action for p in planned} == {"create"} and not skipped


def test_a_roll_back_reads_each_folder_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 7: the roll back scanned a restore's folder once per file it would write: a folder of
    8,000 transcripts took 22 s, tens of thousands tens of minutes. Entries read, at n and 4n."""
    from vora_cli.core.backup import landing

    read = [0]
    real = os.scandir

    class Counting:
        def __init__(self, path: str) -> None:
            self._it = real(path)

        def __enter__(self) -> Counting:
            return self

        def __exit__(self, *exc: object) -> None:
            self._it.close()

        def __iter__(self) -> Counting:
            return self

        def __next__(self) -> os.DirEntry[str]:
            read[0] += 1
            return next(self._it)

    def work(n: int) -> int:
        folder = tmp_path / f"sessions{n}"
        folder.mkdir()
        for i in range(n):
            (folder / f"s{i}.jsonl").write_text("{}\n")
        ops = [{"path": str(folder / f"t{i}.jsonl"), "type": "file", "action": "create", "temp": None}
               for i in range(n)]
        journal = landing.Journal(tmp_path / f"{n}.json", {"version": 1, "id": f"{n:x}", "owner": "vora-1-1",
                                                           "phase": "staging", "dirs": [], "ops": ops})
        read[0] = 0
        with monkeypatch.context() as patch:
            patch.setattr(os, "scandir", Counting)
            landing.roll_back(journal, journal.ops())
        return read[0]

    small, big = work(500), work(2000)
    assert big <= 5 * small, (small, big)  # linear: four times the files, about four times the reads


def test_judging_a_link_does_bounded_work_whatever_its_target_length(tmp_path: Path) -> None:
    """Item 19: each component of a link's target rebuilt the whole path so far (20,000
    components: 3.8 s; many such links, many times that). A target longer than Linux stores is
    refused at once; the characters of every path looked up stay under a bound for any length."""
    from vora_cli.core.backup.containment import Namespace, judge_link

    class Counting(Namespace):
        looked = 0

        def link_text(self, path: str) -> str | None:
            Counting.looked += len(path)
            return super().link_text(path)

    for components in (500, 2000, 20000):
        Counting.looked = 0
        namespace = Counting({"/r/l": "x/" * components + "f"}, ["/r"])
        with cpu_hang_guard(f"judging a link of {components} components"):
            judged = judge_link(namespace, "/r/l", "/r", ["/r"])
        assert Counting.looked <= 4096 * 2048, (components, Counting.looked)
        assert (judged is None) == (components * 2 + 1 <= 4095), (components, judged)


def _manifest_text(records: int) -> bytes:
    body = ",".join(json.dumps({"path": f"{ROOT}/payload/posix/s/{i:08x}", "type": "dir", "mode": "0700"})
                    for i in range(records))
    return (f'{{"schemaVersion": 1, "createdAt": "x", "archiveRoot": "{ROOT}", "assets": [], "files": [{body}]}}'
            ).encode()


def test_a_manifest_takes_a_few_times_its_size_in_memory_and_no_more_records_than_entries(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 6: a manifest of small records took ~37 times its size (a dict per record, then a
    record object): a 200 MiB one made verify peak at 7.5 GB. Records are made as they are read,
    and a manifest listing more files than an archive may hold stops there."""
    from vora_cli.core.backup import manifest

    text = _manifest_text(40_000)
    tracemalloc.start()
    try:
        parsed = manifest.parse_manifest(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert parsed.files is not None and len(parsed.files) == 40_000
    assert peak <= 8 * len(text), peak / len(text)
    monkeypatch.setattr(manifest, "MAX_ENTRIES", 1000)
    with pytest.raises(ValueError, match="lists more than 1,000 files"):
        manifest.parse_manifest(_manifest_text(5000))


def test_the_folders_a_restore_makes_are_found_once_each_whatever_the_depth(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many files under one deep missing folder: each file walked up to the disk again (files times
    depth). The disk is asked about each missing folder, and each path's parent, at most once;
    every missing folder named once, parents first, and none that exists."""
    from types import SimpleNamespace
    from typing import Any

    from vora_cli.core.backup import staging
    from vora_cli.core.backup.restore_plan import RestoreAction

    (tmp_path / "have").mkdir()
    asked = [0]
    real = os.path.lexists

    def lexists(path: Any) -> bool:
        asked[0] += 1
        return real(path)

    def plan(files: int) -> list[Any]:
        deep = tmp_path / "have" / f"n{files}" / "/".join(f"d{i}" for i in range(40))
        actions = [RestoreAction(str(deep / f"{i % 7}" / f"f{i}"), "file", "create", "", "e") for i in range(files)]
        actions.append(RestoreAction(str(deep / "0"), "dir", "create", "", "e"))  # a folder found as a parent too
        actions.append(RestoreAction(str(tmp_path / "have"), "dir", "same", "", "e"))
        return [SimpleNamespace(action=a) for a in actions]

    def work(files: int) -> tuple[int, list[Path]]:
        planned = plan(files)
        asked[0] = 0
        with monkeypatch.context() as patch:
            patch.setattr(os.path, "lexists", lexists)
            made = staging.missing_dirs(planned)
        return asked[0], made

    asked_for, made = work(2000)
    assert asked_for <= 2000 + len(made) + 2, asked_for
    top = tmp_path / "have" / "n2000"
    assert made[0] == top and len(made) == len(set(made)) == 1 + 40 + 7
    assert all(folder.parent in made[:i] for i, folder in enumerate(made) if i), "a folder before its parent"
    assert not any(folder.exists() for folder in made)
