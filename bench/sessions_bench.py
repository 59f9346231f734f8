"""`vora sessions` and `vora context --session`, on the example install and at scale.

    python bench/sessions_bench.py                # VORA_BENCH_BASE=/other/checkout for A/B
    SESSIONS_BENCH_SCALE=0 python bench/sessions_bench.py   # the small cases only

Small: the example install; 10 agents x 100 sessions (each with a run report, transcripts
present); a store of 1,000 sessions. Scale (bench/scale.py, built in the temp dir and removed
after): one store of 100,000 sessions (~260 MB), a 200 MB transcript (~95,000 entries, 3
compactions, a branch, lines up to 5 MB) and a 1 GB one. Budgets `sessions-list`,
`sessions-show`, `sessions-list-1k`, `context-session-1k`, `sessions-list-100k`,
`context-session-100k`, `sessions-show-200mb`, `sessions-show-1gb` (docs/performance.md);
BENCH_RUNS rounds (default 5; the scale cases run at most 3, the 1 GB one once).
"""

from __future__ import annotations

import os

import harness
import scale

ENV = {"VORA_NOW_MS": str(scale.NOW)}


def main() -> None:
    with harness.Bench("sessions", runs=5) as bench:
        example = ["--state-dir", str(harness.example_state(bench.tmp))]
        bench.case("sessions list (example)", [*example, "sessions", "list"], budget="sessions-list", env=ENV)
        bench.case("sessions show main (example)", [*example, "sessions", "show", "main"], budget="sessions-show",
                   env=ENV)

        agents = [f"agent{i}" for i in range(10)]
        ten = scale.state_with_agents(bench.tmp / "ten", agents)
        for n, agent in enumerate(agents):
            scale.session_store(ten, 100, agent=agent, offset=n * 100)
        bench.case("sessions list --all-agents --json (10 x 100)",
                   ["--state-dir", str(ten), "sessions", "list", "--all-agents", "--json"], budget="sessions-list-1k",
                   env=ENV)

        one = scale.state_with_agents(bench.tmp / "one", ["main"])
        scale.session_store(one, 1000)
        bench.case("context list (workspace only, reference)", ["--state-dir", str(one), "context", "list"], env=ENV)
        bench.case("context list --session (store of 1,000)",
                   ["--state-dir", str(one), "context", "list", "--session", "agent:main:main"],
                   budget="context-session-1k", env=ENV)

        if os.environ.get("SESSIONS_BENCH_SCALE", "1") != "0":
            big_store = scale.state_with_agents(bench.tmp / "s100k", ["main"])
            scale.session_store(big_store, 100_000)
            at = ["--state-dir", str(big_store)]
            bench.case("sessions list (100,000)", [*at, "sessions", "list"], budget="sessions-list-100k", env=ENV,
                       rounds=3, warmup=False)
            bench.case("sessions list --json (100,000)", [*at, "sessions", "list", "--json"],
                       budget="sessions-list-100k", env=ENV, rounds=3, warmup=False)
            bench.case("context list --session (store of 100,000)",
                       [*at, "context", "list", "--session", "agent:main:telegram:direct:u77777"],
                       budget="context-session-100k", env=ENV, rounds=3, warmup=False)

            show = scale.state_with_agents(bench.tmp / "show", ["main"])
            scale.session_store(show, 1000)
            key, _path, _n = scale.big_transcript(show, 200_000_000)
            at = ["--state-dir", str(show)]
            bench.case("sessions show (200 MB transcript)", [*at, "sessions", "show", key],
                       budget="sessions-show-200mb", env=ENV, rounds=3, warmup=False)
            bench.case("sessions show --json (200 MB transcript)", [*at, "sessions", "show", key, "--json"],
                       budget="sessions-show-200mb", env=ENV, rounds=3, warmup=False)

            huge = scale.state_with_agents(bench.tmp / "huge", ["main"])
            scale.session_store(huge, 10)
            key, _path, _n = scale.big_transcript(huge, 1_000_000_000)
            bench.case("sessions show --json (1 GB transcript)", ["--state-dir", str(huge), "sessions", "show", key,
                                                                 "--json"], budget="sessions-show-1gb", env=ENV,
                       rounds=1, warmup=False)
        bench.run()


if __name__ == "__main__":
    main()
