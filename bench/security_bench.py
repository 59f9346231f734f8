"""`vora security audit` on the example install, beside the gateway's own audit on the same state
(run by hand: python bench/security_bench.py [/work/upstream/oc]).

The state is examples/vora as a checkout leaves it (dirs 0755, files 0644; the plugin beside it).
Prints, for N runs each, the median wall time and the peak RSS of `vora security audit --json`,
of `vora config file` (a full CLI start, the baseline), and, when the gateway's CLI is given
(openclaw 2026.4.12's `security audit --json`, run from the state dir with a scratch HOME), of
the gateway's audit. Each process is measured by `/usr/bin/time` (wall and max RSS of that
process alone). Runs with the bytecode cache on, as an installed vora.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "7"))
GATEWAY_RUNS = int(os.environ.get("BENCH_GATEWAY_RUNS", "3"))
TARGET_S = 0.5
TARGET_MIB = 60
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "support"))


def timed(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, max RSS MiB, exit code) of one process, by /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        done = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%e %M", *command], env=env, cwd=cwd,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        wall, rss_kib = report.read().split()[-2:]
    return float(wall), int(rss_kib) / 1024, done.returncode


def series(command: list[str], env: dict[str, str], cwd: Path, runs: int) -> tuple[float, float, int]:
    results = [timed(command, env, cwd) for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results), results[-1][2]


def main(argv: list[str]) -> None:
    from security_states import example

    gateway = argv[1] if len(argv) > 1 else None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(REPO)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        state = example(root / "install")
        env["HOME"] = str(root / "home")
        audit = [sys.executable, "-m", "vora_cli", "--state-dir", str(state), "security", "audit", "--json"]
        baseline = [sys.executable, "-m", "vora_cli", "config", "file"]
        subprocess.run(audit, env=env, stdout=subprocess.DEVNULL, check=False)  # warm the bytecode cache
        wall, rss, code = series(audit, env, state, RUNS)
        base_wall, base_rss, _ = series(baseline, env, state, RUNS)
        verdict = "ok" if wall <= TARGET_S and rss <= TARGET_MIB else "over target"
        print(f"vora security audit: median {wall:.3f} s (vora config file {base_wall:.3f} s, "
              f"+{wall - base_wall:.3f} s), peak RSS {rss:.1f} MiB (config file {base_rss:.1f}), exit {code} "
              f"[{verdict}; targets {TARGET_S} s, {TARGET_MIB} MiB]")
        if gateway:
            oc_env = {**os.environ, "OC_STATE": str(state), "OC_HOME": str(root / "oc-home")}
            g_wall, g_rss, g_code = series([gateway, "security", "audit", "--json"], oc_env, state, GATEWAY_RUNS)
            print(f"gateway security audit (same state): median {g_wall:.2f} s, peak RSS {g_rss:.0f} MiB, exit {g_code}")
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main(sys.argv)
