"""`vora security audit` on the example install, beside the gateway's own audit on the same state.

    python bench/security_bench.py [/work/upstream/oc]   # VORA_BENCH_BASE=/other/checkout for A/B

The state is examples/vora as a checkout leaves it (dirs 0755, files 0644; the plugin beside
it). With the gateway's CLI given (openclaw 2026.4.12's `security audit --json`, run from the
state dir with a scratch HOME), its audit is measured too, on this side only (it does not depend
on the checkout). Budget `security-audit` (docs/performance.md); BENCH_RUNS rounds (default 7,
the gateway's at most 3).
"""

from __future__ import annotations

import sys

import harness

sys.path.insert(0, str(harness.REPO / "tests" / "support"))

from security_states import example


def main(argv: list[str]) -> None:
    gateway = argv[1] if len(argv) > 1 else None
    with harness.Bench("security", runs=7) as bench:
        state = example(bench.tmp / "install")
        bench.case("config file", ["--state-dir", str(state), "config", "file"], budget="config-file")
        bench.case("security audit --json (example)", ["--state-dir", str(state), "security", "audit", "--json"],
                   budget="security-audit", expect=1)
        if gateway:
            bench.case("gateway's security audit --json (same state)", [gateway, "security", "audit", "--json"],
                       program="exec", rounds=3, only_this=True, expect=1,
                       env={"OC_STATE": str(state), "OC_HOME": str(bench.tmp / "oc-home")})
        bench.run()


if __name__ == "__main__":
    main(sys.argv)
