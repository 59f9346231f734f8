"""Ask the upstream gateway for its verdict on each config of `tests/data/upstream/validate_cases.json`.

    python scripts/gen_upstream_verdicts.py --oc /work/upstream/oc [ID ...]

For each case: a scratch state dir laid out as `tests/support/verdict_cases.py` says (the case's
`vora.json` and its `$include`d files, its plugins, its other files), the case's env; then
`config validate --json`, run from the state dir: the gateway resolves a relative
`plugins.load.paths` entry against the current directory, vora against the config's folder
(docs/config.md), so the two agree there. For a config it accepts, its warnings too: the
"Config warnings:" it logs on `skills list --json` (a command that reads the config and loads no
plugin code), and the `${VAR}`s it found unset (`missingEnvVars`). Writes `tests/data/upstream/validate_verdicts.json` with the version the answers came
from, the scratch folders written as `<state>` and `<home>`. The test
`tests/core/config/test_gateway_verdicts.py` holds vora's `config validate` to these answers.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))
from upstream import ask_each, oc_command, oc_home, run_oc
from verdict_cases import lay_out, shown

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
CASES = DATA / "upstream" / "validate_cases.json"
VERDICTS = DATA / "upstream" / "validate_verdicts.json"
WARNINGS = "Config warnings:"


def config_warnings(stderr: str) -> list[dict[str, str]]:
    """The warnings of the gateway's `Config warnings:` block: `- path: message` lines (its first
    separator is a literal backslash-n)."""
    if WARNINGS not in stderr:
        return []
    lines = stderr[stderr.index(WARNINGS) + len(WARNINGS):].replace("\\n", "\n", 1).split("\n")
    found = []
    for line in lines[1:]:
        if not line.startswith("- "):
            break
        path, _, message = line[2:].partition(": ")
        found.append({"path": path, "message": message})
    return found


def ask(oc: str, case: dict[str, Any], base: Path) -> dict[str, Any]:
    state = base / case["id"]
    home = oc_home(state)
    lay_out(case, state, home)
    done = run_oc(oc, state, ["config", "validate", "--json"], env=case.get("env"), cwd=state)
    try:
        answer = json.loads(shown(done.stdout, state, home))
    except ValueError:
        raise SystemExit(f"{case['id']}: no JSON from the gateway (exit {done.returncode}): "
                         f"{done.stdout[-300:]} {done.stderr[-300:]}") from None
    answer.pop("path", None)  # the scratch dir's path
    answer["exitCode"] = done.returncode
    if answer.get("valid"):
        logged = run_oc(oc, state, ["skills", "list", "--json"], env=case.get("env"), cwd=state)
        answer["warnings"] = config_warnings(shown(logged.stderr, state, home))
        answer["missingEnvVars"] = missing_env_vars(logged.stderr)
    return answer


def missing_env_vars(stderr: str) -> list[list[str]]:
    """The `${VAR}`s the gateway found unset as it read the config, with where: its
    `missing env var "NAME" at PATH` lines, in its order."""
    return [[m.group(1), m.group(2)] for m in re.finditer(r'missing env var "([A-Z_][A-Z0-9_]*)" at (\S+)', stderr)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oc", help="the upstream CLI (default: $VORA_UPSTREAM_OC)")
    parser.add_argument("ids", nargs="*", help="only these cases (the others keep their stored answers)")
    args = parser.parse_args()
    oc = oc_command(args.oc)
    cases = json.loads(CASES.read_text())["cases"]
    stored = json.loads(VERDICTS.read_text())["verdicts"] if VERDICTS.exists() and args.ids else {}
    version = ask_each(oc, cases, ask, stored, args.ids, "vora-verdicts-",
                       lambda answer: "valid" if answer.get("valid") else "invalid")
    verdicts = {case["id"]: stored[case["id"]] for case in cases if case["id"] in stored}
    VERDICTS.write_text(json.dumps({"version": version, "generatedBy": "scripts/gen_upstream_verdicts.py",
                                    "verdicts": verdicts}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
