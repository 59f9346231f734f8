"""Start-up time of `vora` next to a bare Python start (run by hand: python bench/startup.py).

Prints the median wall time of each command over N runs and its ratio to `python -c pass`.
Target (issue 2): `vora --version` and `vora config file` at most 4x a bare Python start.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = int(os.environ.get("BENCH_RUNS", "20"))


def median_ms(cmd: list[str], env: dict[str, str]) -> float:
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    home = tempfile.mkdtemp(prefix="vora-bench-")
    # An installed vora has its bytecode cached; this sandbox sets PYTHONDONTWRITEBYTECODE,
    # which would make every run compile every module.
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "VORA_HOME": home, "NO_COLOR": "1"}
    py = sys.executable
    base = median_ms([py, "-c", "pass"], env)
    print(f"python -c pass            {base:7.1f} ms   1.00x")
    cases = [
        ("vora --version", [py, "-m", "vora_cli", "--version"]),
        ("vora config file", [py, "-m", "vora_cli", "config", "file"]),
        ("vora --help", [py, "-m", "vora_cli", "--help"]),
    ]
    for label, cmd in cases:
        ms = median_ms(cmd, env)
        verdict = "ok" if ms <= 4 * base or label.endswith("--help") else "OVER 4x target"
        print(f"{label:25} {ms:7.1f} ms  {ms / base:5.2f}x  {verdict}")


if __name__ == "__main__":
    main()
