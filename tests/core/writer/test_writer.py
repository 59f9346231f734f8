"""The one writer: atomic, locked, permission-keeping, symlink-preserving (spec README)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from vora_cli.core.digests import SMALL_DIGEST
from vora_cli.core.errors import VoraError
from vora_cli.core.writer import (
    POSIX_ONLY,
    append_line,
    file_lock,
    sha256_hex,
    update_file,
    write_file,
)

REPO = Path(__file__).resolve().parents[3]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_file_is_0600_in_new_0700_dirs(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "f.json"
    result = write_file(target, b"{}", expected=None, lock_timeout=10)
    assert target.read_bytes() == b"{}"
    assert mode(target) == 0o600
    assert mode(tmp_path / "a") == 0o700 and mode(tmp_path / "a" / "b") == 0o700
    assert result.changed and result.before_sha256 is None and result.after_size == 2


def test_existing_mode_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"old")
    target.chmod(0o640)
    write_file(target, b"new", expected=b"old", lock_timeout=10)
    assert (target.read_bytes(), mode(target)) == (b"new", 0o640)


def test_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real" / "vora.json"
    real.parent.mkdir()
    real.write_bytes(b"old")
    link = tmp_path / "vora.json"
    link.symlink_to(real)
    write_file(link, b"new", expected=b"old", lock_timeout=10)
    assert link.is_symlink()
    assert real.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "real", "tmp", "vora.json"]


def test_changed_on_disk_is_a_conflict_and_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"theirs")
    with pytest.raises(VoraError) as info:
        write_file(target, b"mine", expected=b"what I read", lock_timeout=10)
    assert info.value.code == "conflict" and info.value.exit_code == 3
    assert target.read_bytes() == b"theirs"


def test_transform_failure_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"keep")

    def broken(old: bytes | None) -> bytes:
        raise VoraError("parse_error", "does not parse")

    with pytest.raises(VoraError):
        update_file(target, broken, lock_timeout=10)
    assert target.read_bytes() == b"keep"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == ["f", "home", "tmp"]


def test_no_change_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"same")
    before = target.stat().st_mtime_ns
    result = update_file(target, lambda old: old, lock_timeout=10)
    assert not result.changed and target.stat().st_mtime_ns == before


def test_lock_held_elsewhere_times_out_as_conflict(tmp_path: Path) -> None:
    target = tmp_path / "f"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys,time; from pathlib import Path; from vora_cli.core.writer import file_lock\n"
         f"with file_lock(Path({str(target)!r}), 10):\n    print('held', flush=True); time.sleep(5)"],
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(VoraError) as info, file_lock(target, timeout=0.2):
            pass
        assert info.value.code == "conflict"
        assert not target.exists()
    finally:
        holder.kill()
        holder.wait()


WORKER = """
import json, sys
from pathlib import Path
from vora_cli.core.writer import update_file
target, key = Path(sys.argv[1]), sys.argv[2]
def add(old):
    data = json.loads(old) if old else {}
    data[key] = True
    return json.dumps(data, sort_keys=True).encode()
for _ in range(5):
    update_file(target, add, lock_timeout=10)
"""


@pytest.mark.slow
def test_concurrent_processes_never_lose_a_change(tmp_path: Path) -> None:
    target = tmp_path / "shared.json"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, str(target), f"k{i}"], env=env) for i in range(12)
    ]
    assert [p.wait(timeout=60) for p in procs] == [0] * 12
    assert json.loads(target.read_text()) == {f"k{i}": True for i in range(12)}


CRASHER = """
import os, sys
from pathlib import Path
from vora_cli.core import writer
os.replace = lambda *a, **k: os._exit(9)   # the process dies between the temp write and the rename
writer.write_file(Path(sys.argv[1]), b"NEW" * 100000, expected=b"OLD", lock_timeout=10)
"""


def test_crash_before_rename_leaves_the_old_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"OLD")
    result = subprocess.run(
        [sys.executable, "-c", CRASHER, str(target)], env={**os.environ, "PYTHONPATH": str(REPO)}, check=False
    )
    assert result.returncode == 9
    assert target.read_bytes() == b"OLD"
    # the fully written temp file is all that is left over; the target is never partial
    leftovers = [p for p in tmp_path.iterdir() if p.name.startswith(".f.")]
    assert len(leftovers) == 1 and leftovers[0].read_bytes() == b"NEW" * 100000


def test_append_line_creates_0600_log(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "audit.jsonl"
    append_line(log, '{"a": 1}')
    append_line(log, '{"a": 2}')
    assert log.read_text() == '{"a": 1}\n{"a": 2}\n'
    assert mode(log) == 0o600 and mode(log.parent) == 0o700


def test_writes_without_fcntl_fail_with_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fcntl", None)  # `import fcntl` raises ImportError, as on Windows
    root = tmp_path / "w"
    root.mkdir()
    for target in (root / "new.json", root / "sub" / "other.toml"):
        with pytest.raises(VoraError) as caught:
            write_file(target, b"{}", expected=None, lock_timeout=10)
        assert caught.value.code == "refused" and caught.value.message == POSIX_ONLY
        assert "WSL" in (caught.value.hint or "")
        assert not target.exists()
    assert list(root.iterdir()) == []  # not even a lock file


@pytest.mark.parametrize("size", [0, 1, 55, 64, 4096, SMALL_DIGEST - 1, SMALL_DIGEST, SMALL_DIGEST + 1,
                                  3 * SMALL_DIGEST])
def test_a_digest_is_sha256_whichever_implementation_makes_it(size: int) -> None:
    import hashlib

    data = bytes((i * 131 + size) % 256 for i in range(size))
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()
    assert sha256_hex(None) is None
