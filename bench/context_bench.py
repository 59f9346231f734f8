"""`vora context` on the example install and on a heavy workspace.

    python bench/context_bench.py                 # VORA_BENCH_BASE=/other/checkout for A/B

Heavy: 8 bootstrap files of 1.9 MB each (mixed ASCII, CJK and emoji, Markdown headings) plus 300
skills. Budgets `context-list`, `context-json`, `context-json-heavy` (docs/performance.md);
BENCH_RUNS rounds (default 7).
"""

from __future__ import annotations

import random
from pathlib import Path

import harness

FILE_BYTES = 1_900_000
NAMES = ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md", "MEMORY.md"]


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


def heavy(root: Path) -> Path:
    rng = random.Random(7)
    state = root / "heavy"
    ws = state / "workspace"
    ws.mkdir(parents=True)
    (state / "vora.json").write_text("{ agents: { defaults: { workspace: './workspace' } } }\n")
    for name in NAMES:
        make_file(ws / name, rng)
    for i in range(300):
        d = ws / "skills" / f"skill-{i:03d}"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(f"---\nname: skill-{i:03d}\ndescription: Does thing {i} & more\n---\nBody\n")
    return state


def main() -> None:
    with harness.Bench("context", runs=7) as bench:
        example = ["--state-dir", str(harness.example_state(bench.tmp))]
        bench.case("context list (example)", [*example, "context", "list"], budget="context-list")
        bench.case("context json (example)", [*example, "context", "json"], budget="context-json")
        bench.case("context json (8 x 1.9 MB + 300 skills)", ["--state-dir", str(heavy(bench.tmp)), "context", "json"],
                   budget="context-json-heavy")
        bench.run()


if __name__ == "__main__":
    main()
