"""Regenerate the gateway's config JSON Schema that vora ships (`vora_cli/core/config/gateway_schema/`).

    python scripts/gen_gateway_schema.py --oc /work/upstream/oc

Asks the upstream release for `config schema` (draft-07, ~2 MB pretty) and writes it compact, one
file per top-level key (`<key>.json`) plus `index.json` (the version it came from, the root's own
rules and the file of each key), so `config set gateway.port …` loads and compiles the 27 KB of
`gateway`, not the whole 800 KB. Two repairs of the export, each one a fact of the release
(docs/config.md, "The gateway's schema"):

1. `required` lists name properties that have a `default`: zod exports its *output* type, where a
   defaulted key is always present; its *input* (what a config file may leave out) does not need
   them, and the gateway accepts `{}`. Such names are dropped from `required`.
2. A bundled plugin's schema embedded under `plugins.entries.<id>.config` keeps its own `$defs`
   and `#/$defs/…` refs, which mean that schema's root, not the document's: they are inlined.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from upstream import oc_command, oc_version, run_oc

OUT = Path(__file__).resolve().parents[1] / "vora_cli" / "core" / "config" / "gateway_schema"


def drop_defaulted_required(node: Any) -> None:
    if isinstance(node, dict):
        required, props = node.get("required"), node.get("properties")
        if isinstance(required, list) and isinstance(props, dict):
            kept = [name for name in required if not (isinstance(props.get(name), dict) and "default" in props[name])]
            if kept:
                node["required"] = kept
            else:
                del node["required"]
        for value in node.values():
            drop_defaulted_required(value)
    elif isinstance(node, list):
        for value in node:
            drop_defaulted_required(value)


def inline_local_defs(node: Any, defs: dict[str, Any] | None = None, depth: int = 0) -> Any:
    if depth > 64:
        raise SystemExit("a $ref cycle in the upstream schema: inlining would not end")
    if isinstance(node, dict):
        defs = node.get("$defs", defs)
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and defs is not None:
            return inline_local_defs(defs[ref[len("#/$defs/"):]], defs, depth + 1)
        return {k: inline_local_defs(v, defs, depth) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [inline_local_defs(v, defs, depth) for v in node]
    return node


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oc", help="the upstream CLI (default: $VORA_UPSTREAM_OC)")
    args = parser.parse_args()
    oc = oc_command(args.oc)
    with tempfile.TemporaryDirectory(prefix="vora-schema-") as tmp:
        state = Path(tmp) / "state"
        state.mkdir()
        (state / "vora.json").write_text("{}\n")
        version = oc_version(oc, state)
        done = run_oc(oc, state, ["config", "schema"])
        if done.returncode != 0:
            raise SystemExit(f"config schema failed: {done.stderr[-500:]}")
    schema = json.loads(done.stdout)
    drop_defaulted_required(schema)
    schema = inline_local_defs(schema)
    if "$ref" in json.dumps(schema):
        raise SystemExit("the upstream schema has $refs this script does not know how to place")
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    files: dict[str, str] = {}
    for key, sub in schema["properties"].items():
        name = key.replace("$", "dollar-") + ".json"
        (OUT / name).write_text(json.dumps(sub, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
        files[key] = name
    root = {k: v for k, v in schema.items() if k != "properties"}
    index = {"version": version, "generatedBy": "scripts/gen_gateway_schema.py", "root": root, "files": files}
    (OUT / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    total = sum((OUT / n).stat().st_size for n in files.values())
    print(f"{version}: {len(files)} top-level keys, {total} bytes compact, in {OUT}")


if __name__ == "__main__":
    main()
