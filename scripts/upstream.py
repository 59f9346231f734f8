"""Run the upstream gateway CLI (the OpenClaw release vora's gateway comes from) on a scratch state dir.

Shared by the generators in this folder. The CLI is named by `--oc PATH` or `$VORA_UPSTREAM_OC`: a
script that runs `openclaw` with `OPENCLAW_STATE_DIR`/`OPENCLAW_CONFIG_PATH` taken from `OC_STATE`/
`OC_CONFIG` and `HOME` from `OC_HOME` (the reference machine's `/work/upstream/oc`; see
`../shared/spec/upstream.md`). Nothing here is needed to build, test or run vora.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any


def oc_command(arg: str | None) -> str:
    found = arg or os.environ.get("VORA_UPSTREAM_OC")
    if not found:
        raise SystemExit("name the upstream CLI: --oc PATH or VORA_UPSTREAM_OC=PATH (see scripts/upstream.py)")
    return found


def oc_home(state: Path) -> Path:
    """The scratch HOME `run_oc` gives the gateway for a state dir."""
    return state.parent / (state.name + "-home")


def run_oc(oc: str, state: Path, args: list[str], env: dict[str, str] | None = None,
           timeout: float = 300, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "OC_STATE": str(state), "OC_HOME": str(oc_home(state)), **(env or {})}
    return subprocess.run([oc, *args], capture_output=True, text=True, env=full, timeout=timeout,
                          stdin=subprocess.DEVNULL, check=False, cwd=cwd)


def oc_version(oc: str, state: Path) -> str:
    """`openclaw 2026.4.12`, from `--version` (`OpenClaw 2026.4.12 (1c0672b)`)."""
    out = run_oc(oc, state, ["--version"]).stdout
    match = re.search(r"(\d+\.\d+\.\d+)", out)
    if not match:
        raise SystemExit(f"cannot read the upstream version from: {out!r}")
    return f"openclaw {match.group(1)}"


def ask_each(oc: str, cases: list[dict[str, Any]], ask: Callable[[str, dict[str, Any], Path], dict[str, Any]],
             stored: dict[str, dict[str, Any]], only: list[str], prefix: str,
             shown: Callable[[dict[str, Any]], str]) -> str:
    """`ask(oc, case, scratch folder)` for each case (only those named in `only`, when some are: the
    others keep their `stored` answers), each answer stored and printed as `shown` says; the
    gateway's version."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        base = Path(tmp)
        (base / "v").mkdir()
        version = oc_version(oc, base / "v")
        for case in cases:
            if only and case["id"] not in only:
                continue
            stored[case["id"]] = ask(oc, case, base)
            print(case["id"], shown(stored[case["id"]]), flush=True)
    return version
