"""A TAB press (`vora __complete`) pays only for what it reads: an ASCII answer is written without
the output layer, a JSON5 config is read without the secret-name rules (they shape parse errors,
which a TAB never shows); a non-ASCII answer still goes through `write_stdout`'s escaping."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from completion_support import REPO, make_state

NOT_ON_A_TAB = {"vora_cli.cli.output", "vora_cli.core.secrets", "typer", "click", "rich"}


def _complete(args: list[str], env: dict[str, str] | None = None) -> tuple[str, set[str]]:
    script = (
        "import sys\n"
        f"sys.argv = ['vora', *{args!r}]\n"
        "from vora_cli.complete import run\n"
        "run(sys.argv[1:])\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    full = {**os.environ, **(env or {}), "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, env=full, check=True, timeout=30)
    return result.stdout.decode("utf-8", "surrogateescape"), set(result.stderr.decode().split())


def test_ascii_answers_load_no_output_layer_and_no_secret_rules(state_dir: Path) -> None:
    make_state(state_dir)
    for kind, expected in (("config-paths", "gateway.port"), ("plugins", "my-engine"), ("requests", "req-7f3a")):
        out, loaded = _complete(["__complete", kind])
        assert expected in out.splitlines(), kind
        assert not (loaded & NOT_ON_A_TAB), f"{kind}: {sorted(loaded & NOT_ON_A_TAB)}"
        if kind != "requests":  # the commented vora.json goes through the JSON5 parser
            assert "vora_cli.core.json5.parser" in loaded


def test_a_non_ascii_answer_is_still_escaped_for_an_ascii_stdout(state_dir: Path) -> None:
    make_state(state_dir)
    (state_dir / "extensions" / "caf\u00e9").mkdir(parents=True)
    utf8, _ = _complete(["__complete", "plugins", "caf"], {"PYTHONIOENCODING": "utf-8"})
    assert utf8 == "caf\u00e9\n"
    ascii_out, loaded = _complete(["__complete", "plugins", "caf"], {"PYTHONIOENCODING": "ascii"})
    assert ascii_out == "caf\\xe9\n"
    assert "vora_cli.cli.output" in loaded
