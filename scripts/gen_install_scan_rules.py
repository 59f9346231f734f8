"""Record the code scan the upstream gateway's installer runs: `vora_cli/core/plugins/install_scan.json`.

    python scripts/gen_install_scan_rules.py --package /work/upstream/node_modules/openclaw [--node NODE]

The release's installer (`dist/install-security-scan.runtime-*.js`) scans a plugin package before it
installs it, with the scanner of `dist/skill-scanner-*.js`: its line rules and whole-file rules (each a
pattern, a severity, a message; some only count when another pattern is in the same file), the
standard ports of its WebSocket rule, the files it reads (the extensions, at most 500 files, none over
1 MiB, dot-named entries and `node_modules` passed over but the package's own entry files always
read), and the dependency names it refuses outright. The constants are evaluated by node from the
release's own text, so nothing is retyped; the walk's skip rule and the block decision (any
`critical` finding blocks unless forced) are checked to be in the text as recorded here. Nothing here is
needed to build, test or run vora.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "vora_cli" / "core" / "plugins" / "install_scan.json"
# Facts of the release's code recorded as words, each held to its text.
WALK_SKIP = 'if (entry.name.startsWith(".") || entry.name === "node_modules") continue;'
BLOCKS = "if (params.builtinScan.critical > 0) {\n\t\tif (params.dangerouslyForceUnsafeInstall) return;"

EVAL = r"""
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", required=True, help="the upstream release's package folder (node_modules/openclaw)")
    parser.add_argument("--node", default="node", help="the node executable")
    args = parser.parse_args()
    dist = Path(args.package) / "dist"
    version = json.loads((Path(args.package) / "package.json").read_text())["version"]
    scanner = next(dist.glob("skill-scanner-*.js"))
    security = next(dist.glob("install-security-scan.runtime-*.js"))
    if WALK_SKIP not in scanner.read_text() or BLOCKS not in security.read_text():
        raise SystemExit("the release's scanner no longer reads as recorded: read it again and update this script")
    done = subprocess.run([args.node, "-e", EVAL, str(scanner), str(security)], capture_output=True, text=True,
                          check=True)
    rules = json.loads(done.stdout)
    head = {"version": f"openclaw {version}", "generatedBy": "scripts/gen_install_scan_rules.py",
            "from": [scanner.name, security.name], "walkSkips": [".*", "node_modules"],
            "blocks": "critical", **{k: v for k, v in rules.items() if k not in ("lineRules", "sourceRules")}}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ","]
    for key in ("lineRules", "sourceRules"):
        lines.append(f' "{key}": [')
        lines += ["  " + json.dumps(rule, ensure_ascii=False) + ("," if i < len(rules[key]) - 1 else "")
                  for i, rule in enumerate(rules[key])]
        lines.append(" ]" + ("," if key == "lineRules" else ""))
    OUT.write_text("\n".join(lines) + "\n}\n", encoding="utf-8")
    count = len(rules["lineRules"]) + len(rules["sourceRules"])
    print(f"{OUT}: {count} rules of openclaw {version} ({', '.join(sorted({r['id'] for k in ('lineRules', 'sourceRules') for r in rules[k]}))})")
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)


if __name__ == "__main__":
    main()
