"""`vora gateway status --json` against a local test gateway, and a refused connection (run by hand).

The gateway is the tests' protocol server (tests/support/gateway_server.py: a real WebSocket server on
127.0.0.1 that verifies the signed connect), with a 5,000-line log tail. Prints the median
wall time of each command over N runs as real processes and its ratio to `vora config file`.
Targets (issue 14): status ≤ 3× `vora config file`; a refused connection ≤ 0.3 s.

    python bench/gateway_bench.py          # BENCH_RUNS=15 by default
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "15"))
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.gateway_server import gateway_log_line, iso, running_gateway  # noqa: E402


def run_ms(cmd: list[str], env: dict[str, str], expect: int) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, text=True)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != expect:
        raise SystemExit(f"{' '.join(cmd[3:])} exited {done.returncode}: {done.stderr.strip()}")
    return elapsed


def median(cmd: list[str], env: dict[str, str], expect: int = 0) -> float:
    run_ms(cmd, env, expect)  # warm the bytecode cache and the identity / token files
    return statistics.median(run_ms(cmd, env, expect) for _ in range(RUNS))


def free_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    sock.close()
    return port


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="vora-gateway-bench-"))
    try:
        state = tmp / "state"
        state.mkdir(mode=0o700)
        (state / "vora.json").write_text('{gateway: {auth: {token: "bench-token"}}}\n')
        # An installed vora has its bytecode cached; this sandbox sets PYTHONDONTWRITEBYTECODE,
        # which would make every run compile every module (the warm-up run writes the cache).
        env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_") and k != "PYTHONDONTWRITEBYTECODE"}
        env.update({"VORA_STATE_DIR": str(state), "VORA_HOME": str(tmp), "PYTHONPATH": str(REPO)})
        vora = [sys.executable, "-m", "vora_cli"]
        now = int(time.time() * 1000)
        lines = [gateway_log_line(iso(now - 60_000 + i), f"line {i}") for i in range(4999)]
        lines.append(gateway_log_line(iso(now - 50_000), "ready (3 plugins: a, b, c; 1.2s)"))
        base = median([*vora, "config", "file"], env)
        with running_gateway(token="bench-token", log_lines=lines, uptime_ms=60_000) as gw:
            env["VORA_GATEWAY_PORT"] = str(gw.port)
            status = median([*vora, "gateway", "status", "--json"], env)
        env["VORA_GATEWAY_PORT"] = str(free_port())
        refused = median([*vora, "gateway", "status", "--json"], env, expect=1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"runs per command: {RUNS} (median wall time, real processes)")
    print(f"vora config file                       {base:7.1f} ms   1.00x")
    print(f"vora gateway status --json (5k log)    {status:7.1f} ms   {status / base:.2f}x   (target <= 3x)")
    print(f"vora gateway status, refused           {refused:7.1f} ms   {refused / base:.2f}x   (target <= 300 ms)")
    ok = status <= 3 * base and refused <= 300
    print("within targets" if ok else "OUTSIDE TARGETS")


if __name__ == "__main__":
    main()
