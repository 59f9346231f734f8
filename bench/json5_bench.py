"""The JSON5 document on a ~1 MB heavily commented config, inside one process per checkout.

    python bench/json5_bench.py [size_in_bytes]   # VORA_BENCH_BASE=/other/checkout for A/B

A driver runs in each checkout's installed venv and prints the best of 5 for `loads`,
`Json5Document.parse`, parse + set + re-parse check, an insert and an unset; the harness adds the
driver process's own wall time, CPU and peak RSS next to the floor. The `json5` package (a test
dependency, not in the installed venvs) is timed in this process for comparison. No budget:
whole commands on big configs are budgeted in config_bench.py.
"""

from __future__ import annotations

import sys
import time

import harness

DRIVER = '''
import sys, time
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.parser import loads

text = open(sys.argv[1], encoding="utf-8").read()


def best(fn, repeat=5):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


doc = Json5Document.parse(text)
print(f"loads {best(lambda: loads(text)):.1f} ms; parse {best(lambda: Json5Document.parse(text)):.1f} ms; "
      f"parse+set+check {best(lambda: Json5Document.parse(text).set(['agent_10', 'limits', 'burst'], 99)):.1f} ms; "
      f"insert {best(lambda: doc.set(['agent_10', 'limits', 'newKey'], {'a': 1})):.1f} ms; "
      f"unset {best(lambda: doc.unset(['agent_10', 'tags'])):.1f} ms")
'''


def build(target: int) -> str:
    """A config shaped like a big hand-written vora.json: comments on most lines, mixed quoting."""
    parts = ["// vora.json: generated for the benchmark\n{\n"]
    size = 0
    i = 0
    while size < target:
        block = (
            f"  /* agent {i}\n     a block comment over two lines */\n"
            f"  agent_{i}: {{\n"
            f"    // the workspace of agent {i}\n"
            f"    workspace: '~/work/agent-{i}', // single-quoted\n"
            f'    "model": "provider/model-{i % 7}",\n'
            f"    maxTokens: 0x{i:04X}, ratio: .{i % 10 + 1}, enabled: {'true' if i % 2 else 'false'},\n"
            f"    tags: ['a', \"b\", 'c\\u00e9', /* inline */ 'd',],\n"
            f"    limits: {{ perMinute: {i}, burst: +{i % 50}, timeout: 1.5e3, }},\n"
            f"  }}, // end of agent {i}\n"
        )
        parts.append(block)
        size += len(block)
        i += 1
    parts.append("  last: null\n}\n")
    return "".join(parts)


def main() -> None:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    text = build(target)
    with harness.Bench("json5", runs=3) as bench:
        source = bench.tmp / "big.json5"
        source.write_text(text, encoding="utf-8")
        driver = bench.tmp / "driver.py"
        driver.write_text(DRIVER)
        bench.case(f"json5 in-process ({len(text):,} chars, {text.count(chr(10)):,} lines)",
                   [str(driver), str(source)], program="python", show=True)
        bench.run()
    try:
        import json5
    except ImportError:
        print("   json5 package not installed here: no comparison")
        return
    start = time.perf_counter()
    json5.loads(text)
    print(f"   json5.loads (the PyPI package, this process, reference): {(time.perf_counter() - start) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
