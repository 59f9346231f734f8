"""Start-up: `vora --version` (and `--json`), `vora --help` and every everyday (hot) command on the
example install, next to the floor in the same interleaved run.

    python bench/startup.py                       # this checkout
    VORA_BENCH_BASE=/work/main python bench/startup.py   # A/B against another checkout

Budgets `version`, `version-json`, `help`, `config-file`, `config-get`, `config-set`,
`config-validate`, `context-list`, `context-json`, `plugins-list`, `devices-list`, `sessions-list`,
`sessions-show`, `doctor` (docs/performance.md); BENCH_RUNS rounds (default 20). The hot commands
are answered by the fast dispatch (docs/architecture.md, "The fast dispatch"); each is also run
with `VORA_NO_FAST_DISPATCH=1` on this checkout, for what the Typer path costs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import harness

# (label, arguments after `--state-dir EXAMPLE`, budget id, exit code on the example)
HOT = (
    ("config file", ["config", "file"], "config-file", 0),
    ("config get gateway.port", ["config", "get", "gateway.port"], "config-get", 0),
    ("config set gateway.port 18790", ["config", "set", "gateway.port", "18790"], "config-set", 0),
    ("config validate", ["config", "validate"], "config-validate", 0),
    ("context list", ["context", "list"], "context-list", 0),
    ("context json", ["context", "json"], "context-json", 0),
    ("plugins list", ["plugins", "list"], "plugins-list", 0),
    ("devices list", ["devices", "list"], "devices-list", 0),
    ("sessions list", ["sessions", "list"], "sessions-list", 0),
    ("sessions show main", ["sessions", "show", "main"], "sessions-show", 0),
    ("doctor (example: warnings only)", ["doctor"], "doctor", 0),
)


def _forget_verdicts(home: Path, restore: Callable[[], None]) -> Callable[[], None]:
    def forget() -> None:
        restore()
        (home / ".cache" / "vora" / "schema-verdicts").unlink(missing_ok=True)
    return forget


def main() -> None:
    with harness.Bench("startup", runs=20) as bench:
        bench.case("vora --version", ["--version"], budget="version")
        bench.case("vora --version --json", ["--version", "--json"], budget="version-json")
        bench.case("vora --help", ["--help"], budget="help")
        example = harness.example_state(bench.tmp)
        restore = harness.restorer(example)
        at = ["--state-dir", str(example)]
        for label, args, budget, code in HOT:
            before = restore if args[:2] == ["config", "set"] else None
            bench.case(label, [*at, *args], budget=budget, expect=code, before=before)
        # Without the schema-verdict cache (core/config/verdicts.py): what a first run after a
        # change costs. The hot cases above run with it warm, as a repeated run on one config does.
        forget = _forget_verdicts(bench.home, restore)
        for label, args, _budget, code in HOT:
            if args[0] in ("doctor", "config") and args[1:2] != ["file"] and args[1:2] != ["get"]:
                bench.case(f"{label} (no verdict cache)", [*at, *args], expect=code, only_this=True, before=forget)
        for label, args, _budget, code in HOT:
            bench.case(f"{label} (Typer path)", [*at, *args], expect=code, only_this=True,
                       env={"VORA_NO_FAST_DISPATCH": "1"})
        bench.run()


if __name__ == "__main__":
    main()
