"""`vora gateway status --json` against a local test gateway, and a refused connection.

    python bench/gateway_bench.py                 # VORA_BENCH_BASE=/other/checkout for A/B

The gateway is the tests' protocol server (tests/support/gateway_server.py: a real WebSocket
server on 127.0.0.1 that verifies the signed connect), with a 5,000-line log tail, running in
this process. Budgets `config-file`, `gateway-status`, `gateway-refused` (docs/performance.md);
BENCH_RUNS rounds (default 15).
"""

from __future__ import annotations

import socket
import sys
import time

import harness

sys.path.insert(0, str(harness.REPO))

from tests.support.gateway_server import gateway_log_line, iso, running_gateway

LIBRARIES = "import websockets.sync.client; from cryptography.hazmat.primitives.asymmetric import ed25519"


def free_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    sock.close()
    return port


def main() -> None:
    with harness.Bench("gateway", runs=15) as bench:
        state = bench.tmp / "state"
        state.mkdir(mode=0o700)
        (state / "vora.json").write_text('{gateway: {auth: {token: "bench-token"}}}\n')
        now = int(time.time() * 1000)
        lines = [gateway_log_line(iso(now - 60_000 + i), f"line {i}") for i in range(4999)]
        lines.append(gateway_log_line(iso(now - 50_000), "ready (3 plugins: a, b, c; 1.2s)"))
        at = ["--state-dir", str(state)]
        with running_gateway(token="bench-token", log_lines=lines, uptime_ms=60_000) as gw:
            bench.case("config file", [*at, "config", "file"], budget="config-file")
            bench.case("gateway status --json (5,000-line log)", [*at, "gateway", "status", "--json"],
                       budget="gateway-status", env={"VORA_GATEWAY_PORT": str(gw.port)})
            # what the command cannot do without, for comparison (no budget): the two libraries'
            # import in a bare interpreter (docs/performance.md, "gateway-status")
            bench.case("import websockets.sync.client + Ed25519, bare", ["-c", LIBRARIES], program="python",
                       only_this=True)
            bench.case("gateway status --json, refused", [*at, "gateway", "status", "--json"], budget="gateway-refused",
                       env={"VORA_GATEWAY_PORT": str(free_port())}, expect=1)
            bench.run()


if __name__ == "__main__":
    main()
