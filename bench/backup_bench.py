"""`vora backup create / verify / restore` on a state dir with 1 GB of transcripts.

    python bench/backup_bench.py                  # VORA_BENCH_BASE=/other/checkout for A/B

50 agents' transcripts of ~20 MB each in JSONL as the gateway writes it (varied text, tool
results, usage numbers), a session store, a workspace; built in the bench's temp dir and removed
after, archive and restored copy too. Each command runs once per round, in order (create, then
verify and restore of that archive); memory must stay flat: every step streams, nothing holds a
file whole. BACKUP_BENCH_MB sets the size (default 1000, MB of 10^6 bytes); BENCH_RUNS rounds
(default 1). Budgets (docs/performance.md): create, verify and restore no slower than the base
(`VORA_BENCH_BASE`, ±10 %, read from the A/B columns), `create --encrypt-to` within 1.15x of
`create`, and `backup list` of ten 500 MB archives under 1 s. The ten archives are one vora archive
of 500 MB of random bytes under ten names (hard links): `list` reads each one's tail and size, so
ten copies would only cost the bench disk space.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import harness

TOTAL = int(os.environ.get("BACKUP_BENCH_MB", "1000")) * 1000 * 1000
TRANSCRIPTS = 50
WORDS = ["the", "tool", "returned", "output", "file", "path", "error", "config", "gateway", "session", "token",
         "context", "window", "agent", "workspace", "plugin", "compaction", "summary", "model", "reply", "user",
         "assistant", "thinking", "result", "line", "value", "json", "schema", "test", "run", "build", "deploy",
         "retry", "timeout", "cache", "index", "memory", "vector", "search", "query", "answer", "because", "which",
         "would"]


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


def recipient(root: Path) -> str:
    """A fresh age X25519 recipient (its identity is thrown away with the bench's temp dir)."""
    try:
        import pyrage

        return str(pyrage.x25519.Identity.generate().to_public())
    except ImportError:
        done = subprocess.run(["age-keygen", "-o", str(root / "key.txt")], capture_output=True, text=True, check=True)
        return done.stderr.split()[-1]


def ten_archives(root: Path, vora: Path) -> Path:
    """A folder of ten 500 MB backup archives (one archive, ten names)."""
    state = root / "list-state"
    state.mkdir()
    with open(state / "blob.bin", "wb") as out:
        for _ in range(500):
            out.write(os.urandom(1_000_000))
    folder = root / "ten"
    folder.mkdir()
    subprocess.run([str(vora), "-q", "--state-dir", str(state), "backup", "create", "--no-workspace", "--output",
                    str(folder / "a0.tar.gz")], check=True, env={**os.environ, "VORA_GATEWAY_PORT": "1"},
                   stdout=subprocess.DEVNULL)
    for n in range(1, 10):
        os.link(folder / "a0.tar.gz", folder / f"a{n}.tar.gz")
    shutil.rmtree(state)
    return folder


def main() -> None:
    with harness.Bench("backup", runs=1) as bench:
        state = build(bench.tmp)
        size = sum(p.stat().st_size for p in state.rglob("*") if p.is_file())
        archive = bench.tmp / "install.tar.gz"
        restored = bench.tmp / "restored"

        def fresh_archive() -> None:
            archive.unlink(missing_ok=True)

        def fresh_target() -> None:
            shutil.rmtree(restored, ignore_errors=True)

        sealed = bench.tmp / "install.tar.gz.age"

        def fresh_sealed() -> None:
            sealed.unlink(missing_ok=True)

        env = {"VORA_GATEWAY_PORT": "1"}  # nothing listens: the backup does not wait for a gateway
        bench.case(f"backup create ({size / 1e9:.2f} GB of transcripts)",
                   ["-q", "--state-dir", str(state), "backup", "create", "--output", str(archive), "--json"],
                   before=fresh_archive, env=env, warmup=False, budget="backup-create-1gb")
        bench.case("backup create --encrypt-to (age)",
                   ["-q", "--state-dir", str(state), "backup", "create", "--output", str(sealed),
                    "--encrypt-to", recipient(bench.tmp), "--json"],
                   before=fresh_sealed, env=env, warmup=False, budget="backup-create-encrypted", only_this=True)
        bench.case("backup verify (that archive)", ["backup", "verify", str(archive), "--json"], env=env,
                   warmup=False, budget="backup-verify-1gb")
        bench.case("backup restore --to DIR", ["backup", "restore", str(archive), "--to", str(restored), "--json"],
                   before=fresh_target, env=env, warmup=False, budget="backup-restore-1gb")
        if os.environ.get("BACKUP_BENCH_LIST", "1") != "0":
            folder = ten_archives(bench.tmp, Path(bench.this.vora))
            bench.case("backup list (ten 500 MB archives)", ["backup", "list", str(folder), "--json"], env=env,
                       budget="backup-list-10")
        bench.run()


if __name__ == "__main__":
    main()
