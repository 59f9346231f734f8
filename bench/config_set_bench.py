"""What the gateway's validation costs a `config set` (issue 19): before (a checkout without it) and after.

    python bench/config_set_bench.py [--before /work/main] [--after .]

Both checkouts run with this interpreter (`PYTHONPATH` picks the checkout), in the same run, on
the same files: the example install, a 1 MB config the gateway accepts (an `agents.list` of
2,000 commented agents), and a plugin config (`plugins.entries.<id>.config`, checked against the
plugin's `configSchema`). Each figure is the median of BENCH_RUNS (default 10) runs of the whole
command, the file restored before each. The validator compiles only the touched top-level key's
part of the shipped schema (docs/dependencies.md).
"""

from __future__ import annotations

import argparse
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
FIXTURE = REPO / "tests" / "data" / "plugins" / "fixtures" / "bounds-plugin"


def median_ms(cmd: list[str], env: dict[str, str], reset: object) -> float:
    samples = []
    for _ in range(RUNS):
        if callable(reset):
            reset()
        start = time.perf_counter()
        done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        samples.append((time.perf_counter() - start) * 1000)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.decode()[-400:]}")
    return statistics.median(samples)


def median_ms_once(cmd: list[str], env: dict[str, str], reset: object) -> float:
    if callable(reset):
        reset()
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = (time.perf_counter() - start) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.decode()[-400:]}")
    return elapsed


def big_valid_config(agents: int = 2000) -> str:
    lines = ["// a big config the gateway accepts: many agents, each with its notes\n{\n",
             "  gateway: { port: 18789, bind: 'loopback' },\n  agents: {\n    list: [\n"]
    for i in range(agents):
        lines.append(f"      /* agent {i}: the team that owns it keeps notes here, next to the entry, "
                     f"as operators do */\n      {{ id: 'agent-{i}', workspace: '~/ws/agent-{i}' }}, // agent {i}\n")
    lines.append("    ],\n  },\n}\n")
    return "".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="/work/main", help="a checkout without the gateway validation")
    parser.add_argument("--after", default=str(REPO), help="a checkout with it")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="vora-set-bench-"))
    base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base_env.update({"VORA_HOME": str(tmp), "NO_COLOR": "1"})
    py = sys.executable
    plain = median_ms([py, "-c", "pass"], base_env, None)

    small = tmp / "small"
    shutil.copytree(REPO / "examples" / "vora", small)
    small_text = (small / "vora.json").read_text()
    big = tmp / "big"
    big.mkdir()
    big_text = big_valid_config()
    (big / "vora.json").write_text(big_text)
    plug = tmp / "plugin"
    (plug / "extensions").mkdir(parents=True)
    shutil.copytree(FIXTURE, plug / "extensions" / "bounds-plugin")
    plug_text = '{\n  plugins: { entries: { "bounds-plugin": { config: { max_iterations: 5 } } } },\n}\n'
    (plug / "vora.json").write_text(plug_text)

    cases = [
        ("set gateway.port (example)", small, small_text, ["config", "set", "gateway.port", "18790"]),
        ("set gateway.port (1 MB)", big, big_text, ["config", "set", "gateway.port", "18790"]),
        ("set plugin config (schema)", plug, plug_text,
         ["config", "set", "plugins.entries.bounds-plugin.config.max_iterations", "50"]),
        ("validate (1 MB)", big, big_text, ["config", "validate"]),
    ]
    print(f"python -c pass: {plain:.1f} ms; {RUNS} runs each, median ms")
    print(f"{'command':32} {'before':>8} {'after':>8} {'after/before':>13}")
    for label, state, text, argv in cases:
        def reset(state: Path = state, text: str = text) -> None:
            (state / "vora.json").write_text(text)
            for old in state.glob("vora.json.bak*"):
                old.unlink()

        commands = [([py, "-m", "vora_cli", "--state-dir", str(state), *argv], {**base_env, "PYTHONPATH": checkout})
                    for checkout in (args.before, args.after)]
        for cmd, env in commands:  # warm-up: compile each checkout's bytecode once, outside the figures
            reset()
            subprocess.run(cmd, env=env, capture_output=True, check=False)
        samples: list[list[float]] = [[], []]
        for _ in range(RUNS):  # interleaved, so a load change on the machine hits both alike
            for i, (cmd, env) in enumerate(commands):
                samples[i].append(median_ms_once(cmd, env, reset))
        before, after = (statistics.median(s) for s in samples)
        print(f"{label:32} {before:8.1f} {after:8.1f} {after / before:12.2f}x")
    shutil.rmtree(tmp, ignore_errors=True)


def in_process() -> None:
    """The validator's own share, in a fresh interpreter: import, load and compile one top-level
    key's schema, validate; then the whole schema (what `config validate` pays at most)."""
    code = r"""
import time, json
t0 = time.perf_counter(); import jsonschema_rs; t1 = time.perf_counter()
from vora_cli.core.config import gateway as g
for key in ("gateway", "agents", "plugins", "channels"):
    a = time.perf_counter(); schema = g.top_schema(key); b = time.perf_counter(); g._validator(schema); c = time.perf_counter()
    print(f"  {key:9} load {1000*(b-a):5.1f} ms  compile {1000*(c-b):5.1f} ms")
a = time.perf_counter(); issues = g.schema_issues({"gateway": {"port": 18790}}, ["gateway"]); b = time.perf_counter()
print(f"  validate gateway (compiled): {1000*(b-a):.2f} ms; import jsonschema_rs {1000*(t1-t0):.1f} ms")
a = time.perf_counter(); [g._validator(g.top_schema(k)) for k in g.top_level_keys()]; b = time.perf_counter()
print(f"  every other key, load + compile: {1000*(b-a):.1f} ms")
"""
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(REPO)},
                          capture_output=True, text=True, check=True)
    print("in-process (after):\n" + done.stdout.rstrip())


if __name__ == "__main__":
    main()
    in_process()
