"""`vora config` on the example install, on a 1 MB commented config and on a 2 MB one.

    python bench/config_bench.py                  # VORA_BENCH_BASE=/other/checkout for A/B

Budgets `config-file`, `config-get`, `config-set`, `config-validate`, `config-set-1mb`,
`config-validate-2mb` (docs/performance.md); BENCH_RUNS rounds (default 10). The 1 MB cases run
with vora's parse cache as a user has it (the first round parses and keeps the parse) and, for
reference, without one (every round parses the text). `config get` and `config validate` on the
1 MB and the 2 MB config, parsing, are also counted under callgrind when valgrind is installed:
`config-validate-2mb` is the slope of the one against the other's, in instructions.
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
        # A cache dir whose `parsed` folder is a file: no parse is found or kept there
        # (core/config/parse_cache.py), the schema verdicts are as usual.
        xdg = bench.tmp / "xdg-cache"
        (xdg / "vora").mkdir(parents=True)
        (xdg / "vora" / "parsed").write_text("not a folder\n")
        no_parse_cache = {"XDG_CACHE_HOME": str(xdg)}
        # The text as vora last read or wrote it (its parse in vora's parse cache after the first
        # round), then a text never seen (the cache dir unusable: every round parses).
        bench.case(f"config set (1 MB commented, {len(text):,} B)",
                   ["--state-dir", str(big), "config", "set", "gateway.port", "20000"],
                   budget="config-set-1mb", before=reset_big)
        bench.case("config set (1 MB, never seen: parsed)",
                   ["--state-dir", str(big), "config", "set", "gateway.port", "20000"],
                   before=reset_big, env=no_parse_cache)
        get_1mb = bench.case("config get gateway.port (1 MB, never seen: parsed)",
                             ["--state-dir", str(big), "config", "get", "gateway.port"], env=no_parse_cache,
                             counted=True)
        # exit 1: the gateway's schema refuses its ~5,000 unknown top-level keys (issue 19)
        validate_1mb = bench.case("config validate (1 MB, never seen: parsed)",
                                  ["--state-dir", str(big), "config", "validate"], expect=1, env=no_parse_cache,
                                  counted=True)

        two = bench.tmp / "two"
        two.mkdir()
        (two / "vora.json").write_text(scale.commented_config(2_000_000))
        # The budget compares how each grows from the 1 MB config to the 2 MB one as it parses the
        # file (the parse cache unusable): what `validate` adds per node is what it is about, not
        # the validator's fixed cost (its modules, its first look at the schema). With the parse
        # cache warm `get` costs almost nothing while `validate` still runs the gateway's
        # validator on the 10,000 keys it refuses (a refusal is never cached): printed beside it.
        bench.case("config get gateway.port (2 MB, parsed)", ["--state-dir", str(two), "config", "get", "gateway.port"],
                   budget="config-get-2mb", env=no_parse_cache, smaller=get_1mb, counted=True)
        # exit 1: the gateway's schema refuses its 10,000 unknown top-level keys (issue 19)
        bench.case("config validate (2 MB, parsed)", ["--state-dir", str(two), "config", "validate"],
                   budget="config-validate-2mb", expect=1, env=no_parse_cache, smaller=validate_1mb,
                   counted=True)
        bench.case("config get gateway.port (2 MB)", ["--state-dir", str(two), "config", "get", "gateway.port"])
        bench.case("config validate (2 MB)", ["--state-dir", str(two), "config", "validate"], expect=1)
        bench.run()


if __name__ == "__main__":
    main()
