"""Record the gateway's own verdicts on the states of `security_states.py` (run by hand, once).

    python tests/support/record_upstream_security.py [/work/upstream/oc [STATE ...]]

For each state: `security audit --json` (with `--deep` where the state says so) and
`secrets audit --json`, run from the state dir (the gateway resolves a relative
`plugins.load.paths` entry against the current directory) with a scratch HOME. Then, for the
states in AFTER_FIX, `vora security audit --fix --yes` and the gateway's audit once more: the
file findings both audits make must be gone. A state marked `zalo_login` is recorded with
`zalo_login_stub.mjs` loaded into the gateway's node: it answers a saved Zalo session's login in
place of Zalo's servers (the gateway audits a zalouser account only once that login works).
Writes tests/data/upstream/security-audit-openclaw-2026.4.12.json (checkId, severity and title of each finding; paths inside the state shown as `<state>`).
The tests never run the gateway: they read this file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from security_states import REPO, STATES, UPSTREAM_DATA, SecurityState

VERSION = "openclaw 2026.4.12"
AFTER_FIX = ("example", "world-open", "group-open", "readable", "pasted-token")


ZALO_LOGIN_STUB = Path(__file__).resolve().parent / "zalo_login_stub.mjs"


def _run(oc: str, state: Path, home: Path, *args: str, zalo_login: bool = False) -> tuple[int, Any, str]:
    env = {**os.environ, "OC_STATE": str(state), "OC_HOME": str(home)}
    if zalo_login:
        env["NODE_OPTIONS"] = f"{env.get('NODE_OPTIONS', '')} --import={ZALO_LOGIN_STUB}".strip()
    done = subprocess.run([oc, *args], cwd=state, env=env, capture_output=True, text=True, timeout=300, check=False)
    try:
        return done.returncode, json.loads(done.stdout), done.stderr
    except json.JSONDecodeError:
        return done.returncode, None, (done.stdout + done.stderr)


def _shown(text: str, root: Path) -> str:
    return text.replace(str(root), "<root>")


def _files(state: Path) -> set[str]:
    return {os.path.relpath(os.path.join(here, name), state) for here, _dirs, names in os.walk(state) for name in names}


def _audit(oc: str, state: Path, root: Path, deep: bool, zalo_login: bool = False) -> dict[str, Any]:
    home = root / "oc-home"
    home.mkdir(exist_ok=True)
    before = _files(state)
    rc, doc, err = _run(oc, state, home, "security", "audit", "--json", *(["--deep"] if deep else []),
                       zalo_login=zalo_login)
    if doc is None:  # the gateway refused the config before auditing it
        problem = [line.strip()[2:] for line in err.splitlines() if line.strip().startswith("- ")]
        return {"exit": rc, "refused": [_shown(p, root) for p in problem]}
    findings = [[f["checkId"], f["severity"], f["title"]] for f in doc["findings"]]
    _rc, secrets, _err = _run(oc, state, home, "secrets", "audit", "--json")
    secret_findings = [] if secrets is None else [
        [f["code"], f["severity"], f["jsonPath"], _shown(f["file"], root)] for f in secrets["findings"]]
    created = sorted(_files(state) - before)  # the gateway writes while it audits (models.json, logs)
    return {"exit": rc, "summary": doc["summary"], "findings": findings, "secrets": secret_findings,
            "createdByGateway": created}


def _vora_fix(state: Path, root: Path) -> str:
    env = {**os.environ, "HOME": str(root / "vora-home"), "VORA_HOME": str(root / "vora-home")}
    done = subprocess.run([sys.executable, "-m", "vora_cli", "--state-dir", str(state), "security", "audit", "--fix",
                           "--yes", "--json"], cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    return done.stdout


def record_state(oc: str, spec: SecurityState) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix=f"sec-{spec.name}-") as tmp:
        root = Path(tmp)
        state = spec.build(root)
        entry: dict[str, Any] = {"about": spec.about, "deep": spec.deep,
                                 **_audit(oc, state, root, spec.deep, spec.zalo_login)}
    if spec.name in AFTER_FIX:
        with tempfile.TemporaryDirectory(prefix=f"sec-{spec.name}-fix-") as tmp:
            root = Path(tmp)
            state = spec.build(root)
            fixed = json.loads(_vora_fix(state, root))
            entry["afterVoraFix"] = {
                "voraFixes": [[f["id"], f["status"]] for f in fixed.get("fixes", [])],
                **_audit(oc, state, root, spec.deep),
            }
    return entry


def main(argv: list[str]) -> int:
    """`[OC] [STATE ...]`: only the named states are asked again (the others keep their answers)."""
    oc = argv[1] if len(argv) > 1 else "/work/upstream/oc"
    only = set(argv[2:])
    stored = json.loads(UPSTREAM_DATA.read_text())["states"] if only and UPSTREAM_DATA.exists() else {}
    states = {spec.name: record_state(oc, spec) if not only or spec.name in only else stored[spec.name]
              for spec in STATES}
    data = {"version": VERSION, "recordedWith": "security audit --json [--deep]; secrets audit --json",
            "states": states}
    UPSTREAM_DATA.parent.mkdir(parents=True, exist_ok=True)
    UPSTREAM_DATA.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {UPSTREAM_DATA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
