"""A real second user for the tests where ownership matters (issue 35, point 4).

The suite runs as root (here and in CI), so the user the install belongs to (`vora-test-svc`, the
gateway's service account in these tests) is made by the test itself: `useradd`, once, idempotent
under parallel workers (a worker that finds `/etc/passwd` locked by another looks again). Only a
machine where it cannot be made (not root, no `useradd`) skips.

`run_as(user, call)` runs `call` in a child process that has become that user (groups, gid, uid:
no way back). No new interpreter is started: the one running the tests may sit where the user
cannot read (`/root/.pyenv`), so the child is a fork, and every module the call needs is
imported before it drops root (`warm`: the same call once as root on a scratch copy).

Folders the user must reach are made by `reachable_dir()`, under the system's temp folder with a
path the user can traverse (pytest's own base dir is 0700), and removed afterwards.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import pwd
import shutil
import subprocess
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

USER = "vora-test-svc"
SYSTEM_TMP = Path("/var/tmp") if Path("/var/tmp").is_dir() else Path("/tmp")


def second_user() -> pwd.struct_passwd | None:
    """The test's second user, made when missing; None where it cannot be made."""
    with contextlib.suppress(KeyError):
        return pwd.getpwnam(USER)
    if os.geteuid() != 0 or shutil.which("useradd") is None:
        return None
    for _attempt in range(50):
        subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                        "--shell", "/usr/sbin/nologin", USER], capture_output=True, check=False)
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(USER)
        time.sleep(0.1)  # another worker is adding it (useradd locks /etc/passwd): look again
    return None


@pytest.fixture
def svc() -> pwd.struct_passwd:
    """The second user; the test is skipped only where no second user can be made."""
    if os.geteuid() != 0:
        pytest.skip("ownership tests act as root and as a second user: run them as root (CI does)")
    user = second_user()
    if user is None:
        pytest.skip(f"cannot create the test user {USER} (no useradd?)")
    return user


@pytest.fixture
def reachable() -> Iterator[Path]:
    """A fresh folder every user can traverse (0711), removed after the test."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="vora-owners-", dir=SYSTEM_TMP))
    os.chmod(folder, 0o711)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def give(path: Path, user: pwd.struct_passwd) -> None:
    """`chown -R user:user path` (the install belongs to the user, as a service account's does)."""
    for root, dirs, files in os.walk(path):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(root, name), user.pw_uid, user.pw_gid)
    os.lchown(path, user.pw_uid, user.pw_gid)


def owner_of(path: Path) -> tuple[int, int]:
    st = os.lstat(path)
    return st.st_uid, st.st_gid


def run_as(user: pwd.struct_passwd, call: Callable[[], Any], *, warm: Callable[[], Any] | None = None,
           home: Path | None = None, wait_s: float = 120) -> Any:
    """`call()` in a forked child that has become `user`; its result (pickled back), or the child's
    exception re-raised here as an AssertionError with its traceback. `warm` runs first, still as
    root, so that what `call` imports is loaded while root can still read it. `home`: the child's
    HOME and VORA_HOME (the test's own home is under pytest's 0700 folder)."""
    import grp  # noqa: F401  (the owner checks name users and groups: loaded before root is dropped)

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(read)
        try:
            if home is not None:
                os.environ["HOME"] = os.environ["VORA_HOME"] = str(home)
            if warm is not None:
                warm()
            os.setgroups([user.pw_gid])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
            payload = (True, call())
        except BaseException:
            payload = (False, traceback.format_exc())
        with os.fdopen(write, "wb") as out:
            pickle.dump(payload, out)
        os._exit(0)
    os.close(write)
    import select

    deadline = time.monotonic() + wait_s
    chunks: list[bytes] = []
    with os.fdopen(read, "rb", buffering=0) as inp:
        while True:
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                raise AssertionError(f"the child running as {user.pw_name} never finished")
            ready, _w, _x = select.select([inp], [], [], 0.5)
            if ready:
                chunk = inp.read(65536)
                if not chunk:
                    break
                chunks.append(chunk)
    os.waitpid(pid, 0)
    ok, value = pickle.loads(b"".join(chunks))
    if not ok:
        raise AssertionError(f"as {user.pw_name}:\n{value}")
    return value
