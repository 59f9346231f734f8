"""`vora security audit` rates vora's backups folder and every backup archive in it (issue 34):
a folder others can write to, an archive others can read or that another user owns; `--fix`
makes them private, exactly the paths looked at, never through a link."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from backup_support import build_install, free_port
from conftest import Run


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


def findings(vora: Callable[..., Run], state: Path) -> list[tuple[str, str, str]]:
    report = vora("--state-dir", str(state), "security", "audit", "--only", "backups", "--json").json()
    return [(f["severity"], f["title"], Path(f["file"]).name) for f in report["findings"]]


def test_a_wide_folder_and_readable_archives_are_critical_and_fixed(vora: Callable[..., Run], tmp_path: Path,
                                                                     home: Path) -> None:
    state, _workspace = build_install(tmp_path / "install")
    plain = Path(vora("--state-dir", str(state), "backup", "create", "--json").json()["archivePath"])
    folder = plain.parent
    renamed = folder / "before-upgrade"  # a backup whatever its name
    os.link(plain, renamed)
    (folder / "notes.txt").write_text("not an archive")
    (folder / "notes.txt").chmod(0o644)
    outside = tmp_path / "elsewhere.tar.gz"
    outside.write_bytes(plain.read_bytes())
    outside.chmod(0o644)
    (folder / "link.tar.gz").symlink_to(outside)
    folder.chmod(0o777)
    plain.chmod(0o644)
    found = findings(vora, state)
    assert ("critical", "the backups folder is world-writable", "backups") in found
    assert ("critical", "the backup archive is world-readable", plain.name) in found
    assert ("critical", "the backup archive is world-readable", "before-upgrade") in found  # one inode, two names
    assert not [f for f in found if f[2] == "notes.txt"]
    fixed = vora("--state-dir", str(state), "security", "audit", "--fix", "backups", "--yes", "--json")
    assert fixed.exit_code in (0, 1), fixed.stdout
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and stat.S_IMODE(plain.stat().st_mode) == 0o600
    assert stat.S_IMODE(outside.stat().st_mode) == 0o644  # never through a link
    assert stat.S_IMODE((folder / "notes.txt").stat().st_mode) == 0o644  # not an archive: not vora's to change
    # what is left is the linked archive, whose target vora leaves to you (the finding says how)
    assert [f[2] for f in findings(vora, state) if f[0] == "critical"] == ["link.tar.gz"]


@pytest.mark.skipif(os.getuid() != 0, reason="chown needs root")
def test_an_archive_another_user_owns_is_critical(vora: Callable[..., Run], tmp_path: Path) -> None:
    state, _workspace = build_install(tmp_path / "install")
    archive = Path(vora("--state-dir", str(state), "backup", "create", "--json").json()["archivePath"])
    os.chown(archive, 4242, 4242)
    assert ("critical", "the backup archive belongs to another user", archive.name) in findings(vora, state)


def test_an_archive_with_a_name_outside_the_backups_folder_is_not_chmodded(vora: Callable[..., Run],
                                                                             tmp_path: Path) -> None:
    """Two names in the folder are both rated and fixed together (above); a third name elsewhere
    (a web root) would change with them, so `--fix` leaves the file alone and says how to part them."""
    state, _workspace = build_install(tmp_path / "install")
    archive = Path(vora("--state-dir", str(state), "backup", "create", "--json").json()["archivePath"])
    os.link(archive, archive.parent / "copy-for-upgrade")
    public = tmp_path / "public_html"
    public.mkdir()
    os.link(archive, public / "site.tar.gz")
    archive.chmod(0o644)
    report = vora("--state-dir", str(state), "security", "audit", "--only", "backups", "--json").json()
    mine = [f for f in report["findings"] if f["file"] == str(archive)]
    assert [f["severity"] for f in mine] == ["critical"]
    assert mine[0]["detail"].endswith("it should be 0600; it is one file with 2 other names (hard links, 3 in all): "
                                      "a chmod changes every one of them")
    assert mine[0]["remediation"].startswith(f"find its other names: find / -xdev -samefile {archive}; ")
    fixed = vora("--state-dir", str(state), "security", "audit", "--fix", "backups", "--yes", "--json")
    assert fixed.exit_code == 1, fixed.stdout
    assert stat.S_IMODE((public / "site.tar.gz").stat().st_mode) == 0o644
