"""The writer removes the temp files of writers that died, and only those (issue 22, point 10).

Every temp file is named `.<name>.vora-<pid>-<start>.<random>.tmp` and flock-ed by its writer until
the rename. A later write in the same folder removes the ones whose writer is provably gone: its
pid runs no more (or runs another process) and the flock is free. Real writers are killed with
SIGKILL mid-write here.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from vora_cli.core import temp_files, writer

REPO = Path(__file__).resolve().parents[3]

# A real writer: stages a file, writes half of it, says so, and waits to be killed.
STAGER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from vora_cli.core.writer import StagedFile
    staged = StagedFile(Path(sys.argv[1]))
    staged.write(b"half of it")
    print(staged.temp, flush=True)
    time.sleep(120)
""")


@pytest.fixture(autouse=True)
def forget_cleaned(monkeypatch: pytest.MonkeyPatch) -> None:
    # Cleaning runs once per folder per process; each test here plays a new process.
    monkeypatch.setattr(temp_files, "_CLEANED", set())


def start_writer(target: Path) -> tuple[subprocess.Popen[str], Path]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-c", STAGER, str(target)], env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    temp = Path(proc.stdout.readline().strip())
    assert temp.exists() and temp.parent == target.parent
    return proc, temp


def killed_writer(target: Path) -> Path:
    proc, temp = start_writer(target)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    return temp


def test_a_write_removes_the_temp_files_of_killed_writers(tmp_path: Path) -> None:
    folders = [tmp_path / name for name in ("config", "devices")]
    for folder in folders:
        folder.mkdir()
    temps = [killed_writer(folders[0] / "vora.json"), killed_writer(folders[1] / "paired.json")]
    assert all(t.exists() for t in temps)
    writer.write_file(folders[0] / "other.json", b"{}", expected=None, lock_timeout=10)
    writer.replace_atomically(folders[1] / "pending.json", b"{}")
    assert [t for t in temps if t.exists()] == []
    assert sorted(p.name for p in folders[0].iterdir()) == ["other.json", "other.json.lock"]


def test_the_next_writer_in_the_folder_removes_a_killed_ones_temp(tmp_path: Path) -> None:
    first = killed_writer(tmp_path / "archive.tar")
    assert first.exists()
    proc, second = start_writer(tmp_path / "archive.tar")  # another process: a new `backup create`
    try:
        assert not first.exists() and second.exists()
    finally:
        proc.kill()
        proc.wait(timeout=60)


def test_a_live_writer_keeps_its_temp_file(tmp_path: Path) -> None:
    proc, temp = start_writer(tmp_path / "big.tar")
    try:
        writer.write_file(tmp_path / "other.json", b"{}", expected=None, lock_timeout=10)
        assert temp.exists()
    finally:
        proc.kill()
        proc.wait(timeout=60)


def test_a_dead_pid_whose_file_is_still_locked_is_not_proof(tmp_path: Path) -> None:
    # A writer in another pid namespace sharing the folder: its pid means nothing here, its flock does.
    temp = killed_writer(tmp_path / "a.json")
    fd = os.open(temp, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert temp_files.clean_dead_temps(tmp_path) == []
        assert temp.exists()
    finally:
        os.close(fd)


def test_what_is_not_a_dead_vora_writers_temp_file_is_left_alone(tmp_path: Path) -> None:
    dead = killed_writer(tmp_path / "x.json")
    mine = os.getpid()
    kept = [
        tmp_path / ".notes.txt.abc123.tmp",  # another program's (or an older vora's) temp file
        tmp_path / "notes.tmp",
        tmp_path / f".a.json.vora-{mine}-0.abcd.tmp",  # a live writer: this process
    ]
    for path in kept:
        path.write_bytes(b"keep")
    link = tmp_path / dead.name.replace("x.json", "y.json")  # a dead writer's name, but a symlink
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"outside")
    link.symlink_to(outside)
    folder = tmp_path / dead.name.replace("x.json", "z.json")  # ... a folder
    folder.mkdir()
    removed = temp_files.clean_dead_temps(tmp_path)
    assert removed == [dead]
    assert all(p.exists() for p in kept) and link.is_symlink() and outside.read_bytes() == b"outside"
    assert folder.is_dir()


def test_a_reused_pid_is_not_the_writer(tmp_path: Path) -> None:
    # The pid runs, but started at another time than the writer recorded: the writer is gone.
    from vora_cli.core.processes import process_start

    start = process_start(os.getpid())
    if start is None:
        pytest.skip("no /proc: the start time cannot be checked")
    temp = tmp_path / f".a.json.vora-{os.getpid()}-{start + 1}.abcd.tmp"
    temp.write_bytes(b"old")
    assert temp_files.clean_dead_temps(tmp_path) == [temp]


def test_the_writers_own_temp_files_are_named_and_locked(tmp_path: Path) -> None:
    staged = writer.StagedFile(tmp_path / "f.bin")
    try:
        assert f".vora-{os.getpid()}-" in staged.temp.name and staged.temp.name.startswith(".f.bin.")
        fd = os.open(staged.temp, os.O_RDONLY)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
        monkey_cleaned = temp_files.clean_dead_temps(tmp_path)
        assert monkey_cleaned == [] and staged.temp.exists()
    finally:
        staged.discard()


def test_a_temp_file_is_new_0600_and_a_clashing_name_is_drawn_again(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer opens its temp files as `tempfile.mkstemp` would (without importing it): created
    exclusively, mode 0600, never through a link; a name that is taken is drawn again."""
    draws = iter([b"\x00" * 5, b"\x00" * 5, b"\x01" * 5])
    monkeypatch.setattr(temp_files.os, "urandom", lambda n: next(draws))
    target = tmp_path / "store.json"
    fd, first = temp_files.temp_file(target)
    os.close(fd)
    fd, second = temp_files.temp_file(target)
    os.close(fd)
    assert first != second and first.endswith(".0000000000.tmp") and second.endswith(".0101010101.tmp")
    assert os.stat(first).st_mode & 0o777 == 0o600 and Path(first).parent == tmp_path
    os.unlink(first)
    os.symlink(tmp_path / "elsewhere", first)  # a link where the next name points: not followed
    monkeypatch.setattr(temp_files.os, "urandom", lambda n: b"\x00" * 5)
    with pytest.raises(writer.VoraError) as raised:  # every name taken: no endless loop
        temp_files.temp_file(target)
    assert raised.value.code == "io_error" and not (tmp_path / "elsewhere").exists()
