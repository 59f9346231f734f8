"""`vora logs --file` and plain `vora doctor` never read a log folder another user controls (issue 22, class 6).

A local user who creates `$TMPDIR/vora-<uid>` first (or makes it writable) could forge doctor's
"a gateway started … and loaded …" evidence, or crash it. The folder is skipped, and the output
says which folder and why.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

FORGED = '{"0": "{\\"subsystem\\":\\"gateway\\"}", "1": "ready (1 plugins: evil-engine; 0.1s)", ' \
         '"time": "2026-04-12T10:00:00.000+02:00"}\n'


@pytest.fixture
def fallback(tmp_path: Path) -> Path:
    if Path("/tmp/vora").exists():
        pytest.skip("/tmp/vora exists on this host; the tests must not read a real gateway's log")
    return tmp_path / "tmp" / f"vora-{os.getuid()}"


def forge(folder: Path, how: str, tmp_path: Path) -> None:
    if how == "symlink":
        real = tmp_path / "attacker"
        real.mkdir()
        (real / "vora-2026-04-12.log").write_text(FORGED)
        folder.symlink_to(real)
        return
    folder.mkdir()
    (folder / "vora-2026-04-12.log").write_text(FORGED)
    if how == "other-user":
        os.chown(folder, 4242, 4242)
        folder.chmod(0o755)
    else:
        folder.chmod(int(how, 8))


HOW = ["0777", "0775", "symlink",
       pytest.param("other-user", marks=pytest.mark.skipif(os.getuid() != 0, reason="chown needs root"))]


@pytest.mark.parametrize("how", HOW)
def test_logs_file_refuses_the_folder_and_says_why(vora, state_dir: Path, fallback: Path, tmp_path: Path,
                                                   how: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    forge(fallback, how, tmp_path)
    run = vora("logs", "--file", "--json")
    assert run.exit_code == 1
    error = run.json()["error"]
    assert error["code"] == "not_found" and f"not read: {fallback} " in error["message"]
    assert "evil-engine" not in run.stdout + run.stderr
    human = vora("logs", "--file")
    assert "evil-engine" not in human.stdout and f"{fallback} " in human.stderr


@pytest.mark.parametrize("how", HOW)
def test_doctor_warns_instead_of_showing_forged_evidence(vora, state_dir: Path, fallback: Path, tmp_path: Path,
                                                         how: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    forge(fallback, how, tmp_path)
    doc = vora("doctor", "--json").json()
    check = next(c for c in doc["checks"] if c["id"] == "last-gateway-start")
    assert check["status"] == "warn" and str(fallback) in check["message"]
    assert "evil-engine" not in str(doc)


def test_the_gateway_s_own_folder_is_still_read(vora, state_dir: Path, fallback: Path) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    fallback.mkdir(mode=0o700)
    (fallback / "vora-2026-04-12.log").write_text(FORGED.replace("evil-engine", "my-engine"))
    run = vora("logs", "--file")
    assert run.exit_code == 0 and "ready (1 plugins: my-engine" in run.stdout and "not read" not in run.stderr
    check = next(c for c in vora("doctor", "--json").json()["checks"] if c["id"] == "last-gateway-start")
    assert check["status"] == "info" and "my-engine" in check["message"]
