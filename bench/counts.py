"""Instructions the everyday commands execute (callgrind), against the floor app: the load-proof
companion of `startup.py`'s wall times, for a change that touches every start (an option every
command takes).

    VORA_BENCH_BASE=/path/to/main python bench/counts.py

Each checkout is installed non-editable (`harness.install`), each command runs once unmeasured
(bytecode, the verdict cache) and once under `valgrind --tool=callgrind` with `PYTHONHASHSEED=0`, on a
fresh copy of the example install. Prints each count, its ratio to the floor and the change from
the base. Without valgrind it says so and stops.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import harness

CASES = (("config", "file"), ("config", "get", "gateway.port"), ("config", "set", "gateway.port", "18790"),
         ("config", "validate"), ("context", "list"), ("context", "json"), ("plugins", "list"), ("devices", "list"),
         ("sessions", "list"), ("sessions", "show", "main"), ("doctor",))


def main() -> None:
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: no instruction counts")
    sides = harness.checkouts()
    with tempfile.TemporaryDirectory(prefix="vora-counts-") as tmp:
        root = Path(tmp)
        home = root / "home"
        home.mkdir()
        env = harness.clean_env(home)
        floor_app = root / "floor.py"
        floor_app.write_text(harness.FLOOR_APP)
        floor, _ = harness.count_instructions([sides[-1].python, str(floor_app), "hello"], env, scratch=root)
        if floor is None:
            sys.exit("callgrind gave no count for the floor app")
        print(f"floor (minimal Typer app): {floor / 1e6:.1f}M instructions")
        for case in CASES:
            counts = []
            for side in sides:
                place = root / side.label
                shutil.rmtree(place, ignore_errors=True)
                place.mkdir()
                state = harness.example_state(place)
                argv = [side.vora, "--state-dir", str(state), *case]
                subprocess.run(argv, env=env, capture_output=True, check=False)  # bytecode, the verdict cache
                if case[:2] == ("config", "set"):
                    subprocess.run([side.vora, "--state-dir", str(state), "config", "set", "gateway.port", "18789"],
                                   env=env, capture_output=True, check=False)
                count, code = harness.count_instructions(argv, env, scratch=root)
                counts.append((side.label, count, code))
            shown = "  ".join(f"{label} {n / 1e6:7.1f}M ({n / floor:.2f}x floor, exit {code})"
                              for label, n, code in counts if n is not None)
            change = ""
            if len(counts) == 2 and counts[0][1] and counts[1][1]:
                change = f"  {100 * (counts[1][1] - counts[0][1]) / counts[0][1]:+.1f}%"
            print(f"{' '.join(case):34} {shown}{change}")


if __name__ == "__main__":
    main()
