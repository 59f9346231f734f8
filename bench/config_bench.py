"""`vora config` on the example install, on a 1 MB commented config and on a 2 MB one.

    python bench/config_bench.py                  # VORA_BENCH_BASE=/other/checkout for A/B

Budgets `config-file`, `config-get`, `config-set`, `config-validate`, `config-set-1mb`,
`config-validate-2mb` (docs/performance.md); BENCH_RUNS rounds (default 10). `config get` and
`config validate` on the 1 MB and the 2 MB config are also counted under callgrind when valgrind is
installed: `config-validate-2mb` is the slope of the one against the other's, in instructions.
"""

from __future__ import annotations

import harness
import scale


def main() -> None:
    with harness.Bench("config", runs=10) as bench:
        example = harness.example_state(bench.tmp)
        at = ["--state-dir", str(example)]
        bench.case("config file", [*at, "config", "file"], budget="config-file")
        bench.case("config get gateway.port (example)", [*at, "config", "get", "gateway.port"], budget="config-get")
        bench.case("config set gateway.port (example)", [*at, "config", "set", "gateway.port", "18790"],
                   budget="config-set", before=harness.restorer(example))
        bench.case("config validate (example)", [*at, "config", "validate"], budget="config-validate")

        big = bench.tmp / "big"
        big.mkdir()
        text = scale.commented_config(1_000_000)

        def reset_big() -> None:
            (big / "vora.json").write_text(text)

        reset_big()
        bench.case(f"config set (1 MB commented, {len(text):,} B)",
                   ["--state-dir", str(big), "config", "set", "gateway.port", "20000"],
                   budget="config-set-1mb", before=reset_big)
        get_1mb = bench.case("config get gateway.port (1 MB)",
                             ["--state-dir", str(big), "config", "get", "gateway.port"], counted=True)
        # exit 1: the gateway's schema refuses its ~5,000 unknown top-level keys (issue 19)
        validate_1mb = bench.case("config validate (1 MB)", ["--state-dir", str(big), "config", "validate"],
                                  expect=1, counted=True)

        two = bench.tmp / "two"
        two.mkdir()
        (two / "vora.json").write_text(scale.commented_config(2_000_000))
        # The budget compares how each grows from the 1 MB config to the 2 MB one: what `validate`
        # adds per node is what it is about, not the validator's fixed cost (its modules, its first
        # look at the schema).
        bench.case("config get gateway.port (2 MB)", ["--state-dir", str(two), "config", "get", "gateway.port"],
                   budget="config-get-2mb", smaller=get_1mb, counted=True)
        # exit 1: the gateway's schema refuses its 10,000 unknown top-level keys (issue 19)
        bench.case("config validate (2 MB)", ["--state-dir", str(two), "config", "validate"],
                   budget="config-validate-2mb", expect=1, smaller=validate_1mb, counted=True)
        bench.run()


if __name__ == "__main__":
    main()
