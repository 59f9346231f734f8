"""`vora context json` on a heavy workspace (run by hand: python bench/context_bench.py).

8 bootstrap files of 1.9 MB each (mixed ASCII, CJK and emoji, Markdown headings) plus 300
skills. Prints the median wall time over N runs against a 0.5 s target, and the peak RSS of
the child process.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "7"))
TARGET_S = 0.5
FILE_BYTES = 1_900_000
NAMES = [
    "AGENTS.md",
    "SOUL.md",
    "TOOLS.md",
    "IDENTITY.md",
    "USER.md",
    "HEARTBEAT.md",
    "BOOTSTRAP.md",
    "MEMORY.md",
]
REPO = Path(__file__).resolve().parent.parent


def make_file(path: Path, rng: random.Random) -> None:
    parts: list[str] = []
    size = 0
    i = 0
    while size < FILE_BYTES:
        i += 1
        if i % 40 == 0:
            line = f"## Section {i}\n"
        elif i % 7 == 0:
            line = "漢字かな交じり文 " * 6 + "\U0001f600\n"
        else:
            line = "".join(rng.choice("abcdefghij klmnop") for _ in range(90)) + "\n"
        parts.append(line)
        size += len(line.encode())
    path.write_bytes("".join(parts).encode()[:FILE_BYTES])


def build(root: Path) -> Path:
    rng = random.Random(7)
    state = root / "state"
    ws = state / "workspace"
    ws.mkdir(parents=True)
    (state / "vora.json").write_text("{ agents: { defaults: { workspace: './workspace' } } }\n")
    for name in NAMES:
        make_file(ws / name, rng)
    for i in range(300):
        d = ws / "skills" / f"skill-{i:03d}"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(
            f"---\nname: skill-{i:03d}\ndescription: Does thing {i} & more\n---\nBody\n"
        )
    return state


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="vora-context-bench-") as tmp:
        root = Path(tmp)
        state = build(root)
        # An installed vora has its bytecode cached; this sandbox sets PYTHONDONTWRITEBYTECODE,
        # which would make every run compile every module.
        env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "VORA_HOME": str(root / "home"), "NO_COLOR": "1"}
        env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
        cmd = [sys.executable, "-m", "vora_cli", "--state-dir", str(state), "context", "json"]
        samples = []
        for _ in range(RUNS):
            start = time.perf_counter()
            proc = subprocess.run(cmd, env=env, capture_output=True, check=False)
            samples.append(time.perf_counter() - start)
            if proc.returncode != 0:
                sys.exit(f"vora failed: {proc.stderr.decode()}")
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        median = statistics.median(samples)
        verdict = "OK" if median <= TARGET_S else "OVER TARGET"
        print(f"vora context json: 8 x {FILE_BYTES:,} B files + 300 skills")
        print(
            f"median {median:.3f} s over {RUNS} runs (min {min(samples):.3f} s) — target {TARGET_S} s: {verdict}"
        )
        print(f"peak RSS of a run: {peak_kb / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
