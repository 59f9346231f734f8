"""`vora sessions` and `vora context --session` at scale (run by hand: python bench/sessions_bench.py).

1. `sessions list --all-agents --json` over 1,000 sessions (10 agents x 100, each with a run
   report, transcripts present): target 0.5 s, and no transcript opened.
2. `sessions show KEY --json` on a 200 MB transcript (~100,000 entries, 3 compactions, a
   branch, lines up to 5 MB): targets 2 s and 80 MiB peak RSS.
3. `context list --session KEY` on a store of 1,000 sessions (2.5 MB) against plain
   `context list` on the example workspace: target <= the cost of `context list` before sessions
   existed (set VORA_BENCH_BASE to an older checkout with its own .venv to measure it), and <= 0.5 s.

Prints the median wall time of each (BENCH_RUNS runs, default 5) and each run's peak RSS.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "support"))

from sessions_support import NOW, run_report  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
BIG_BYTES = 200 * 1000 * 1000


def build_stores(state: Path, n_agents: int, per_agent: int) -> None:
    agents = [f"agent{i}" for i in range(n_agents)]
    state.mkdir(parents=True)
    listing = ", ".join(f"{{ id: '{a}'{', default: true' if i == 0 else ''} }}" for i, a in enumerate(agents))
    (state / "vora.json").write_text(f"{{ agents: {{ defaults: {{ workspace: './workspace' }}, list: [{listing}] }} }}\n")
    # the example install's workspace: a TOOLS.md over the cap, skills (what `context list` reads)
    shutil.copytree(REPO / "examples" / "vora" / "workspace", state / "workspace")
    header = json.dumps({"type": "session", "version": 3, "id": "x", "timestamp": "2025-11-30T00:00:00Z", "cwd": "/"})
    for a, agent in enumerate(agents):
        folder = state / "agents" / agent / "sessions"
        folder.mkdir(parents=True)
        entries = {}
        for i in range(per_agent):
            sid = f"{agent}-s{i:03d}"
            (folder / f"{sid}.jsonl").write_text(header + "\n")
            entries[f"agent:{agent}:telegram:direct:u{i}" if i else f"agent:{agent}:main"] = {
                "sessionId": sid, "updatedAt": NOW - (a * 100 + i) * 60_000, "sessionFile": str(folder / f"{sid}.jsonl"),
                "chatType": "direct", "model": "claude-sonnet-4-5", "modelProvider": "anthropic",
                "inputTokens": 12_000, "outputTokens": 400, "totalTokens": 12_400 + i, "totalTokensFresh": True,
                "contextTokens": 200_000, "compactionCount": i % 4, "systemPromptReport": run_report(sessionId=sid),
            }
        (folder / "sessions.json").write_text(json.dumps(entries, indent=2))


def build_big(state: Path) -> str:
    """A 200 MB transcript in agent0's store, returned as its key."""
    folder = state / "agents" / "agent0" / "sessions"
    path = folder / "big.jsonl"
    filler = "lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 24  # ~1.4 KB
    huge = "x" * (5 * 1000 * 1000 - 200)
    count = 0
    parent: str | None = None
    written = 0
    compactions = 0
    branch_from: str | None = None
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps({"type": "session", "version": 3, "id": "big", "timestamp": "2025-11-30T00:00:00Z",
                              "cwd": "/"}) + "\n")
        while written < BIG_BYTES:
            count += 1
            entry_id = f"{count:08x}"
            if count % 25_000 == 0 and compactions < 3:
                compactions += 1
                line = {"type": "compaction", "id": entry_id, "parentId": parent, "timestamp": "t",
                        "summary": "summary " * 500, "firstKeptEntryId": f"{count - 200:08x}", "tokensBefore": 180_000}
            elif count % 9_000 == 0:
                line = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "t",
                        "message": {"role": "toolResult", "toolCallId": "c", "toolName": "read",
                                    "content": [{"type": "text", "text": huge}], "isError": False}}
            elif count % 2 == 0:
                line = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "t",
                        "message": {"role": "assistant", "content": [
                            {"type": "text", "text": filler},
                            {"type": "toolCall", "id": "c", "name": "exec", "arguments": {"command": "ls", "n": count}}],
                            "provider": "anthropic", "model": "claude", "stopReason": "toolUse"}}
            else:
                line = {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "t",
                        "message": {"role": "user", "content": filler}}
            if count == 90_000:
                branch_from = parent
            if count == 90_050 and branch_from is not None:
                line["parentId"] = branch_from  # a branch: back to an earlier entry
            text = json.dumps(line, ensure_ascii=False) + "\n"
            out.write(text)
            written += len(text)
            parent = entry_id
    store = folder / "sessions.json"
    entries = json.loads(store.read_text())
    entries["agent:agent0:big"] = {"sessionId": "big", "updatedAt": NOW, "sessionFile": "big.jsonl",
                                   "totalTokens": 150_000, "contextTokens": 200_000}
    store.write_text(json.dumps(entries, indent=2))
    print(f"big transcript: {written / 1e6:.0f} MB, {count:,} entries, {compactions} compactions, a branch")
    return "agent:agent0:big"


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return elapsed, usage.ru_maxrss / 1024


