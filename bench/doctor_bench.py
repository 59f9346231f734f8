"""`vora doctor` on the example install, on a heavy one and on a config over the 2 MiB limit.

    python bench/doctor_bench.py                  # VORA_BENCH_BASE=/other/checkout for A/B

Heavy: 200 plugins in the extensions dir (manifest, package.json, built entry) and a 15 MB
workspace (eight 1.9 MB bootstrap files). Budgets `doctor`, `doctor-over-limit`
(docs/performance.md); BENCH_RUNS rounds (default 7).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import harness
import scale

BOOTSTRAP = ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md", "BOOTSTRAP.md", "MEMORY.md"]


def build_heavy(root: Path) -> Path:
    state = root / "heavy"
    ws = state / "workspace"
    ws.mkdir(parents=True)
    os.chmod(state, 0o700)
    line = "## Section\n" + ("lorem ipsum dolor sit amet " * 3 + "\n") * 20
    block = (line * (1_900_000 // len(line) + 1))[:1_900_000]
    for name in BOOTSTRAP:
        (ws / name).write_text(block)
    entries = {}
    for i in range(200):
        pid = f"plugin-{i:03d}"
        folder = state / "extensions" / pid
        (folder / "dist").mkdir(parents=True)
        kind = '"context-engine"' if i % 2 == 0 else '"memory"'
        (folder / "vora.plugin.json").write_text(
            f'// plugin {i}\n{{ id: "{pid}", kind: {kind}, configSchema: {{}}, version: "1.0.{i}" }}\n')
        (folder / "package.json").write_text(json.dumps(
            {"name": pid, "version": f"1.0.{i}", "vora": {"extensions": ["./dist/index.js"]}}))
        (folder / "dist" / "index.js").write_text(
            f'export default (api) => {{ api.registerContextEngine("{pid}", () => ({{}})); }};\n')
        entries[pid] = {"enabled": True}
    config = {
        "agents": {"defaults": {"workspace": "./workspace"}},
        "plugins": {"slots": {"contextEngine": "plugin-000", "memory": "plugin-001"}, "entries": entries},
    }
    (state / "vora.json").write_text("// heavy bench install\n" + json.dumps(config, indent=2) + "\n")
    os.chmod(state / "vora.json", 0o600)
    return state


def over_limit(root: Path) -> Path:
    state = root / "over"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text(scale.over_limit_config())
    os.chmod(state / "vora.json", 0o600)
    return state


def main() -> None:
    with harness.Bench("doctor", runs=7) as bench:
        example = harness.example_state(bench.tmp)
        bench.case("doctor --json (example)", ["--state-dir", str(example), "doctor", "--json"], budget="doctor")
        bench.case("doctor --json (200 plugins + 15 MB workspace)",
                   ["--state-dir", str(build_heavy(bench.tmp)), "doctor", "--json"])
        bench.case("doctor --json (config over 2 MiB)", ["--state-dir", str(over_limit(bench.tmp)), "doctor", "--json"],
                   budget="doctor-over-limit", expect=1)
        bench.run()


if __name__ == "__main__":
    main()
