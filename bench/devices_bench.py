"""`vora devices list` and `approve` on the example install and on a big pairing store.

    python bench/devices_bench.py                 # VORA_BENCH_BASE=/other/checkout for A/B

Big store: 1,000 paired devices and 200 pending requests in the gateway's exact format.
Budgets `devices-list`, `config-file`, `devices-1k` (docs/performance.md); BENCH_RUNS rounds
(default 15).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import uuid
from pathlib import Path

import harness

NOW = 1_765_000_000_000


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def build_store(state_dir: Path) -> list[str]:
    """Random 32-byte public keys stand in for Ed25519 ones: the store only carries the bytes
    (seeded, so every run and both checkouts see the same store)."""
    rng = random.Random(8)
    paired, pending = {}, {}
    for i in range(1000):
        raw = rng.randbytes(32)
        did = hashlib.sha256(raw).hexdigest()
        paired[did] = {
            "deviceId": did, "publicKey": b64(raw), "displayName": f"device-{i}", "platform": "macos 15.1",
            "deviceFamily": "mac", "clientId": "vora-macos", "clientMode": "ui", "role": "operator",
            "roles": ["operator"], "scopes": ["operator.read", "operator.write"],
            "approvedScopes": ["operator.read", "operator.write"], "remoteIp": "10.0.0.1",
            "tokens": {"operator": {"token": b64(rng.randbytes(32)), "role": "operator",
                                    "scopes": ["operator.read", "operator.write"], "createdAtMs": NOW - 86_400_000,
                                    "lastUsedAtMs": NOW - 60_000}},
            "createdAtMs": NOW - 86_400_000, "approvedAtMs": NOW - 86_400_000,
        }
    for i in range(200):
        raw = rng.randbytes(32)
        rid = str(uuid.UUID(bytes=rng.randbytes(16), version=4))
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


def main() -> None:
    with harness.Bench("devices", runs=15) as bench:
        example = ["--state-dir", str(harness.example_state(bench.tmp))]
        state = bench.tmp / "big"
        request_ids = build_store(state)
        restore = harness.restorer(state / "devices")
        big = ["--state-dir", str(state)]
        env = {"VORA_NOW_MS": str(NOW)}
        bench.case("config file", [*example, "config", "file"], budget="config-file")
        bench.case("devices list (example)", [*example, "devices", "list"], budget="devices-list", env=env)
        bench.case("devices list (1,000 + 200)", [*big, "devices", "list"], budget="devices-1k", env=env)
        bench.case("devices list --json (1,000 + 200)", [*big, "devices", "list", "--json"], budget="devices-1k", env=env)
        bench.case("devices approve ID (1,000 + 200)", [*big, "devices", "approve", request_ids[0]], budget="devices-1k",
                   env=env, before=restore)
        bench.case("devices approve --latest --yes", [*big, "devices", "approve", "--latest", "--yes"],
                   budget="devices-1k", env=env, before=restore)
        bench.run()


if __name__ == "__main__":
    main()
