"""Hostile input: a ~2 MiB single-line value through `config set`, `config get`, `doctor` and
`validate` (run by hand: python bench/hostile_bench.py). Target: under 1 s each (issue 12, point 8).

The value is a run of identifier characters (a base64 blob, a PEM on one line): the input that
made a regex with a leading unbounded class quadratic. Each case runs the real `vora` in a fresh
process, except `config set` of the long value itself: one command-line argument cannot exceed
128 KiB on Linux, so that case runs in-process through the same Typer app. The config stays just
under the 2 MiB file limit, so every command gets to do its whole work.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
TARGET_S = 1.0
REPO = Path(__file__).resolve().parent.parent
LONG = ("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0" * 60_000)[: 2 * 1024 * 1024 - 4096]


def _state(root: Path, name: str, text: str) -> Path:
    state = root / name
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text(text)
    os.chmod(state / "vora.json", 0o600)
    return state


def _env(state: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(REPO), VORA_STATE_DIR=str(state), HOME=str(state.parent), NO_COLOR="1")
    return env


def _process(state: Path, *args: str) -> Callable[[], int]:
    def run() -> int:
        return subprocess.run([sys.executable, "-m", "vora_cli", *args], env=_env(state), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, check=False, timeout=120).returncode
    return run


def _in_process(state: Path, *args: str) -> Callable[[], int]:
    from typer.testing import CliRunner

    from vora_cli.cli.app import app

    def run() -> int:
        (state / "vora.json").write_text("{\n  gateway: { port: 18789 },\n}\n")
        return CliRunner().invoke(app, list(args), env=_env(state)).exit_code
    return run


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="vora-hostile-"))
    one_line = _state(root, "one-line", '{"gateway":{"port":18789,"auth":{"token":"' + LONG + '"}},"note":"x"}\n')
    plain = _state(root, "plain", '{\n  notes: { blob: "' + LONG + '" },\n}\n')
    unterminated = _state(root, "unterminated", '{ gateway: { auth: { token: "' + LONG + "\n} } }\n")
    unquoted = _state(root, "unquoted", "{ channels: { slack: { botToken: " + LONG + " } } }\n")
    word = _state(root, "word", "{ notes: " + LONG + " }\n")
    fresh = _state(root, "fresh", "{}\n")
    cases: list[tuple[str, Callable[[], int]]] = [
        ("config set (2 MiB value, in-process)", _in_process(fresh, "config", "set", "channels.main.botToken", LONG)),
        ("config set --json (diff of a 2 MiB line)", _process(one_line, "config", "set", "note", "y", "--json")),
        ("config set --dry-run (plain 2 MiB value)", _process(plain, "config", "set", "notes.x", "1", "--dry-run")),
        ("config get (2 MiB secret, redacted)", _process(one_line, "config", "get", "--json")),
        ("config get (2 MiB plain value)", _process(plain, "config", "get", "notes.blob")),
        ("config validate (2 MiB line)", _process(one_line, "config", "validate")),
        ("config validate (unterminated 2 MiB secret)", _process(unterminated, "config", "validate")),
        ("config get (unquoted 2 MiB secret)", _process(unquoted, "config", "get", "gateway")),
        ("doctor (unterminated 2 MiB secret)", _process(unterminated, "doctor", "--json")),
        ("doctor (unquoted 2 MiB secret)", _process(unquoted, "doctor", "--json")),
        ("doctor (unquoted 2 MiB word)", _process(word, "doctor", "--json")),
        ("doctor (2 MiB secret that parses)", _process(one_line, "doctor", "--json")),
    ]
    worst = 0.0
    for name, run in cases:
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            code = run()
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        worst = max(worst, median)
        verdict = "ok" if median < TARGET_S else "SLOW"
        print(f"{name:48} {median:6.3f} s  (exit {code})  {verdict}")
    print(f"worst median {worst:.3f} s, target < {TARGET_S} s each")
    return 0 if worst < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
