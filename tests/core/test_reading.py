"""`reading.read_bytes`, the one reader of install, home and plugin files: a regular file's bytes,
one end of them when asked; a FIFO, a device or a directory refused without waiting on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hang_guard import blocking_hang_guard, cpu_hang_guard

from vora_cli.core.errors import VoraError
from vora_cli.core.reading import read_bytes


def test_a_regular_file_whole_or_one_end(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"0123456789")
    assert read_bytes(path) == b"0123456789"
    assert read_bytes(path, 4) == b"0123"
    assert read_bytes(path, 4, from_end=True) == b"6789"
    assert read_bytes(path, 99, from_end=True) == read_bytes(path, 99) == b"0123456789"
    assert read_bytes(path, 0) == b""
    assert read_bytes(tmp_path / "missing") is None


@pytest.mark.parametrize("kind", ["fifo", "zero", "dir"])
def test_what_is_no_regular_file_is_refused_unread(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "f"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    with blocking_hang_guard("reading a FIFO, a device or a directory"), \
            cpu_hang_guard("reading a FIFO, a device or a directory"), pytest.raises(VoraError) as caught:
        read_bytes(path, 1024)
    assert caught.value.message == (f"{path} is a directory, not a file" if kind == "dir" else
                                    f"{path} is not a regular file")
