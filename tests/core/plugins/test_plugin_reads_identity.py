"""The run's plugin-read memo (`core/plugins/reads.py`) and the gateway's boundary open
(`gateway_files.read_manifest`): a file rewritten with its old size and mtime put back is read
again, never taken for the one read before; a file swapped in between the gateway's checks and its
open is refused as the checked one would be (upstream checks the opened file's identity too)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vora_cli.core.plugins.gateway_files import read_manifest
from vora_cli.core.plugins.reads import PluginReads


def test_a_rewrite_that_puts_the_old_mtime_back_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "openclaw.plugin.json"
    path.write_text('{"id":"aa","configSchema":{}}')
    reads = PluginReads()
    first = read_manifest(str(path), str(tmp_path), reads=reads)
    before = os.stat(path)
    with open(path, "r+") as handle:  # in place: the same inode, the same size
        handle.write('{"id":"bb","configSchema":{}}')
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # as cp -p, rsync -t, touch -r do
    again = read_manifest(str(path), str(tmp_path), reads=reads)
    assert "aa" in repr(first) and "bb" in repr(again), (first, again)


def test_a_file_swapped_in_between_the_check_and_the_open_is_refused(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "openclaw.plugin.json"
    path.write_text('{"id":"aa","configSchema":{}}')
    other = tmp_path / "other.json"
    other.write_text('{"id":"hl","configSchema":{}}')
    real_open = os.open

    def swapping_open(name: object, flags: int, *rest: object) -> int:
        if os.fspath(name) == str(path):  # after the lstat: a hard-linked file takes the name
            monkeypatch.setattr(os, "open", real_open)
            os.replace(other, path)
            os.link(path, tmp_path / "kept")
        return real_open(name, flags, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", swapping_open)
    found = read_manifest(str(path), str(tmp_path), reads=PluginReads())
    assert "unsafe plugin manifest path" in repr(found) and "hl" not in repr(found), found
