"""Plugin commands: `plugins list` on the example install and with 200 plugins, `install -l`, and
`install` of a 5,000-file, 50 MB plugin folder (copy, validate, rename, record).

    python bench/plugins_bench.py                 # VORA_BENCH_BASE=/other/checkout for A/B

Budgets `plugins-list`, `plugins-link` (docs/performance.md); BENCH_RUNS rounds (default 7;
the 50 MB install runs at most 3).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import harness


def make_plugin(root: Path, plugin_id: str, files: int = 0, file_bytes: int = 0) -> Path:
    (root / "dist").mkdir(parents=True, exist_ok=True)
    (root / "vora.plugin.json").write_text(json.dumps(
        {"id": plugin_id, "kind": "context-engine", "version": "1.0.0", "configSchema": {"type": "object"}}))
    (root / "package.json").write_text(json.dumps(
        {"name": plugin_id, "version": "1.0.0", "vora": {"extensions": ["./dist/index.js"]}}))
    (root / "dist" / "index.js").write_text(
        f'export default function register(api) {{ api.registerContextEngine("{plugin_id}", () => ({{}})); }}\n')
    blob = bytes(range(256)) * (file_bytes // 256 + 1)
    for i in range(files):
        folder = root / "lib" / f"d{i // 100}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i}.js").write_bytes(blob[:file_bytes])
    return root


def main() -> None:
    with harness.Bench("plugins", runs=7) as bench:
        example = ["--state-dir", str(harness.example_state(bench.tmp))]
        bench.case("plugins list (example)", [*example, "plugins", "list"], budget="plugins-list")

        link_state = bench.tmp / "link"
        link_state.mkdir()
        (link_state / "vora.json").write_text("{\n  gateway: { port: 18789 },\n}\n")
        dev = make_plugin(bench.tmp / "dev" / "my-engine", "my-engine")
        bench.case("plugins install -l DIR", ["--state-dir", str(link_state), "plugins", "install", "-l", str(dev)],
                   budget="plugins-link", before=harness.restorer(link_state))

        big_state = bench.tmp / "big-state"
        big_state.mkdir()
        (big_state / "vora.json").write_text("{\n  gateway: { port: 18789 },\n}\n")
        big = make_plugin(bench.tmp / "big" / "big-engine", "big-engine", files=5000, file_bytes=10 * 1024)
        size = sum(p.stat().st_size for p in big.rglob("*") if p.is_file())
        reset_big = harness.restorer(big_state)

        def before_big() -> None:
            reset_big()
            # Flush what earlier runs left dirty first: a 51 MB copy otherwise pays for the
            # writeback of the previous one, and the figure swings 3x.
            os.sync()

        bench.case(f"plugins install DIR (5,000 files, {size / 1e6:.0f} MB)",
                   ["--state-dir", str(big_state), "plugins", "install", str(big)], before=before_big, rounds=3)

        many = bench.tmp / "many"
        for i in range(200):
            make_plugin(many / "extensions" / f"plugin-{i:03}", f"plugin-{i:03}")
        shutil.copy(link_state / "vora.json", many / "vora.json")
        bench.case("plugins list (200 plugins)", ["--state-dir", str(many), "plugins", "list"])
        bench.case("plugins list --json (200 plugins)", ["--state-dir", str(many), "plugins", "list", "--json"])
        bench.run()


if __name__ == "__main__":
    main()
