"""Record the plugins the upstream gateway ships inside its own package: `vora_cli/core/plugins/bundled.json`.

    python scripts/gen_bundled_plugins.py --package /work/upstream/node_modules/openclaw

The release keeps them in `dist/extensions/<folder>/`, each with its `openclaw.plugin.json` (a folder
without one is a shared library of the release, not a plugin). Kept per plugin, only what vora's
checks ask: its `name`, its manifest `kind` (the slots), what it provides (`channel`, `provider`,
`memory`, `tool`, `media`: from its `channels`, `providers`, `kind` and `contracts`), its channel ids,
`enabledByDefault` (the gateway loads it unless the config says otherwise), and the settings its
`configSchema` requires (`requires`: so that a plugin with none set needs no schema read). Their config schemas
are not repeated: vora ships them with the gateway's config schema (`scripts/gen_gateway_schema.py`).
Nothing here is needed to build, test or run vora.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "vora_cli" / "core" / "plugins" / "bundled.json"
TOOL_CONTRACTS = {"tools", "webSearchProviders", "webFetchProviders"}


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
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--package", required=True, help="the upstream release's package folder (node_modules/openclaw)")
    args = parser.parse_args()
    package = Path(args.package)
    version = json.loads((package / "package.json").read_text())["version"]
    plugins: dict[str, dict[str, Any]] = {}
    for manifest_path in sorted((package / "dist" / "extensions").glob("*/openclaw.plugin.json")):
        manifest = json.loads(manifest_path.read_text())
        plugins[manifest["id"]] = describe(manifest)
    lines = [json.dumps({"version": f"openclaw {version}", "generatedBy": "scripts/gen_bundled_plugins.py"})[:-1]
             + ', "plugins": {']
    for i, (plugin_id, entry) in enumerate(sorted(plugins.items())):
        comma = "," if i < len(plugins) - 1 else ""
        lines.append(f" {json.dumps(plugin_id)}: {json.dumps(entry, ensure_ascii=False)}{comma}")
    OUT.write_text("\n".join(lines) + "\n}}\n", encoding="utf-8")
    print(f"{OUT}: {len(plugins)} bundled plugins of openclaw {version}")


if __name__ == "__main__":
    main()
