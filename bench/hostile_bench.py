"""Hostile input: a ~2 MiB single-line value through `config set`, `config get`, `doctor` and
`validate` (issue 12, point 8).

    python bench/hostile_bench.py                 # VORA_BENCH_BASE=/other/checkout for A/B

The value is a run of identifier characters (a base64 blob, a PEM on one line): the input that
made a regex with a leading unbounded class quadratic. One command-line argument cannot exceed
128 KiB on Linux, so `config set` of the long value itself runs the installed vora's `main` from
a two-line Python program that reads the value from a file. The configs stay just under the
2 MiB file limit, so every command does its whole work, and use keys the gateway's schema
accepts (`env.*`, a Telegram bot token), so that each command's check passes and it goes on to
write or show. Budget `hostile` (docs/performance.md);
BENCH_RUNS rounds (default 3).
"""

from __future__ import annotations

import os
from pathlib import Path

import harness

LONG = ("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0" * 60_000)[: 2 * 1024 * 1024 - 4096]
SET_FROM_FILE = ("import sys; value = open(sys.argv[1]).read(); "
                 "sys.argv = ['vora', 'config', 'set', 'channels.telegram.botToken', value]; "
                 "from vora_cli.__main__ import main; main()")


def _state(root: Path, name: str, text: str) -> Path:
    state = root / name
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text(text)
    os.chmod(state / "vora.json", 0o600)
    return state


def main() -> None:
    with harness.Bench("hostile", runs=3) as bench:
        root = bench.tmp
        one_line = _state(root, "one-line", '{"gateway":{"port":18789,"auth":{"token":"' + LONG + '"}},"env":{"NOTE":"x"}}\n')
        plain = _state(root, "plain", '{\n  env: { BLOB: "' + LONG + '" },\n}\n')
        unterminated = _state(root, "unterminated", '{ gateway: { auth: { token: "' + LONG + "\n} } }\n")
        unquoted = _state(root, "unquoted", "{ channels: { slack: { botToken: " + LONG + " } } }\n")
        word = _state(root, "word", "{ notes: " + LONG + " }\n")
        fresh = _state(root, "fresh", "{\n  gateway: { port: 18789 },\n}\n")
        value = root / "value.txt"
        value.write_text(LONG)

        def case(label: str, state: Path, *args: str, expect: int = 0) -> None:
            bench.case(label, ["--state-dir", str(state), *args], budget="hostile", expect=expect,
                       before=harness.restorer(state))

        bench.case("config set (2 MiB value, read from a file)", ["-c", SET_FROM_FILE, str(value)], program="python",
                   budget="hostile", env={"VORA_STATE_DIR": str(fresh)}, before=harness.restorer(fresh))
        case("config set --json (diff of a 2 MiB line)", one_line, "config", "set", "env.NOTE", "y", "--json")
        case("config set --dry-run (plain 2 MiB value)", plain, "config", "set", "env.X", "one", "--dry-run")
        case("config get (2 MiB secret, redacted)", one_line, "config", "get", "--json")
        case("config get (2 MiB plain value)", plain, "config", "get", "env.BLOB")
        case("config validate (2 MiB line)", one_line, "config", "validate")
        case("config validate (unterminated 2 MiB secret)", unterminated, "config", "validate", expect=1)
        case("config get (unquoted 2 MiB secret)", unquoted, "config", "get", "gateway", expect=1)
        case("doctor (unterminated 2 MiB secret)", unterminated, "doctor", "--json", expect=1)
        case("doctor (unquoted 2 MiB secret)", unquoted, "doctor", "--json", expect=1)
        case("doctor (unquoted 2 MiB word)", word, "doctor", "--json", expect=1)
        case("doctor (2 MiB secret that parses)", one_line, "doctor", "--json")
        bench.run()


if __name__ == "__main__":
    main()
