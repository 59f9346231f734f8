"""Ask the upstream gateway's installer what its code scan finds in each package of `tests/data/upstream/install_scan_cases.json`.

    python scripts/gen_install_scans.py --oc /work/upstream/oc --package /work/upstream/node_modules/openclaw [ID ...]

For each case the package is laid out in a scratch folder, then asked twice:

1. the release's own scan function, as its installer calls it before it installs (`scanPackageInstallSource`:
   the dependency denylist, then the scanner over the package with its entry files forced in), through
   node: every finding (rule, severity, file relative to the package, line, message), the counts, and its
   decision (`blocked` with its code and reason, or null);
2. the real `plugins install PATH` on a scratch state dir: its exit code and whether it said the install
   was blocked.

Writes `tests/data/upstream/install-scans-<version>.json` (paths in the answers are relative to the
package). `tests/core/plugins/test_install_scan.py` holds vora's scan to these answers. Nothing here is
needed to build, test or run vora.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from plugins_support import scan_case_package
from upstream import oc_command, oc_version, run_oc

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
CASES = DATA / "upstream" / "install_scan_cases.json"

ASK = r"""
const [dist, packageDir, pluginId, extensionsJson] = process.argv.slice(1);
const path = require("path");
const fs = require("fs");
(async () => {
  const find = (prefix) => fs.readdirSync(dist).find((n) => n.startsWith(prefix) && n.endsWith(".js"));
  const scanner = await import(path.join(dist, find("skill-scanner-")));
  const runtime = await import(path.join(dist, find("install-security-scan.runtime-")));
  const extensions = JSON.parse(extensionsJson);
  const forced = extensions.map((e) => path.resolve(packageDir, e));
  const summary = await scanner.t(packageDir, { includeFiles: forced });
  const warnings = [];
  const logger = { info: () => {}, warn: (m) => warnings.push(m) };
  const decision = await runtime.scanPackageInstallSourceRuntime({
    dangerouslyForceUnsafeInstall: false, packageDir, pluginId, logger, extensions });
  process.stdout.write(JSON.stringify({ summary, decision: decision ?? null, warnings }));
})().catch((e) => { console.error(e); process.exit(1); });
"""


def relative(text: str, root: Path) -> str:
    return text.replace(str(root) + "/", "")


def ask(oc: str, node: str, dist: Path, case: dict[str, Any], base: Path) -> dict[str, Any]:
    where = base / case["id"]
    root = scan_case_package(case, where / "src")
    package = json.loads((root / "package.json").read_text())
    extensions = package.get("openclaw", {}).get("extensions", [])
    manifest = json.loads((root / "openclaw.plugin.json").read_text())
    done = subprocess.run([node, "-e", ASK, str(dist), str(root), manifest["id"], json.dumps(extensions)],
                          capture_output=True, text=True, check=True)
    answer = json.loads(done.stdout)
    summary = answer["summary"]
    findings = [{"rule": f["ruleId"], "severity": f["severity"], "file": relative(f["file"], root), "line": f["line"],
                 "message": f["message"]} for f in summary["findings"]]
    decision = answer["decision"]
    blocked = None
    if decision and decision.get("blocked"):
        blocked = {"code": decision["blocked"].get("code"), "reason": relative(decision["blocked"]["reason"], root)}
    state = where / "state"
    state.mkdir()
    (state / "vora.json").write_text("{}\n")
    source = DATA / "plugins" / "npm" / case["tarball"] if "tarball" in case else root
    cli = run_oc(oc, state, ["plugins", "install", str(source)])
    said = cli.stdout + cli.stderr
    return {"findings": findings, "scannedFiles": summary["scannedFiles"], "critical": summary["critical"],
            "warn": summary["warn"], "blocked": blocked,
            "cli": {"exitCode": cli.returncode, "blocked": "installation blocked" in said}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oc", help="the upstream CLI (default: $VORA_UPSTREAM_OC)")
    parser.add_argument("--package", required=True, help="the upstream release's package folder")
    parser.add_argument("--node", default="node", help="the node executable")
    parser.add_argument("ids", nargs="*", help="only these cases")
    args = parser.parse_args()
    oc = oc_command(args.oc)
    dist = Path(args.package).resolve() / "dist"
    cases = json.loads(CASES.read_text())["cases"]
    with tempfile.TemporaryDirectory(prefix="vora-install-scans-") as tmp:
        base = Path(tmp)
        (base / "v").mkdir()
        version = oc_version(oc, base / "v")
        out = DATA / "upstream" / f"install-scans-{version.replace(' ', '-')}.json"
        stored = json.loads(out.read_text())["scans"] if out.exists() and args.ids else {}
        for case in cases:
            if args.ids and case["id"] not in args.ids:
                continue
            stored[case["id"]] = ask(oc, args.node, dist, case, base)
            answer = stored[case["id"]]
            print(case["id"], "blocked" if answer["blocked"] else "passes", len(answer["findings"]), flush=True)
    scans = {case["id"]: stored[case["id"]] for case in cases if case["id"] in stored}
    out.write_text(json.dumps({"version": version, "generatedBy": "scripts/gen_install_scans.py", "scans": scans},
                              indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
