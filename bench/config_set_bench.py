"""What the gateway's validation costs a `config set` (issue 19), and `config validate` on a big
config the gateway accepts.

    python bench/config_set_bench.py              # VORA_BENCH_BASE=/checkout/without/it for A/B

The example install, a 1 MB config the gateway accepts (an `agents.list` of 2,000 commented
agents), and a plugin config (`plugins.entries.<id>.config`, checked against the plugin's
`configSchema`); the file restored before each run. A driver in each checkout's venv prints the
validator's own share (import, load and compile one top-level key's schema, validate; then every
other key), n/a on a checkout without it. Budgets `config-set`, `config-set-1mb`
(docs/performance.md); BENCH_RUNS rounds (default 10).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import harness

FIXTURE = harness.REPO / "tests" / "data" / "plugins" / "fixtures" / "bounds-plugin"
DRIVER = r"""
import time
t0 = time.perf_counter(); import jsonschema_rs; t1 = time.perf_counter()
from vora_cli.core.config import gateway as g
for key in ("gateway", "agents", "plugins", "channels"):
    a = time.perf_counter(); schema = g.top_schema(key); b = time.perf_counter(); g._validator(schema); c = time.perf_counter()
    print(f"{key:9} load {1000*(b-a):5.1f} ms  compile {1000*(c-b):5.1f} ms")
a = time.perf_counter(); issues = g.schema_issues({"gateway": {"port": 18790}}, ["gateway"]); b = time.perf_counter()
print(f"validate gateway (compiled): {1000*(b-a):.2f} ms; import jsonschema_rs {1000*(t1-t0):.1f} ms")
a = time.perf_counter(); [g._validator(g.top_schema(k)) for k in g.top_level_keys()]; b = time.perf_counter()
print(f"every other key, load + compile: {1000*(b-a):.1f} ms")
"""


def big_valid_config(agents: int = 2000) -> str:
    lines = ["// a big config the gateway accepts: many agents, each with its notes\n{\n",
             "  gateway: { port: 18789, bind: 'loopback' },\n  agents: {\n    list: [\n"]
    for i in range(agents):
        lines.append(f"      /* agent {i}: the team that owns it keeps notes here, next to the entry, "
                     f"as operators do */\n      {{ id: 'agent-{i}', workspace: '~/ws/agent-{i}' }}, // agent {i}\n")
    lines.append("    ],\n  },\n}\n")
    return "".join(lines)


def main() -> None:
    with harness.Bench("config_set", runs=10) as bench:
        small = harness.example_state(bench.tmp)
        big = bench.tmp / "big"
        big.mkdir()
        (big / "vora.json").write_text(big_valid_config())
        plug = bench.tmp / "plugin"
        (plug / "extensions").mkdir(parents=True)
        shutil.copytree(FIXTURE, plug / "extensions" / "bounds-plugin")
        (plug / "vora.json").write_text(
            '{\n  plugins: { entries: { "bounds-plugin": { config: { max_iterations: 5 } } } },\n}\n')

        def case(label: str, state: Path, *args: str, budget: str | None = None) -> None:
            bench.case(label, ["--state-dir", str(state), *args], budget=budget, before=harness.restorer(state))

        case("config set gateway.port (example)", small, "config", "set", "gateway.port", "18790", budget="config-set")
        case("config set gateway.port (1 MB, 2,000 agents)", big, "config", "set", "gateway.port", "18790",
             budget="config-set-1mb")
        case("config set plugin config (its schema)", plug, "config", "set",
             "plugins.entries.bounds-plugin.config.max_iterations", "50", budget="config-set")
        case("config validate (1 MB, 2,000 agents)", big, "config", "validate")
        bench.case("the validator's own share (in-process)", ["-c", DRIVER], program="python", show=True)
        bench.run()


if __name__ == "__main__":
    main()
