"""Encrypted archives (issue 34): `backup create --encrypt-to` writes what the stock `age`
command decrypts, vora reads what `age` encrypted, a passphrase never comes from argv, and an
archive without its key is refused, naming the options that open it. The Debian `age` package is
the test-only reference tool (.ci/run installs it)."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest
from backup_support import build_install, free_port
from conftest import Run

AGE = shutil.which("age")
pytestmark = pytest.mark.skipif(AGE is None or shutil.which("age-keygen") is None,
                                reason="the age tool is not installed (apt-get install -y age)")


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


@pytest.fixture
def key(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "key.txt"
    done = subprocess.run(["age-keygen", "-o", str(path)], capture_output=True, text=True, check=True)
    return path, done.stderr.split()[-1]


def test_age_decrypts_what_vora_encrypts_and_vora_reads_it_back(vora: Callable[..., Run], tmp_path: Path,
                                                                key: tuple[Path, str]) -> None:
    identity, recipient = key
    state, _workspace = build_install(tmp_path / "install")
    run = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path / "out") + "/",
               "--encrypt-to", recipient, "--json")
    assert run.exit_code == 0, run.stdout
    archive = Path(run.json()["archivePath"])
    assert archive.name.endswith(".tar.gz.age") and run.json()["encrypted"] is True
    assert b"not-a-real-one" not in archive.read_bytes()  # the credential is sealed
    plain = subprocess.run([AGE, "-d", "-i", str(identity), str(archive)], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(plain), mode="r:gz") as tar:
        assert any(m.name.endswith("/credentials/oauth.json") for m in tar)
    locked = vora("backup", "verify", str(archive))
    assert locked.exit_code == 1 and "--identity FILE" in locked.stderr
    checked = vora("backup", "verify", str(archive), "--identity", str(identity), "--json").json()
    assert (checked["ok"], checked["encrypted"], checked["format"]) == (True, True, "vora")
    listed = vora("backup", "list", str(tmp_path / "out"), "--json").json()["archives"]
    assert [(a["format"], a["encrypted"]) for a in listed] == [("encrypted", True)]
    listed = vora("backup", "list", str(tmp_path / "out"), "--identity", str(identity), "--json").json()["archives"]
    assert [(a["format"], a["fileCount"]) for a in listed] == [("vora", run.json()["files"])]
    restored = vora("backup", "restore", str(archive), "--identity", str(identity), "--to", str(tmp_path / "copy"))
    assert restored.exit_code == 0, restored.stdout
    assert (tmp_path / "copy/credentials/oauth.json").read_text() == '{"token": "not-a-real-one"}'


def test_vora_reads_an_archive_age_encrypted(vora: Callable[..., Run], tmp_path: Path, key: tuple[Path, str]) -> None:
    identity, recipient = key
    state, _workspace = build_install(tmp_path / "install")
    plain = Path(vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path) + "/", "--json")
                 .json()["archivePath"])
    sealed = tmp_path / "sealed.age"
    subprocess.run([AGE, "-r", recipient, "-o", str(sealed), str(plain)], check=True)
    report = vora("backup", "verify", str(sealed), "--identity", str(identity), "--json").json()
    assert (report["ok"], report["encrypted"], report["hashes"]) == (True, True, True)
    other = tmp_path / "other.txt"
    subprocess.run(["age-keygen", "-o", str(other)], capture_output=True, check=True)
    wrong = vora("backup", "verify", str(sealed), "--identity", str(other))
    assert wrong.exit_code == 1 and "cannot decrypt sealed.age" in wrong.stderr


@pytest.mark.slow  # age's scrypt, three times: seconds of CPU
def test_a_passphrase_comes_from_stdin_or_a_file_never_argv(vora: Callable[..., Run], tmp_path: Path) -> None:
    state, _workspace = build_install(tmp_path / "install")
    out = tmp_path / "pp.tar.gz.age"
    run = vora("--state-dir", str(state), "backup", "create", "--output", str(out), "--passphrase", "--json",
               input="correct horse\n")
    assert run.exit_code == 0, run.stdout
    secret = tmp_path / "pass.txt"
    secret.write_text("correct horse\n")
    assert vora("backup", "verify", str(out), "--passphrase-file", str(secret), "--json").json()["ok"] is True
    wrong = vora("backup", "verify", str(out), "--passphrase", input="wrong\n")
    assert wrong.exit_code == 1 and "cannot decrypt" in wrong.stderr
    argv = vora("--state-dir", str(state), "backup", "create", "--passphrase", "correct horse")
    assert argv.exit_code == 2  # a passphrase is a flag: the words are not taken as one


def test_a_bad_recipient_is_a_usage_error_before_anything_is_written(vora: Callable[..., Run], tmp_path: Path) -> None:
    state, _workspace = build_install(tmp_path / "install")
    run = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path / "o") + "/",
               "--encrypt-to", "age1notakey", "--json")
    assert run.exit_code == 2 and "age1notakey" in run.json()["error"]["message"]
    assert not (tmp_path / "o").exists()
