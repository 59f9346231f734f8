"""`vora config get` on a typical file and `vora config set` on a 1 MB heavily commented file.

Run by hand: python bench/config_bench.py. Targets (issue 3): get within the start-up budget
(4x `python -c pass`), set on 1 MB in at most 0.3 s.
"""

from __future__ import annotations

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


def median_ms(cmd: list[str], env: dict[str, str], before: object = None) -> float:
    samples = []
    for _ in range(RUNS):
        if callable(before):
            before()
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def big_config(target_bytes: int = 1_000_000) -> str:
    parts = ["// a big, heavily commented config\n{\n"]
    i = 0
    while sum(map(len, parts)) < target_bytes:
        parts.append(
            f"  /* section {i}: notes the operator keeps next to each block */\n"
            f"  section{i}: {{\n"
            f"    name: 'block {i}', // the label\n"
            f"    enabled: true,\n"
            f"    values: [1, 2, 3, 0x1F, .5,], // trailing comma\n"
            f"  }},\n"
        )
        i += 1
    parts.append('  gateway: { port: 18789 },\n}\n')
    return "".join(parts)


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="vora-bench-"))
    # An installed vora has its bytecode cached; this sandbox sets PYTHONDONTWRITEBYTECODE,
    # which would make every run compile every module.
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "VORA_HOME": str(tmp), "NO_COLOR": "1", "PYTHONPATH": str(REPO)}
    py = sys.executable
    base = median_ms([py, "-c", "pass"], env)
    state = tmp / "state"
    shutil.copytree(REPO / "examples" / "vora", state)
    get_ms = median_ms([py, "-m", "vora_cli", "--state-dir", str(state), "config", "get", "gateway.port"], env)
    print(f"python -c pass                 {base:7.1f} ms")
    print(f"config get (example file)      {get_ms:7.1f} ms  {get_ms / base:4.2f}x python  (target <= 4x)")

    big = tmp / "big"
    big.mkdir()
    text = big_config()
    port = iter(range(20000, 30000))

    def reset() -> None:
        (big / "vora.json").write_text(text)

    set_ms = median_ms(
        [py, "-m", "vora_cli", "--state-dir", str(big), "config", "set", "gateway.port", str(next(port))], env,
        before=reset,
    )
    print(f"config set (1 MB commented)    {set_ms:7.1f} ms  (target <= 300 ms)  size={len(text):,} bytes")

    sys.path.insert(0, str(REPO))
    from vora_cli.core.json5.document import Json5Document

    start = time.perf_counter()
    doc = Json5Document.parse(text)
    parse_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    doc.set(("gateway", "port"), 1)
    edit_ms = (time.perf_counter() - start) * 1000
    print(f"  in-process: parse {parse_ms:.1f} ms, set+verify {edit_ms:.1f} ms")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
