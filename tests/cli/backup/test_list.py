"""`vora backup list` on what a folder of backups may really hold (issue 34's review, items 3-5,
16, 22, 23): hostile gzip files that hang or crash it, bombs inside one member, a file it may not
read, armored age files, links. Whatever a file holds, list does bounded work on it, names what it
cannot read and goes on, and agrees with `security audit` on what an archive is. The well-behaved
cases are in test_backup.py."""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest
from backup_support import build_install, free_port
from conftest import REPO, Run
from hang_guard import cpu_hang_guard

ROOT = "2026-01-01T00-00-00.000Z-vora-backup"


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


def payload_first(name: str = "f", size: int = 1) -> bytes:
    """The first gzip member of an archive whose manifest comes last: a payload entry."""
    info = tarfile.TarInfo(f"{ROOT}/payload/posix/tmp/x/{name}")
    info.size = size
    return gzip.compress(info.tobuf(format=tarfile.PAX_FORMAT) + b"x" * size + b"\0" * (511 - (size - 1) % 512))


def listed(vora: Callable[..., Run], folder: Path, *args: str) -> Run:
    run = vora("backup", "list", str(folder), *args, "--json")
    assert run.exit_code == 0, run.stdout + run.stderr
    return run


def test_many_manifest_names_in_a_tail_cost_a_bounded_search(vora: Callable[..., Run], tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 3: a file ending in megabytes of gzip headers named manifest.json was searched from
    every one of them, each with a copy of the rest (55 s for 1 MiB, days for 64)."""
    from vora_cli.core.backup import listing

    unit = b"\x1f\x8b\x08\x08" + b"\0" * 6 + b"manifest.json\0"
    folder = tmp_path / "out"
    folder.mkdir()
    tried: list[int] = []
    real = listing._inflate_member
    monkeypatch.setattr(listing, "_inflate_member", lambda data, *caps: tried.append(len(data)) or real(data, *caps))
    for megabytes in (1, 4):
        # stored (level 0): a valid gzip member whose bytes are the names, as the file shows them
        tail = gzip.compress(unit * (megabytes * 1024 * 1024 // len(unit)), compresslevel=0)
        (folder / "x.tar.gz").write_bytes(payload_first() + tail)
        tried.clear()
        with cpu_hang_guard(f"backup list of {megabytes} MiB of manifest names"):
            run = listed(vora, folder)
        assert [a["format"] for a in run.json()["archives"]] == ["unknown"]
        assert len(tried) <= listing.TAIL_CANDIDATES  # the same few whatever the size


def test_a_last_member_named_manifest_that_holds_no_tar_is_listed_without_a_summary(
        vora: Callable[..., Run], tmp_path: Path) -> None:
    """Item 4: it made the whole list fail with `internal` (ReadError)."""
    folder = tmp_path / "out"
    folder.mkdir()
    odd = io.BytesIO()
    odd.write(payload_first())
    with gzip.GzipFile(filename="manifest.json", mode="wb", fileobj=odd) as member:
        member.write(b"hello, not a tar")
    (folder / "odd.tar.gz").write_bytes(odd.getvalue())
    run = listed(vora, folder)
    assert [(a["name"], a["format"]) for a in run.json()["archives"]] == [("odd.tar.gz", "unknown")]


def _bomb(path: Path, gib: int) -> None:
    """One payload member declared at `gib` GiB, then gzip members of 1 MiB of zeros each (item 5:
    list checked the limits between members only, so it unpacked all of it)."""
    info = tarfile.TarInfo(f"{ROOT}/payload/posix/tmp/x/big")
    info.size = gib * 1024**3
    zeros = gzip.compress(bytes(1024 * 1024), 9)
    with open(path, "wb") as out:
        out.write(gzip.compress(info.tobuf(format=tarfile.PAX_FORMAT)))
        for _ in range(gib * 1024):
            out.write(zeros)


@pytest.mark.slow
def test_a_bomb_inside_one_member_stops_list_plain_or_encrypted(vora: Callable[..., Run], tmp_path: Path) -> None:
    pyrage = pytest.importorskip("pyrage")
    folder = tmp_path / "out"
    folder.mkdir()
    _bomb(folder / "bomb.tar.gz", 8)
    key = pyrage.x25519.Identity.generate()
    (tmp_path / "key.txt").write_text(f"{key}\n")
    with open(folder / "bomb.tar.gz", "rb") as plain, open(folder / "sealed.tar.gz.age", "wb") as sealed:
        pyrage.encrypt_io(plain, sealed, [key.to_public()])
    with cpu_hang_guard("backup list of a gzip bomb"):
        run = listed(vora, folder, "--identity", str(tmp_path / "key.txt"))
    assert sorted((a["name"], a["format"]) for a in run.json()["archives"]) == [
        ("bomb.tar.gz", "unknown"), ("sealed.tar.gz.age", "unknown")]


def _python_for_others() -> str | None:
    """A Python of this version that another user may run (the test's own may live under /root)."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        done = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True,
                              text=True, check=False) if os.path.exists(candidate) else None
        if done is not None and done.stdout.strip() == str(sys.version_info[:2]):
            return candidate
    return None


@pytest.mark.skipif(os.getuid() != 0 or _python_for_others() is None,
                    reason="reading as another user needs root to switch to it, and a Python that user may run")
def test_a_file_list_may_not_read_is_named_and_the_rest_listed(vora: Callable[..., Run], tmp_path: Path) -> None:
    """Item 16: one mode-000 file made the whole list fail, with --verify too. A real second user
    (nobody) runs the real vora on a folder where one archive is readable and one is not (in a
    folder of /tmp that user can reach: pytest's own are private to root)."""
    import sysconfig
    import tempfile

    state, _workspace = build_install(tmp_path / "install")
    area = Path(tempfile.mkdtemp(prefix="vora-other-user-", dir="/tmp"))
    try:
        area.chmod(0o755)
        folder = area / "out"
        run = vora("--state-dir", str(state), "backup", "create", "--output", str(folder / "a.tar.gz"), "--json")
        assert run.exit_code == 0, run.stdout
        folder.chmod(0o755)
        shutil.copy(folder / "a.tar.gz", folder / "b.tar.gz")
        (folder / "a.tar.gz").chmod(0o644)
        (folder / "b.tar.gz").chmod(0o000)
        home = area / "nobody"
        home.mkdir()
        shutil.chown(home, 65534, 65534)
        python = str(_python_for_others())
        env = {"PATH": os.environ["PATH"], "HOME": str(home), "VORA_HOME": str(home), "NO_COLOR": "1",
               "COLUMNS": "120", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": os.pathsep.join(
                   (str(REPO), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]))}

        def as_nobody(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([python, "-m", "vora_cli", "backup", "list", str(folder), *args], env=env,
                                  user=65534, group=65534, capture_output=True, text=True, timeout=120, check=False)

        for verify in ((), ("--verify",)):
            done = as_nobody(*verify, "--json")
            assert done.returncode == 0, done.stdout + done.stderr
            document = json.loads(done.stdout)
            assert [a["name"] for a in document["archives"]] == ["a.tar.gz"], verify
            assert [(Path(u["path"]).name, "Permission denied" in u["detail"]) for u in document["unreadable"]] == [
                ("b.tar.gz", True)]
            human = as_nobody(*verify)
            assert human.returncode == 0 and "a.tar.gz" in human.stdout
            assert human.stderr.startswith("warning: ") and "b.tar.gz: Permission denied" in human.stderr
    finally:
        shutil.rmtree(area)


def test_list_and_security_audit_agree_on_what_an_archive_is(vora: Callable[..., Run], tmp_path: Path,
                                                             home: Path) -> None:
    """Items 22, 23 and the review's "two rules": a link named *.tar.gz to a file that is not an
    archive (/etc/passwd) is neither listed nor rated (the audit told to chmod it); a link to a
    real archive is both; an armored age file is an (encrypted) archive to both."""
    state, _workspace = build_install(tmp_path / "install")
    run = vora("--state-dir", str(state), "backup", "create", "--json")
    archive = Path(run.json()["archivePath"])
    folder = archive.parent
    system_file = tmp_path / "passwd"
    system_file.write_text("root:x:0:0:root:/root:/bin/bash\n")
    system_file.chmod(0o644)
    elsewhere = tmp_path / "elsewhere.tar.gz"
    shutil.copy(archive, elsewhere)
    elsewhere.chmod(0o644)
    (folder / "link.tar.gz").symlink_to(system_file)
    (folder / "linked-archive.tar.gz").symlink_to(elsewhere)
    (folder / "armored.tar.gz.age").write_text("-----BEGIN AGE ENCRYPTED FILE-----\nYWdl\n-----END AGE ENCRYPTED FILE-----\n")
    (folder / "armored.tar.gz.age").chmod(0o600)
    names = {a["name"]: a["format"] for a in listed(vora, folder).json()["archives"]}
    assert names == {archive.name: "vora", "linked-archive.tar.gz": "vora", "armored.tar.gz.age": "encrypted"}
    report = vora("--state-dir", str(state), "security", "audit", "--only", "backups", "--json").json()
    rated = {Path(f["file"]).name for f in report["findings"]}
    assert "link.tar.gz" not in rated and str(system_file) not in str(report)
    assert "linked-archive.tar.gz" in rated  # a real archive others can read, reached through a link
    verify = vora("backup", "verify", str(folder / "armored.tar.gz.age"))
    assert verify.exit_code == 1 and "armored age file" in verify.stderr and "age -d" in verify.stderr


def test_a_gateway_archive_is_summarised_from_its_head(vora: Callable[..., Run], monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    """Item 26: list read up to ~85 MB of each gateway archive's tail before its head, where the
    gateway writes its manifest: ten 500 MB gateway archives missed the budget."""
    from backup_support import GATEWAY_ARCHIVE

    from vora_cli.core.backup import listing

    folder = tmp_path / "out"
    folder.mkdir()
    shutil.copy(GATEWAY_ARCHIVE, folder / GATEWAY_ARCHIVE.name)
    monkeypatch.setattr(listing, "_tail_manifest", lambda *args: pytest.fail("read the tail of a manifest-first archive"))
    run = listed(vora, folder)
    assert [(a["format"], bool(a["assets"])) for a in run.json()["archives"]] == [("gateway", True)]
