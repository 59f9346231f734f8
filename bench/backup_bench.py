"""`vora backup create / verify / restore` on a state dir with 1 GB of transcripts.

    python bench/backup_bench.py                  # VORA_BENCH_BASE=/other/checkout for A/B

50 agents' transcripts of ~20 MB each in JSONL as the gateway writes it (varied text, tool
results, usage numbers), a session store, a workspace; built in the bench's temp dir and removed
after, archive and restored copy too. Each command runs once per round, in order (create, then
verify and restore of that archive); memory must stay flat: every step streams, nothing holds a
file whole. BACKUP_BENCH_MB sets the size (default 1000, MB of 10^6 bytes); BENCH_RUNS rounds
(default 1). No budget (docs/backup.md has the figures).
"""

from __future__ import annotations

import json
import os
import random
import shutil
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

        env = {"VORA_GATEWAY_PORT": "1"}  # nothing listens: the backup does not wait for a gateway
        bench.case(f"backup create ({size / 1e9:.2f} GB of transcripts)",
                   ["-q", "--state-dir", str(state), "backup", "create", "--output", str(archive), "--json"],
                   before=fresh_archive, env=env, warmup=False)
        bench.case("backup verify (that archive)", ["backup", "verify", str(archive), "--json"], env=env,
                   warmup=False)
        bench.case("backup restore --to DIR", ["backup", "restore", str(archive), "--to", str(restored), "--json"],
                   before=fresh_target, env=env, warmup=False)
        bench.run()


if __name__ == "__main__":
    main()
