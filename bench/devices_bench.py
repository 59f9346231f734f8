"""`vora devices list` and `approve` on a big store, next to `vora config file` (run by hand).

Store: 1,000 paired devices and 200 pending requests in the gateway's exact format. Prints the
median wall time of each command over N runs and its ratio to `vora config file` (a full CLI start that does almost nothing; `vora --version`
is answered before the CLI loads, so it is no longer the start-up reference).
Target (issue 8): at most 2x that start-up.

    python bench/devices_bench.py          # BENCH_RUNS=20 by default
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "20"))
NOW = 1_765_000_000_000
REPO = Path(__file__).resolve().parent.parent


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def build_store(state_dir: Path) -> list[str]:
    """Random 32-byte public keys stand in for Ed25519 ones: the store only carries the bytes."""
    paired, pending = {}, {}
    for i in range(1000):
        raw = secrets.token_bytes(32)
        did = hashlib.sha256(raw).hexdigest()
        paired[did] = {
            "deviceId": did, "publicKey": b64(raw), "displayName": f"device-{i}", "platform": "macos 15.1",
            "deviceFamily": "mac", "clientId": "vora-macos", "clientMode": "ui", "role": "operator",
            "roles": ["operator"], "scopes": ["operator.read", "operator.write"],
            "approvedScopes": ["operator.read", "operator.write"], "remoteIp": "10.0.0.1",
            "tokens": {"operator": {"token": b64(secrets.token_bytes(32)), "role": "operator",
                                    "scopes": ["operator.read", "operator.write"], "createdAtMs": NOW - 86_400_000,
                                    "lastUsedAtMs": NOW - 60_000}},
            "createdAtMs": NOW - 86_400_000, "approvedAtMs": NOW - 86_400_000,
        }
    for i in range(200):
        raw = secrets.token_bytes(32)
        rid = str(uuid.uuid4())
        pending[rid] = {
            "requestId": rid, "deviceId": hashlib.sha256(raw).hexdigest(), "publicKey": b64(raw),
            "displayName": f"new-{i}", "platform": "ios 18.1", "deviceFamily": "iphone", "clientId": "vora-ios",
            "clientMode": "ui", "role": "operator", "roles": ["operator"], "scopes": ["operator.read"],
            "remoteIp": "192.168.1.20", "silent": False, "isRepair": False, "ts": NOW - (i % 240) * 1000,
        }
    folder = state_dir / "devices"
    folder.mkdir(parents=True, mode=0o700)
    (folder / "paired.json").write_text(json.dumps(paired, indent=2))
    (folder / "pending.json").write_text(json.dumps(pending, indent=2))
    return list(pending)


def run_ms(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    home = Path(tempfile.mkdtemp(prefix="vora-devices-bench-"))
    try:
        state = home / ".vora"
        request_ids = build_store(state)
        pristine = {p.name: p.read_bytes() for p in (state / "devices").glob("*.json")}
        env = {**os.environ, "VORA_HOME": str(home), "NO_COLOR": "1", "VORA_NOW_MS": str(NOW),
               "PYTHONPATH": str(REPO)}
        # Measure what an installed vora does: with its bytecode cached (a dev shell may disable that).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        vora = [sys.executable, "-m", "vora_cli"]

        def restore() -> None:  # each approve runs on the full store, with its request still there
            for name, data in pristine.items():
                (state / "devices" / name).write_bytes(data)

        cases = [
            ("vora config file", [*vora, "config", "file"], False),
            ("vora devices list", [*vora, "devices", "list"], False),
            ("vora devices list --json", [*vora, "devices", "list", "--json"], False),
            ("vora devices approve ID", [*vora, "devices", "approve", request_ids[0]], True),
            ("vora devices approve --latest", [*vora, "devices", "approve", "--latest", "--yes"], True),
        ]
        samples: dict[str, list[float]] = {label: [] for label, _, _ in cases}
        for _, cmd, writes in cases:  # warm-up: bytecode cache, page cache
            if writes:
                restore()
            run_ms(cmd, env)
        # Interleaved, so a busy machine slows every case alike and the ratios stay fair.
        for _ in range(RUNS):
            for label, cmd, writes in cases:
                if writes:
                    restore()
                samples[label].append(run_ms(cmd, env))
        size = sum(len(d) for d in pristine.values()) // 1024
        print(f"store: 1000 paired, 200 pending ({size} KiB); median of {RUNS} interleaved runs")
        base = statistics.median(samples["vora config file"])
        for label, _, _ in cases:
            ms = statistics.median(samples[label])
            verdict = "" if label == "vora config file" else "ok" if ms <= 2 * base else "OVER 2x target"
            print(f"{label:30} {ms:7.1f} ms  {ms / base:5.2f}x  {verdict}")
    finally:
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
