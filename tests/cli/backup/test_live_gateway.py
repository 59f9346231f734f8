"""`vora backup create` while the gateway writes (issue 21): real concurrent processes append
to a transcript, replace the session store, and hold its lock; every archive is consistent."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from backup_support import build_install, free_port, members
from conftest import Run

APPENDER = textwrap.dedent("""
    import json, sys, time
    path = sys.argv[1]
    n = 0
    with open(path, "ab", buffering=0) as out:
        while True:
            n += 1
            line = json.dumps({"type": "message", "id": f"{n:08x}", "parentId": None, "message":
                               {"role": "user", "content": "x" * (n % 500)}}).encode() + b"\\n"
            half = len(line) // 2
            out.write(line[:half])   # a torn last line most of the time, as a writing gateway leaves it
            time.sleep(0.01)
            out.write(line[half:])
            time.sleep(0.0005)
""")

REPLACER = textwrap.dedent("""
    import json, os, sys, time
    path = sys.argv[1]
    n = 0
    while True:
        n += 1
        body = {f"agent:main:s{i}": {"sessionId": f"s{i}", "updatedAt": n, "pad": "p" * 4000} for i in range(200)}
        tmp = path + ".tmp-writer"
        with open(tmp, "w") as out:
            out.write(json.dumps(body, indent=2))
        os.replace(tmp, path)   # whole and by rename, as the gateway writes its store
        time.sleep(0.001)
""")


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


@pytest.fixture
def spawn() -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []

    def run(script: str, *args: str) -> subprocess.Popen[bytes]:
        child = subprocess.Popen([sys.executable, "-c", script, *args])
        started.append(child)
        return child

    yield run
    for child in started:
        child.kill()
        child.wait(timeout=30)


def _archived(archive: Path, suffix: str) -> bytes:
    return next(d for m, d in members(archive) if m.name.endswith(suffix)) or b""


@pytest.mark.slow
def test_a_transcript_being_appended_is_archived_as_whole_lines(vora: Callable[..., Run], tmp_path: Path,
                                                                spawn: Callable[..., subprocess.Popen[bytes]]) -> None:
    state, _workspace = build_install(tmp_path / "install")
    transcript = state / "agents/main/sessions/s-one.jsonl"
    with open(transcript, "ab") as grow:  # a few MB, so the copy takes a while
        for i in range(20_000):
            grow.write(json.dumps({"type": "custom", "id": f"{i:08x}", "data": "d" * 200}).encode() + b"\n")
    spawn(APPENDER, str(transcript))
    time.sleep(0.3)
    torn_seen = 0
    for run_no in range(6):
        run = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path / f"b{run_no}.tar.gz"),
                   "--json")
        assert run.exit_code == 0, run.stdout
        copy = _archived(Path(run.json()["archivePath"]), "/s-one.jsonl")
        assert copy.endswith(b"\n")
        assert all(isinstance(json.loads(line), dict) for line in copy.splitlines())
        assert transcript.read_bytes().startswith(copy)  # a prefix of what the gateway wrote
        changed = [c for c in run.json()["changedDuringBackup"] if c["path"].endswith("/s-one.jsonl")]
        torn_seen += bool(changed and changed[0]["leftOut"])
        if changed:
            assert changed[0]["changed"] in (None, "appended")
    assert torn_seen >= 1  # the appender leaves a torn line ~95% of the time: the rule was exercised


def test_a_store_replaced_during_the_backup_is_archived_whole(vora: Callable[..., Run], tmp_path: Path,
                                                              spawn: Callable[..., subprocess.Popen[bytes]]) -> None:
    state, _workspace = build_install(tmp_path / "install")
    store = state / "agents/main/sessions/sessions.json"
    spawn(REPLACER, str(store))
    time.sleep(0.3)
    for run_no in range(4):
        run = vora("--state-dir", str(state), "backup", "create", "--output", str(tmp_path / f"b{run_no}.tar.gz"),
                   "--json")
        assert run.exit_code == 0, run.stdout
        archived = json.loads(_archived(Path(run.json()["archivePath"]), "/sessions.json"))
        assert len(archived) == 200 and len({e["updatedAt"] for e in archived.values()}) == 1


def test_the_store_is_read_after_the_gateways_lock_is_released(vora: Callable[..., Run], tmp_path: Path,
                                                               spawn: Callable[..., subprocess.Popen[bytes]]) -> None:
    state, _workspace = build_install(tmp_path / "install")
    store = state / "agents/main/sessions/sessions.json"
    holder = textwrap.dedent("""
        import datetime, json, os, sys, time
        store = sys.argv[1]
        lock = store + ".lock"
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        with open(lock, "x") as out:
            json.dump({"pid": os.getpid(), "createdAt": now}, out)
        print("locked", flush=True)
        time.sleep(0.6)
        with open(store + ".new", "w") as out:
            out.write('{"agent:main:main": {"sessionId": "after-the-lock", "updatedAt": 9}}')
        os.replace(store + ".new", store)
        os.unlink(lock)
        time.sleep(30)
    """)
    child = subprocess.Popen([sys.executable, "-c", holder, str(store)], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline() == b"locked\n"
        run = vora("--state-dir", str(state), "backup", "create", "--json")
        assert run.exit_code == 0, run.stdout
        archived = json.loads(_archived(Path(run.json()["archivePath"]), "/sessions.json"))
        assert archived["agent:main:main"]["sessionId"] == "after-the-lock"
        assert "sessions.json.lock" not in {m.name.rsplit("/", 1)[-1] for m, _d in members(Path(run.json()["archivePath"]))}
    finally:
        child.kill()
        child.wait(timeout=30)
