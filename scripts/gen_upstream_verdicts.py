"""Ask the upstream gateway for its verdict on each config of `tests/data/upstream/validate_cases.json`.

    python scripts/gen_upstream_verdicts.py --oc /work/upstream/oc

For each case: a scratch state dir with the case's `vora.json` (and its `$include`d files), the
case's plugins placed in `<stateDir>/extensions/<id>` (a tarball of `tests/data/plugins/` is
extracted, a fixture folder copied), the case's env; then `config validate --json`. Writes
`tests/data/upstream/validate_verdicts.json` with the version the answers came from. The test
`tests/core/config/test_gateway_verdicts.py` holds vora's `config validate` to these answers.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from upstream import oc_command, oc_version, run_oc

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
CASES = DATA / "upstream" / "validate_cases.json"
VERDICTS = DATA / "upstream" / "validate_verdicts.json"


def place_plugin(spec: str, extensions: Path) -> None:
    source = DATA / "plugins" / spec
    with tempfile.TemporaryDirectory() as tmp:
        if source.suffix == ".tgz":
            with tarfile.open(source) as archive:
                archive.extractall(tmp, filter="data")
            root = Path(tmp) / "package"
        else:
            root = source
        manifest = json.loads((root / "openclaw.plugin.json").read_text())
        shutil.copytree(root, extensions / manifest["id"])


def ask(oc: str, case: dict[str, Any], base: Path) -> dict[str, Any]:
    state = base / case["id"]
    state.mkdir()
    (state / "vora.json").write_text(case["config"], encoding="utf-8")
    for name, text in case.get("includes", {}).items():
        (state / name).write_text(text, encoding="utf-8")
    if case.get("extensions"):
        (state / "extensions").mkdir()
        for spec in case["extensions"]:
            place_plugin(spec, state / "extensions")
    done = run_oc(oc, state, ["config", "validate", "--json"], env=case.get("env"))
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        raise SystemExit(f"{case['id']}: no JSON from the gateway (exit {done.returncode}): "
                         f"{done.stdout[-300:]} {done.stderr[-300:]}") from None
    answer.pop("path", None)  # the scratch dir's path
    answer["exitCode"] = done.returncode
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oc", help="the upstream CLI (default: $VORA_UPSTREAM_OC)")
    parser.add_argument("ids", nargs="*", help="only these cases (the others keep their stored answers)")
    args = parser.parse_args()
    oc = oc_command(args.oc)
    cases = json.loads(CASES.read_text())["cases"]
    stored = json.loads(VERDICTS.read_text())["verdicts"] if VERDICTS.exists() and args.ids else {}
    with tempfile.TemporaryDirectory(prefix="vora-verdicts-") as tmp:
        base = Path(tmp)
        (base / "v").mkdir()
        version = oc_version(oc, base / "v")
        for case in cases:
            if args.ids and case["id"] not in args.ids:
                continue
            stored[case["id"]] = ask(oc, case, base)
            print(case["id"], "valid" if stored[case["id"]].get("valid") else "invalid", flush=True)
    verdicts = {case["id"]: stored[case["id"]] for case in cases if case["id"] in stored}
    VERDICTS.write_text(json.dumps({"version": version, "generatedBy": "scripts/gen_upstream_verdicts.py",
                                    "verdicts": verdicts}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
