"""Encrypted archives (issue 34): `backup create --encrypt-to` writes what the stock `age`
command decrypts, vora reads what `age` encrypted, a passphrase never comes from argv, and an
archive without its key is refused, naming the options that open it. The Debian `age` package is
the test-only reference tool (.ci/run installs it)."""

from __future__ import annotations

import io
import json
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


def _create_limited(tmp_path: Path, state: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real `vora backup create` as a process that may write files of at most 64 KiB
    (RLIMIT_FSIZE: the kernel fails the write that would pass it with EFBIG, as a full disk fails
    one with ENOSPC; Python ignores the SIGXFSZ that comes with it)."""
    import os
    import resource
    import sys

    from conftest import REPO

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "vora_cli", "--state-dir", str(state), "backup", "create",
                           "--output", str(out), *args], env=env, capture_output=True, text=True, timeout=120,
                          check=False, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536)))


@pytest.mark.parametrize("sealing", ["recipient", "plain"])
def test_a_create_that_cannot_write_says_why_and_leaves_no_archive(tmp_path: Path, key: tuple[Path, str],
                                                                   sealing: str) -> None:
    """Item 2: an encrypted create that met a full disk exited 1 with nothing said and empty JSON
    (age's worker died, the feed's EPIPE reached click as a closed stdout)."""
    import os

    state, _workspace = build_install(tmp_path / "install")
    (state / "blob").write_bytes(os.urandom(512 * 1024))
    out = tmp_path / "out"
    out.mkdir()
    seal = ("--encrypt-to", key[1]) if sealing == "recipient" else ()
    human = _create_limited(tmp_path, state, out / "a.tar.gz", *seal)
    assert human.returncode == 1 and human.stdout == ""
    line, hint = human.stderr.splitlines()
    assert line.startswith("error: cannot write ") and "File too large" in line and "no archive was written" in line
    assert hint.startswith("hint: ")
    document = _create_limited(tmp_path, state, out / "a.tar.gz", *seal, "--json")
    assert document.returncode == 1 and json.loads(document.stdout)["error"]["code"] == "io_error"
    assert list(out.iterdir()) == []  # no archive, no temp file


def test_a_damaged_encrypted_archive_is_not_blamed_on_its_key(vora: Callable[..., Run], tmp_path: Path,
                                                            key: tuple[Path, str]) -> None:
    """Item 22: a truncated .age said "give the identity whose public key it was encrypted to" for
    the right key; an operator could throw a good key away."""
    import os

    identity, recipient = key
    state, _workspace = build_install(tmp_path / "install")
    (state / "blob").write_bytes(os.urandom(300 * 1024))
    run = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path / "a.tar.gz.age"),
               "--encrypt-to", recipient, "--json")
    sealed = Path(run.json()["archivePath"])
    for cut, at in (("data", sealed.stat().st_size // 2), ("header", 40)):
        damaged = tmp_path / f"{cut}.tar.gz.age"
        damaged.write_bytes(sealed.read_bytes()[:at])
        report = vora("backup", "verify", str(damaged), "--identity", str(identity))
        assert report.exit_code == 1, report.stdout
        said = report.stdout + report.stderr
        assert "give the identity" not in said and ("damaged" in said or "cut short" in said), (cut, said)


def test_a_passphrase_typed_as_an_argument_is_never_echoed(vora: Callable[..., Run], tmp_path: Path) -> None:
    """Item 24: `--passphrase hunter2` printed "Got unexpected extra argument (hunter2)": the secret
    in the terminal's scroll-back and in CI logs."""
    state, _workspace = build_install(tmp_path / "install")
    for args in (("--state-dir", str(state), "backup", "create", "--passphrase", "hunter2"),
                 ("backup", "restore", "--passphrase", "hunter2"),
                 ("backup", "verify", "--passphrase", "hunter2", "--json")):
        run = vora(*args, input="")
        assert run.exit_code != 0 and "hunter2" not in run.stdout + run.stderr, (args, run.stdout, run.stderr)
    extra = vora("--state-dir", str(state), "backup", "create", "--passphrase", "hunter2", "--json", input="")
    assert extra.json()["error"]["hint"].startswith("--passphrase takes no value")
