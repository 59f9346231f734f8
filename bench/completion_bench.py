"""Cost of a TAB press: `vora __complete` and a whole bash round trip, next to the floor.

    python bench/completion_bench.py              # VORA_BENCH_BASE=/other/checkout for A/B

A realistic state dir (a commented vora.json with 40 plugin entries, 40 extension folders).
Budgets `complete`, `tab` (docs/performance.md); BENCH_RUNS rounds (default 20).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import harness


def make_install(state: Path) -> None:
    (state / "extensions").mkdir(parents=True)
    entries = ",\n".join(f'      "plugin-{i}": {{ enabled: true }}, // entry {i}' for i in range(40))
    (state / "vora.json").write_text(
        "// bench config\n{\n  gateway: { port: 18789 },\n  plugins: {\n    entries: {\n"
        f"{entries}\n    }},\n  }},\n}}\n"
    )
    for i in range(40):
        (state / "extensions" / f"ext-{i}").mkdir()


def tab(line: str) -> list[str]:
    """bash sources the side's completion script and completes `line` (which runs `vora __complete`
    for ids, found on PATH)."""
    words = line.split(" ")
    program = (f"source {{root}}/completions/vora.bash; COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); "
               f"COMP_CWORD={len(words) - 1}; _vora")
    return ["bash", "--norc", "--noprofile", "-c", program]


def main() -> None:
    with harness.Bench("completion", runs=20) as bench:
        make_install(bench.home / ".vora")
        path = {"PATH": "{bin}" + os.pathsep + os.environ.get("PATH", "")}
        bench.case("vora __complete plugins", ["__complete", "plugins"], budget="complete")
        bench.case("vora __complete config-paths", ["__complete", "config-paths"], budget="complete")
        bench.case("bash TAB: vora config get plugins.entries.", tab("vora config get plugins.entries."),
                   budget="tab", program="exec", env=path)
        bench.case("bash TAB: vora config  (static, no process)", tab("vora config "), program="exec", env=path)
        bench.run()


if __name__ == "__main__":
    main()
