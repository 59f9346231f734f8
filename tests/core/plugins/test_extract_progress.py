"""extract_archive reports files and bytes as it writes them (issue 15 section 4, progress)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from plugins_support import make_plugin, tar_of, zip_of

from vora_cli.core.plugins.archive import ExtractProgress, extract_archive


@pytest.mark.parametrize("kind", ["tgz", "zip"])
def test_extract_reports_files_and_bytes(tmp_path: Path, kind: str) -> None:
    folder = make_plugin(tmp_path / "src")
    (folder / "dist" / "big.bin").write_bytes(os.urandom(3 * 1024 * 1024))  # several chunks in one file
    for i in range(20):
        (folder / "dist" / f"m{i}.js").write_text("x" * i)
    files = [p for p in folder.rglob("*") if p.is_file()]
    total = sum(p.stat().st_size for p in files)
    archive = tar_of(folder, tmp_path / "p.tgz") if kind == "tgz" else zip_of(folder, tmp_path / "p.zip")
    seen: list[ExtractProgress] = []
    dest = tmp_path / "out"
    dest.mkdir()
    extract_archive(archive, dest, seen.append)
    assert seen[-1] == ExtractProgress(archive.name, len(files), len(files), total, total)
    assert seen[-1].finished and not any(p.finished for p in seen[:-1])
    pairs = [(p.files_done, p.bytes_done) for p in seen]
    assert pairs == sorted(pairs)  # never goes back
    assert len({p.bytes_done for p in seen}) > len(files)  # moves within a large file too


def test_extract_without_a_listener_is_unchanged(tmp_path: Path) -> None:
    folder = make_plugin(tmp_path / "src")
    dest = tmp_path / "out"
    dest.mkdir()
    entries = extract_archive(tar_of(folder, tmp_path / "p.tar"), dest)
    assert (dest / "package" / "vora.plugin.json").is_file() and entries
