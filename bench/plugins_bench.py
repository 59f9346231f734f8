"""Plugin command timings (run by hand: python bench/plugins_bench.py).

- `vora plugins install -l DIR` next to `vora --version` (target: within 2x the start-up budget,
  which is 4x a bare `python -c pass`, see bench/startup.py);
- `vora plugins install DIR` of a 5,000-file, 50 MB plugin folder (copy, validate, rename, record);
- `vora plugins list` with 200 installed plugins.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "10"))
REPO = Path(__file__).resolve().parent.parent


def run(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr}")
    return elapsed


def median_ms(cmd: list[str], env: dict[str, str], runs: int = RUNS) -> float:
    return statistics.median(run(cmd, env) for _ in range(runs))


def make_plugin(root: Path, plugin_id: str, files: int = 0, file_bytes: int = 0) -> Path:
    (root / "dist").mkdir(parents=True, exist_ok=True)
    (root / "vora.plugin.json").write_text(json.dumps(
        {"id": plugin_id, "kind": "context-engine", "version": "1.0.0", "configSchema": {"type": "object"}}))
    (root / "package.json").write_text(json.dumps(
        {"name": plugin_id, "version": "1.0.0", "vora": {"extensions": ["./dist/index.js"]}}))
    (root / "dist" / "index.js").write_text(
        f'export default function register(api) {{ api.registerContextEngine("{plugin_id}", () => ({{}})); }}\n')
    blob = os.urandom(file_bytes) if file_bytes else b""
    for i in range(files):
        folder = root / "lib" / f"d{i // 100}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i}.js").write_bytes(blob)
    return root


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="vora-plugins-bench-"))
    home = work / "home"
    home.mkdir()
    # An installed vora has its bytecode cached; this sandbox sets PYTHONDONTWRITEBYTECODE,
    # which would make every run compile every module.
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "VORA_HOME": str(home), "NO_COLOR": "1",
           "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    for name in ("VORA_STATE_DIR", "VORA_CONFIG_PATH", "VORA_PROFILE"):
        env.pop(name, None)
    py = [sys.executable]
    vora = [*py, "-m", "vora_cli"]
    try:
        base = median_ms([*py, "-c", "pass"], env)
        version = median_ms([*vora, "--version"], env)
        budget = 4 * base
        print(f"python -c pass                      {base:8.1f} ms")
        print(f"vora --version                      {version:8.1f} ms  (start-up budget 4x python: {budget:.1f} ms)")

        config_set = median_ms([*vora, "config", "set", "gateway.port", "18789"], env)
        print(f"vora config set (reference write)   {config_set:8.1f} ms  {config_set / version:5.2f}x --version")

        dev = make_plugin(work / "dev" / "my-engine", "my-engine")
        link = median_ms([*vora, "plugins", "install", "-l", str(dev)], env)
        verdict = "ok" if link <= 2 * budget else "OVER target"
        print(f"plugins install -l DIR              {link:8.1f} ms  {link / version:5.2f}x --version, "
              f"{link / budget:4.2f}x budget (target <= 2x)  {verdict}")

        big = make_plugin(work / "big" / "big-engine", "big-engine", files=5000, file_bytes=10 * 1024)
        size = sum(p.stat().st_size for p in big.rglob("*") if p.is_file())
        samples = []
        for i in range(3):
            args = [*vora, "plugins", "install", str(big)] + (["--force"] if i else [])
            # Flush what earlier runs (or another checkout's bench) left dirty first: a 51 MB
            # copy otherwise pays for the writeback of the previous one, and the figure swings 3x.
            os.sync()
            samples.append(run(args, env))
        print(f"plugins install DIR (5,000 files, {size / 1e6:.0f} MB)  median of 3: {statistics.median(samples):8.1f} ms"
              f"  (first {samples[0]:.0f} ms, --force {samples[1]:.0f}/{samples[2]:.0f} ms)")

        extensions = home / ".vora" / "extensions"
        for i in range(200):
            make_plugin(extensions / f"plugin-{i:03}", f"plugin-{i:03}")
        listing = median_ms([*vora, "plugins", "list"], env)
        listing_json = median_ms([*vora, "plugins", "list", "--json"], env)
        print(f"plugins list (202 plugins)          {listing:8.1f} ms  (--json {listing_json:.1f} ms)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
