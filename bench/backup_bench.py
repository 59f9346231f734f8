"""`vora backup create / verify / restore` on a state dir with 1 GB of transcripts (run by hand:
python bench/backup_bench.py).

Builds the install in a temp dir under /tmp (removed afterwards, archive and restored copy too):
50 agents' transcripts of ~20 MB each in JSONL as the gateway writes it (varied text, tool
results, usage numbers), a session store, a workspace. Then runs each command once as its own
process and prints its wall time, its peak RSS (the child's own, from wait4) and the archive's
size. Memory must stay flat: every step streams, nothing holds a file whole.

BACKUP_BENCH_MB sets the size (default 1000, in MB of 10^6 bytes).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TOTAL = int(os.environ.get("BACKUP_BENCH_MB", "1000")) * 1000 * 1000
TRANSCRIPTS = 50
WORDS = ["the", "tool", "returned", "output", "file", "path", "error", "config", "gateway", "session", "token", "context", "window", "agent", "workspace", "plugin", "compaction", "summary", "model", "reply", "user", "assistant", "thinking", "result", "line", "value", "json", "schema", "test", "run", "build", "deploy", "retry", "timeout", "cache", "index", "memory", "vector", "search", "query", "answer", "because", "which", "would"]


def _lines(rng: random.Random, count: int) -> list[str]:
    """A pool of distinct entries (a real transcript repeats little word for word)."""
    pool = []
    for i in range(count):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 600)))
        kind = i % 3
        if kind == 0:
            message = {"role": "user", "content": text}
        elif kind == 1:
            message = {"role": "assistant", "content": [{"type": "text", "text": text}], "provider": "anthropic",
                       "model": "claude-sonnet-4-5", "usage": {"input": rng.randint(1000, 180000),
                                                               "output": rng.randint(10, 4000)}}
        else:
            message = {"role": "toolResult", "toolCallId": f"call_{rng.getrandbits(48):012x}", "toolName": "exec",
                       "content": [{"type": "text", "text": text}], "isError": False}
        pool.append(json.dumps({"type": "message", "id": "@ID@", "parentId": "@PARENT@",
                                "timestamp": f"2026-01-0{1 + i % 9}T12:{i % 60:02d}:00.000Z", "message": message}))
    return pool


def build(root: Path) -> Path:
    rng = random.Random(21)
    state = root / "state"
    workspace = state / "workspace"
    workspace.mkdir(parents=True)
    (workspace / "AGENTS.md").write_text("# Agents\n" + "Be brief.\n" * 200)
    (state / "vora.json").write_text('{ agents: { defaults: { workspace: "./workspace" } } }\n')
    sessions = state / "agents" / "main" / "sessions"
    sessions.mkdir(parents=True)
    pool = _lines(rng, 4000)
    per_file = TOTAL // TRANSCRIPTS
    store = {}
    n = 0
    for t in range(TRANSCRIPTS):
        sid = f"{rng.getrandbits(64):016x}-{t:04d}"
        store[f"agent:main:s{t}"] = {"sessionId": sid, "updatedAt": 1_767_225_600_000 + t}
        with open(sessions / f"{sid}.jsonl", "w", encoding="utf-8") as out:
            out.write(json.dumps({"type": "session", "version": 3, "id": sid, "timestamp": "2026-01-01T00:00:00.000Z",
                                  "cwd": "/home/me"}) + "\n")
            written, parent = 0, "null"
            while written < per_file:
                n += 1
                entry_id = f"{n & 0xFFFFFFFF:08x}"
                line = pool[rng.randrange(len(pool))].replace('"@ID@"', f'"{entry_id}"', 1).replace(
                    '"@PARENT@"', parent, 1) + "\n"
                out.write(line)
                written += len(line)
                parent = f'"{entry_id}"'
    (sessions / "sessions.json").write_text(json.dumps(store, indent=2))
    return state


def run(*args: str) -> tuple[float, int, str]:
    """Wall seconds, the child's peak RSS in MiB, and its stdout."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "VORA_GATEWAY_PORT": "1"}
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "vora_cli", *args], env=env, stdout=subprocess.PIPE)
    assert child.stdout is not None
    out = child.stdout.read().decode()
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"vora {' '.join(args)} failed ({child.returncode}): {out[:500]}")
    rss_mib = usage.ru_maxrss / 1024 if sys.platform.startswith("linux") else usage.ru_maxrss / 2**20
    return wall, int(rss_mib), out


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="vora-backup-bench-", dir="/tmp"))
    try:
        started = time.perf_counter()
        state = build(root)
        size = sum(p.stat().st_size for p in state.rglob("*") if p.is_file())
        print(f"built {size / 1e9:.2f} GB in {TRANSCRIPTS} transcripts in {time.perf_counter() - started:.0f} s "
              f"({root})")
        wall, rss, out = run("-q", "--state-dir", str(state), "backup", "create", "--output", str(root / "out") + "/",
                             "--json")
        archive = Path(json.loads(out)["archivePath"])
        print(f"create : {wall:6.1f} s  peak RSS {rss:4d} MiB  archive {archive.stat().st_size / 1e6:.0f} MB "
              f"({archive.stat().st_size / size:.0%} of the data, {size / 1e6 / wall:.0f} MB/s)")
        wall, rss, out = run("backup", "verify", str(archive), "--json")
        assert json.loads(out)["ok"] is True
        print(f"verify : {wall:6.1f} s  peak RSS {rss:4d} MiB  ({size / 1e6 / wall:.0f} MB/s)")
        wall, rss, out = run("backup", "restore", str(archive), "--to", str(root / "restored"), "--json")
        print(f"restore: {wall:6.1f} s  peak RSS {rss:4d} MiB  (verify pass + staging pass; "
              f"{json.loads(out)['counts']['create']} entries created)")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
