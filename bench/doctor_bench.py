"""`vora doctor` on the example install and on a heavy one (run by hand: python bench/doctor_bench.py).

Heavy: 200 plugins in the extensions dir (manifest, package.json, built entry) and a 15 MB
workspace (eight 1.9 MB bootstrap files). Prints the median wall time of the whole process
over N runs (targets: 0.3 s on the example install) and its peak RSS (target 60 MiB), plus the
median time of `run_doctor` alone, in-process, so interpreter start-up on a loaded machine can
be told apart from the doctor's own work. Runs with the bytecode cache on, as an installed vora.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "7"))
TARGET_S = 0.3
TARGET_MIB = 60
REPO = Path(__file__).resolve().parent.parent
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


def measure(state: Path) -> tuple[float, float, float, int]:
    """Median wall time of `vora doctor --json` and of `vora config file`, interleaved run by run
    (so both see the same machine load), peak RSS so far (MiB) and doctor's exit code."""
    doctor = [sys.executable, "-m", "vora_cli", "--state-dir", str(state), "doctor", "--json"]
    version = [sys.executable, "-m", "vora_cli", "config", "file"]  # a full CLI start (--version skips it)
    # An installed vora has its bytecode cached; measure that (this sandbox sets
    # PYTHONDONTWRITEBYTECODE, which would make every run compile every module).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(REPO)
    subprocess.run(doctor, env=env, stdout=subprocess.DEVNULL, check=False)  # warm the bytecode cache
    times: list[float] = []
    base: list[float] = []
    code = 0
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(version, env=env, stdout=subprocess.DEVNULL, check=False)
        base.append(time.perf_counter() - start)
        start = time.perf_counter()
        code = subprocess.run(doctor, env=env, stdout=subprocess.DEVNULL, check=False).returncode
        times.append(time.perf_counter() - start)
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return statistics.median(times), statistics.median(base), peak_mib, code


def in_process(state: Path) -> float:
    sys.path.insert(0, str(REPO))
    from vora_cli.core.doctor import run_doctor
    from vora_cli.core.paths import resolve_paths

    paths = resolve_paths(state_dir=str(state))
    run_doctor(paths)  # warm the imports
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run_doctor(paths)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(REPO / "examples", root / "examples")
        cases = [("example install", root / "examples" / "vora"), ("200 plugins + 15 MB workspace", build_heavy(root))]
        for label, state in cases:
            wall, baseline, peak, code = measure(state)
            core = in_process(state)
            verdict = "ok" if wall <= TARGET_S and peak <= TARGET_MIB else "over target"
            print(f"{label}: median {wall:.3f} s (target {TARGET_S} s; vora config file {baseline:.3f} s, "
                  f"+{wall - baseline:.3f} s), run_doctor alone {core * 1000:.0f} ms, "
                  f"peak RSS {peak:.1f} MiB (target {TARGET_MIB}), exit {code} [{verdict}]")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
