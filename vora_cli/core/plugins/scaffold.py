"""`vora plugins init`: a plugin folder that `vora plugins install -l` accepts as is."""

from __future__ import annotations

import json
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.plugins.ids import folder_name_for_id, validate_plugin_id
from vora_cli.core.plugins.manifest import KINDS
from vora_cli.core.records import dataclass
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_ENGINE_ENTRY = """\
// {id}: a Vora context engine. The gateway calls register(api) when it loads the plugin.
// Select it with: vora plugins use {id}   (then restart the gateway)
export default function register(api) {{
  api.registerContextEngine({id_json}, () => ({{
    info: {{ id: {id_json}, name: {name_json}, ownsCompaction: false }},

    async ingest({{ sessionId, message, isHeartbeat }}) {{
      return {{ ingested: false }};
    }},

    async assemble({{ sessionId, messages, tokenBudget }}) {{
      // Pass-through: return the messages as they are. Trim them to fit tokenBudget here.
      const estimatedTokens = messages.reduce((n, m) => n + Math.ceil(JSON.stringify(m).length / 4), 0);
      return {{ messages, estimatedTokens }};
    }},

    async compact({{ sessionId, force }}) {{
      // A non-owning engine must not no-op compaction: hand it to the runtime.
      const {{ delegateCompactionToRuntime }} = await import("vora/plugin-sdk/core");
      return delegateCompactionToRuntime({{ sessionId, force }});
    }},
  }}));
}}
"""

_MEMORY_ENTRY = """\
// {id}: a Vora memory plugin. The gateway calls register(api) when it loads the plugin.
// Select it with: vora plugins use {id}   (then restart the gateway)
export default function register(api) {{
  // Register your memory provider with the gateway's plugin API here (search / retrieval).
  // See the gateway's memory plugin documentation for the exact interface.
}}
"""


@dataclass(frozen=True)
class ScaffoldResult:
    """The files `vora plugins init` created."""
    root: Path
    plugin_id: str
    kind: str
    files: tuple[Path, ...]

    def to_dict(self) -> dict[str, Any]:
        # `kind` is a list wherever vora prints a plugin's kind (`plugins list`, `install`): a
        # manifest may name both kinds (docs/exit-codes-and-json.md, "One vocabulary")
        return {"id": self.plugin_id, "kind": [self.kind], "root": str(self.root),
                "files": [str(f) for f in self.files]}


def scaffold_plugin(root: Path, plugin_id: str, kind: str = "context-engine") -> ScaffoldResult:
    """Write vora.plugin.json, package.json, dist/index.js and README.md into `root` (new or empty)."""
    from vora_cli.core.writer import ensure_dir, replace_atomically

    validate_plugin_id(plugin_id, "--id")
    if kind not in KINDS:
        raise VoraError("usage", f"unknown kind {kind!r}", "use --kind context-engine or --kind memory")
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise VoraError("exists", f"{root} already exists and is not empty", "pick a new folder name")
    name = plugin_id.split("/")[-1].replace("-", " ").title()
    manifest = {
        "id": plugin_id,
        "name": name,
        "description": f"A Vora {kind} plugin.",
        "version": "0.1.0",
        "kind": kind,
        "configSchema": {"type": "object", "additionalProperties": False, "properties": {}},
    }
    package = {
        "name": plugin_id if plugin_id.startswith("@") else folder_name_for_id(plugin_id),
        "version": "0.1.0",
        "type": "module",
        "main": "./dist/index.js",
        "vora": {"extensions": ["./dist/index.js"]},
        "dependencies": {},
    }
    template = _ENGINE_ENTRY if kind == "context-engine" else _MEMORY_ENTRY
    entry = template.format(id=plugin_id, id_json=json.dumps(plugin_id), name_json=json.dumps(name))
    readme = (f"# {name}\n\nA Vora {kind} plugin.\n\n"
              f"    vora plugins install -l .\n    {command_line('vora', 'plugins', 'use', plugin_id)}\n\nThen restart the gateway.\n")
    files = {
        root / "vora.plugin.json": json.dumps(manifest, indent=2) + "\n",
        root / "package.json": json.dumps(package, indent=2) + "\n",
        root / "dist" / "index.js": entry,
        root / "README.md": readme,
    }
    ensure_dir(root / "dist")
    for path, text in files.items():
        # A fresh folder nobody else writes to: atomic writes, no lock files left in the plugin.
        if path.exists():
            raise VoraError("exists", f"{path} already exists", "pick a new folder name")
        replace_atomically(path, text.encode("utf-8"), new_mode=0o644)
    return ScaffoldResult(root=root, plugin_id=plugin_id, kind=kind, files=tuple(files))
