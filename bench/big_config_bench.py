"""`config validate`, `doctor`, `security audit` and backup planning on a config at the 2 MiB limit
with thousands of members and thousands of problems (issue 35, point 3).

    python bench/big_config_bench.py              # VORA_BENCH_BASE=/other/checkout for A/B

The config is the shape a big install writes (tests/support/config_support.real_shaped_config):
12,000 agents, 12,000 plugin entries (each naming a plugin that is not installed: a problem
`validate` and `doctor` report with its line) and 8,000 bindings, one member a line, about 2.0 MB.
Before issue 35 `config validate` took over 120 s on it, `doctor` 72 s, `security audit` 17 s and
`backup create --dry-run` 46 s. A second config holds 8,000 model providers with three secrets
each (24,000 in all, about 1.9 MB): doctor and the audit hide every known secret in every text
they show. Budget `big-config` (docs/performance.md); BENCH_RUNS rounds
(default 3).
"""

from __future__ import annotations

import os
from pathlib import Path

import harness
import scale
from config_support import real_shaped_config


def main() -> None:
    with harness.Bench("big-config", runs=3) as bench:
        state = Path(bench.tmp) / "big"
        state.mkdir(mode=0o700)
        text = real_shaped_config(agents=12_000, entries=12_000, bindings=8_000)
        assert len(text.encode()) <= scale.CONFIG_LIMIT
        (state / "vora.json").write_text(text)
        os.chmod(state / "vora.json", 0o600)

        def case(label: str, *args: str) -> None:
            bench.case(label, ["--state-dir", str(state), *args], budget="big-config")

        case("config validate (12,000 problems)", "config", "validate")
        case("doctor --json", "doctor", "--json")
        case("security audit --json", "security", "audit", "--json")
        case("backup create --dry-run --no-workspace --json", "backup", "create", "--dry-run", "--no-workspace",
             "--json")
        case("backup create --dry-run --json (12,000 workspaces)", "backup", "create", "--dry-run", "--json")

        # secrets in every member: each text doctor and the audit show is searched for every one
        secrets = Path(bench.tmp) / "secrets"
        secrets.mkdir(mode=0o700)
        text = real_shaped_config(agents=1_000, entries=0, bindings=0, providers=8_000)
        assert len(text.encode()) <= scale.CONFIG_LIMIT
        (secrets / "vora.json").write_text(text)
        os.chmod(secrets / "vora.json", 0o600)
        for label, args in (("doctor --json (24,000 secrets)", ("doctor", "--json")),
                            ("security audit --json (24,000 secrets)", ("security", "audit", "--json")),
                            ("config validate (24,000 secrets)", ("config", "validate"))):
            bench.case(label, ["--state-dir", str(secrets), *args], budget="big-config")
        bench.run()


if __name__ == "__main__":
    main()
