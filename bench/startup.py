"""Start-up: `vora --version` (and `--json`), `vora --help` and `vora config file` next to the floor.

    python bench/startup.py                       # this checkout
    VORA_BENCH_BASE=/work/main python bench/startup.py   # A/B against another checkout

Budgets `version`, `version-json`, `help`, `config-file` (docs/performance.md); BENCH_RUNS rounds (default 20).
"""

from __future__ import annotations

import harness


def main() -> None:
    with harness.Bench("startup", runs=20) as bench:
        bench.case("vora --version", ["--version"], budget="version")
        bench.case("vora --version --json", ["--version", "--json"], budget="version-json")
        bench.case("vora --help", ["--help"], budget="help")
        bench.case("vora config file", ["config", "file"], budget="config-file")
        bench.run()


if __name__ == "__main__":
    main()
