"""Ask the upstream gateway what its own `doctor --fix` writes on configs with legacy keys (run by hand, once).

    python scripts/gen_doctor_fix.py --oc /work/upstream/oc [ID ...]

For each case of `CASES` (laid out as `tests/support/verdict_cases.py` lays out a verdict case: the
`vora.json`, the files it `$include`s): `doctor --fix --non-interactive`, run from the state dir
with a scratch HOME, then every file of the case as the gateway left it (parsed; its own stamps
`wizard` and `meta` left out, they are not a migration) and the backups it made. Writes
`tests/data/upstream/doctor-fix-openclaw-2026.4.12.json`; `tests/cli/doctor/test_fix.py`
holds `vora doctor --fix config-schema` to it: the same values written, nothing more (the gateway's
doctor migrates once; what a migration's result would change on the next read is its next run's).
Each run of the gateway's doctor takes most of a minute.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from upstream import ask_each, oc_command, oc_home, run_oc
from verdict_cases import lay_out

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "upstream" / "doctor-fix-openclaw-2026.4.12.json"
STAMPS = ("wizard", "meta")  # what the gateway's doctor stamps on every write

TOKEN = 'auth: { mode: "token", token: "0123456789abcdef0123456789abcdef" }'
CASES: list[dict[str, Any]] = [
    {"id": "bind-host-alias", "note": "a bind host alias: rewritten to its mode, no Control UI origins pinned",
     "config": f'{{\n  // an older install\n  gateway: {{ bind: "0.0.0.0", port: 18789, {TOKEN} }},\n}}\n'},
    {"id": "bind-ipv6-alias", "note": "the other spelling of every interface",
     "config": f'{{ gateway: {{ bind: "::", {TOKEN} }} }}\n'},
    {"id": "bind-lan-unseeded", "note": "a bind mode beyond loopback with no Control UI origins: the read seeds them",
     "config": f'{{ gateway: {{ bind: "lan", {TOKEN} }} }}\n'},
    {"id": "telegram-streaming", "note": "a channel's scalar streaming and streamMode",
     "config": '{\n  channels: {\n    telegram: { botToken: "1:a", streaming: "partial" },\n'
               '    slack: { botToken: "xoxb-1", appToken: "xapp-1", streamMode: "status_final", nativeStreaming: false },'
               '\n  },\n}\n'},
    {"id": "memory-search-top-level", "note": "top-level memorySearch moves under agents.defaults",
     "config": '{ memorySearch: { provider: "openai" }, agents: { defaults: { workspace: "~/w" } } }\n'},
    {"id": "thread-bindings-ttl", "note": "threadBindings.ttlHours becomes idleHours, a discord dm policy moves",
     "config": '{\n  session: { threadBindings: { ttlHours: 12 } },\n'
               '  channels: { discord: { token: "x", dm: { policy: "pairing", allowFrom: ["1"] } } },\n}\n'},
    {"id": "include-two-files", "note": "legacy keys in the file and in the file it includes",
     "config": f'{{\n  $include: "./channels.json5",\n  gateway: {{ bind: "0.0.0.0", {TOKEN} }},\n}}\n',
     "includes": {"channels.json5": '{\n  session: { threadBindings: { ttlHours: 12 } },\n'
                                    '  channels: { telegram: { botToken: "1:a", streamMode: "block" } },\n}\n'}},
    {"id": "bind-lan-with-legacy-key", "note": "bind lan with no origins beside a legacy key: the doctor's migration seeds them",
     "config": f'{{ memorySearch: {{ provider: "openai" }}, gateway: {{ bind: "lan", {TOKEN} }} }}\n'},
    {"id": "audio-transcription", "note": "a migration no legacy rule of the doctor reports",
     "config": '{ audio: { transcription: { command: ["whisper", "{{input}}"] } } }\n'},
    {"id": "web-search-legacy", "note": "a legacy web search provider key moves into its plugin's entry",
     "config": '{ tools: { web: { search: { provider: "brave", brave: { apiKey: "BSA-1" } } } } }\n'},
]


def _read(path: Path) -> Any:
    from vora_cli.core.json5.parser import loads

    return loads(path.read_text(encoding="utf-8"))


def ask(oc: str, case: dict[str, Any], base: Path) -> dict[str, Any]:
    state = base / case["id"]
    home = oc_home(state)
    lay_out(case, state, home)
    names = ["vora.json", *case.get("includes", {})]
    before = {name: (state / name).read_bytes() for name in names}
    done = run_oc(oc, state, ["doctor", "--fix", "--non-interactive"], cwd=state, timeout=600)
    written: dict[str, Any] = {}
    for name in names:
        if (state / name).read_bytes() == before[name]:
            continue
        value = _read(state / name)
        if name == "vora.json" and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k not in STAMPS}
        written[name] = value
    backups = sorted(p.name for p in state.iterdir() if ".bak" in p.name)
    return {"exitCode": done.returncode, "written": written, "backups": backups}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oc", help="the upstream CLI (default: $VORA_UPSTREAM_OC)")
    parser.add_argument("ids", nargs="*", help="only these cases (the others keep their stored answers)")
    args = parser.parse_args()
    oc = oc_command(args.oc)
    stored = {c["id"]: c["answer"] for c in json.loads(OUT.read_text())["cases"]} if OUT.exists() and args.ids else {}
    version = ask_each(oc, CASES, ask, stored, args.ids, "vora-doctor-fix-", json.dumps)
    cases = [{**case, "answer": stored[case["id"]]} for case in CASES if case["id"] in stored]
    OUT.write_text(json.dumps({"version": version, "generatedBy": "scripts/gen_doctor_fix.py",
                               "about": "the files the gateway's `doctor --fix --non-interactive` wrote (parsed, "
                                        "its wizard and meta stamps aside) and the backups it made",
                               "cases": cases}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
