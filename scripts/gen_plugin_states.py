"""Ask the upstream gateway what it loads: its `plugins list --json` on each state of `tests/data/upstream/plugin_states.json`.

    python scripts/gen_plugin_states.py --oc /work/upstream/oc [ID ...]

Each case is laid out as `tests/support/verdict_cases.py` says (its `vora.json`, its plugin folders
under `files`), then the gateway lists its plugins from the state dir. Kept per plugin: `origin`,
`status` (loaded / disabled / error), `enabled`, `activationSource`, `activationReason` and `error`
(its reason or problem) of every plugin that is not bundled and of the bundled ones the config names
(`plugins.entries`, `allow`, `deny`, `slots`) or the case `watch`es; and the registry's diagnostics.
When the gateway's list fails (it throws on an enabled plugin whose config its validator refuses),
its exit code and the error line are kept. Writes `tests/data/upstream/plugin-states-<version>.json`
(the version in the name and inside). `tests/core/plugins/test_load_verdicts.py` holds vora's
`plugins list` to these answers. Nothing here is needed to build, test or run vora.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from upstream import oc_command, oc_home, oc_version, run_oc
from verdict_cases import lay_out, shown

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "tests" / "data" / "upstream" / "plugin_states.json"
KEPT = ("origin", "status", "enabled", "activationSource", "activationReason", "error")


def named_ids(config: dict[str, Any]) -> set[str]:
    """The plugin ids the config's `plugins` section names."""
    plugins = config.get("plugins") or {}
    named = set(plugins.get("entries") or {}) | set(plugins.get("allow") or []) | set(plugins.get("deny") or [])
    named |= {v for v in (plugins.get("slots") or {}).values() if isinstance(v, str)}
    return named


def ask(oc: str, case: dict[str, Any], base: Path) -> dict[str, Any]:
    state = base / case["id"]
    home = oc_home(state)
    lay_out(case, state, home)
    done = run_oc(oc, state, ["plugins", "list", "--json"], cwd=state)
    config = json.loads(case["config"].replace("<state>", str(state)))
    watched = named_ids(config) | set(case.get("watch", []))
    out = shown(done.stdout, state, home)
    start = out.find("\n{") + 1 if not out.startswith("{") else 0  # a plugin may log a line first
    try:
        answer = json.loads(out[start:])
    except ValueError:
        lines = shown(done.stderr, state, home).splitlines()
        problems = [line.strip()[2:] for line in lines if line.startswith("  - ")]
        return {"failed": True, "exitCode": done.returncode, "error": lines[0] if lines else None, "problems": problems}
    plugins = {p["id"]: {key: p.get(key) for key in KEPT} for p in answer["plugins"]
               if p.get("origin") != "bundled" or p["id"] in watched}
    return {"exitCode": done.returncode, "plugins": plugins, "diagnostics": answer.get("diagnostics", [])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oc", help="the upstream CLI (default: $VORA_UPSTREAM_OC)")
    parser.add_argument("ids", nargs="*", help="only these cases")
    args = parser.parse_args()
    oc = oc_command(args.oc)
    cases = json.loads(CASES.read_text())["cases"]
    with tempfile.TemporaryDirectory(prefix="vora-plugin-states-") as tmp:
        base = Path(tmp)
        (base / "v").mkdir()
        version = oc_version(oc, base / "v")
        out = REPO / "tests" / "data" / "upstream" / f"plugin-states-{version.replace(' ', '-')}.json"
        stored = json.loads(out.read_text())["states"] if out.exists() and args.ids else {}
        for case in cases:
            if args.ids and case["id"] not in args.ids:
                continue
            stored[case["id"]] = ask(oc, case, base)
            print(case["id"], "failed" if stored[case["id"]].get("failed") else "listed", flush=True)
    states = {case["id"]: stored[case["id"]] for case in cases if case["id"] in stored}
    out.write_text(json.dumps({"version": version, "generatedBy": "scripts/gen_plugin_states.py", "states": states},
                              indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
