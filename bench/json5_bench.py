"""Time the JSON5 document on a ~1 MB heavily commented config (run by hand, not a test).

    python bench/json5_bench.py [size_in_bytes]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.parser import loads


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


def best(fn, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    text = build(target)
    print(f"document: {len(text):,} chars, {text.count(chr(10)):,} lines")

    t_loads = best(lambda: loads(text))
    t_parse = best(lambda: Json5Document.parse(text))
    doc = Json5Document.parse(text)

    def edit() -> None:
        # set re-parses the new text and checks the trees differ only at the edited path
        Json5Document.parse(text).set(["agent_10", "limits", "burst"], 99)

    t_edit = best(edit)
    t_insert = best(lambda: doc.set(["agent_10", "limits", "newKey"], {"a": 1}))
    t_unset = best(lambda: doc.unset(["agent_10", "tags"]))
    print(f"loads                         {t_loads * 1000:8.1f} ms")
    print(f"Json5Document.parse           {t_parse * 1000:8.1f} ms")
    print(f"parse + set + re-parse check  {t_edit * 1000:8.1f} ms")
    print(f"set (insert) on parsed doc    {t_insert * 1000:8.1f} ms")
    print(f"unset on parsed doc           {t_unset * 1000:8.1f} ms")
    try:
        import json5
    except ImportError:
        print("json5 package not installed: no comparison")
        return
    t_ref = best(lambda: json5.loads(text), repeat=1)
    assert json5.loads(text) == loads(text)
    print(f"json5.loads (package)         {t_ref * 1000:8.1f} ms  -> loads is {t_ref / t_loads:.0f}x faster")


if __name__ == "__main__":
    main()
