"""Cost of a TAB press (run by hand: python bench/completion_bench.py).

Prints the median wall time over N runs (env BENCH_RUNS, default 20) of:
  - `python -c pass`, the baseline;
  - `vora __complete plugins` and `vora __complete config-paths` on a realistic state dir
    (a commented vora.json with 40 plugin entries, 40 extension folders), through a launcher
    like the `vora` console script;
  - a whole bash TAB round trip: bash sources completions/vora.bash and runs the completion
    function for `vora config get plugins.entries.` (which calls `vora __complete`), and the
    same for `vora config ` (static: no process);
and each one's ratio to `python -c pass`. Target (issue 7): `vora __complete` within the start-up
budget, at most 4x `python -c pass`.
"""

from __future__ import annotations

import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "20"))
REPO = Path(__file__).resolve().parent.parent


def median_ms(cmd: list[str], env: dict[str, str]) -> float:
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def make_install(root: Path) -> None:
    state = root / ".vora"
    (state / "extensions").mkdir(parents=True)
    entries = ",\n".join(f'      "plugin-{i}": {{ enabled: true }}, // entry {i}' for i in range(40))
    (state / "vora.json").write_text(
        "// bench config\n{\n  gateway: { port: 18789 },\n  plugins: {\n    entries: {\n"
        f"{entries}\n    }},\n  }},\n}}\n"
    )
    for i in range(40):
        (state / "extensions" / f"ext-{i}").mkdir()


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="vora-complete-bench-"))
    make_install(root)
    bin_dir = root / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "vora"  # what pip's console script does: import main, call it
    launcher.write_text(
        f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(REPO)!r})\n"
        "from vora_cli.__main__ import main\nsys.exit(main())\n"
    )
    launcher.chmod(0o755)
    # An installed vora has its bytecode cached; this sandbox sets PYTHONDONTWRITEBYTECODE,
    # which would make every run compile every module.
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "VORA_HOME": str(root), "NO_COLOR": "1",
           "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("VORA_STATE_DIR", None)
    script = REPO / "completions" / "vora.bash"

    def tab(line: str) -> list[str]:
        words = line.split(" ")
        program = (f"source {shlex.quote(str(script))}; COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); "
                   f"COMP_CWORD={len(words) - 1}; _vora")
        return ["bash", "--norc", "--noprofile", "-c", program]

    base = median_ms([sys.executable, "-c", "pass"], env)
    print(f"{'python -c pass':44} {base:7.1f} ms   1.00x")
    cases = [
        ("vora __complete plugins", [str(launcher), "__complete", "plugins"], True),
        ("vora __complete config-paths", [str(launcher), "__complete", "config-paths"], True),
        ("vora --version (full CLI start, reference)", [str(launcher), "--version"], False),
        ("bash TAB: vora config get plugins.entries.", tab("vora config get plugins.entries."), True),
        ("bash TAB: vora config  (static)", tab("vora config "), False),
    ]
    for label, cmd, budgeted in cases:
        ms = median_ms(cmd, env)
        verdict = ("ok" if ms <= 4 * base else "OVER 4x target") if budgeted else ""
        print(f"{label:44} {ms:7.1f} ms  {ms / base:5.2f}x  {verdict}".rstrip())


if __name__ == "__main__":
    main()