def measure(label: str, cmd: list[str], env: dict[str, str], runs: int, target: float | None) -> float:
    samples = [timed(cmd, env) for _ in range(runs)]
    median = statistics.median(s for s, _m in samples)
    peak = max(m for _s, m in samples)
    verdict = "" if target is None else f" — target {target} s: {'OK' if median <= target else 'OVER TARGET'}"
    print(f"{label}: median {median:.3f} s (min {min(s for s, _m in samples):.3f} s), peak RSS {peak:.1f} MiB{verdict}")
    return median


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="vora-sessions-bench-") as tmp:
        root = Path(tmp)
        state = root / "state"
        build_stores(state, 10, 100)
        one_store = root / "one"
        build_stores(one_store, 1, 1000)
        env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
               "VORA_HOME": str(root / "home"), "NO_COLOR": "1", "VORA_NOW_MS": str(NOW)}
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        vora = [sys.executable, "-m", "vora_cli", "--state-dir", str(state)]
        measure("sessions list --all-agents --json (1,000 sessions)", [*vora, "sessions", "list", "--all-agents", "--json"],
                env, RUNS, 0.5)
        one = [sys.executable, "-m", "vora_cli", "--state-dir", str(one_store)]
        plain = measure("context list (workspace only)", [*one, "context", "list"], env, RUNS, None)
        with_session = measure("context list --session (store of 1,000 sessions)",
                               [*one, "context", "list", "--session", "agent:agent0:main"], env, RUNS, 0.5)
        print(f"  ratio context list --session / context list: {with_session / plain:.2f}")
        # The target is the cost of `context list` *today* (before sessions existed): with
        # VORA_BENCH_BASE=<an older checkout with its own .venv>, measure that one on the same store.
        base = os.environ.get("VORA_BENCH_BASE")
        if base:
            old_env = {**env, "PYTHONPATH": base}
            old = [str(Path(base) / ".venv" / "bin" / "python"), "-m", "vora_cli", "--state-dir", str(one_store)]
            before = measure(f"context list, {base}", [*old, "context", "list"], old_env, RUNS, None)
            print(f"  ratio context list --session / context list of {base}: {with_session / before:.2f} (target <= 1)")
        key = build_big(state)
        show = measure("sessions show --json (200 MB transcript)", [*vora, "sessions", "show", key, "--json"],
                       env, max(1, RUNS // 2), 2.0)
        print(f"  throughput: {BIG_BYTES / 1e6 / show:.0f} MB/s; peak RSS target 80 MiB")


if __name__ == "__main__":
    main()
