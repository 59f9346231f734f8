"""`config get` prints the stored value as it is to a pipe or file (scripts get the value), and
with control characters escaped on a terminal (a value cannot drive the terminal)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run

# JSON5 escapes, so the file itself stays plain text: ESC (colour), BEL, CR, a bidi override,
# a C1 control (CSI), DEL.
VALUES = {
    "\\u001b[31mred\\u001b[0m": "\x1b[31mred\x1b[0m",
    "bell\\u0007": "bell\x07",
    "over\\rwrite": "over\rwrite",
    "\\u202eevil": "\u202eevil",
    "csi\\u009b2J": "csi\x9b2J",
    "del\\u007f": "del\x7f",
}


def _config(state_dir: Path, escaped: str) -> None:
    (state_dir / "vora.json").write_text('{ agents: { defaults: { workspace: "' + escaped + '" } } }\n',
                                         encoding="utf-8")


@pytest.mark.parametrize("escaped", list(VALUES))
def test_piped_get_prints_the_stored_value(vora: Callable[..., Run], state_dir: Path, escaped: str) -> None:
    _config(state_dir, escaped)
    run = vora("config", "get", "agents.defaults.workspace")
    assert run.exit_code == 0
    assert run.stdout == VALUES[escaped] + "\n"


@pytest.mark.parametrize("escaped", list(VALUES))
def test_terminal_get_escapes_control_characters(state_dir: Path, escaped: str) -> None:
    _config(state_dir, escaped)
    main, child = os.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "vora_cli", "config", "get", "agents.defaults.workspace"],
                              stdout=child, stderr=subprocess.PIPE, env=os.environ.copy(), timeout=60)
        os.close(child)
        child = -1
        out = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # EIO: the child side is closed
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(main)
        if child != -1:
            os.close(child)
    assert proc.returncode == 0, proc.stderr
    text = out.decode("utf-8").replace("\r\n", "\n")
    raw = VALUES[escaped]
    assert text.endswith("\n") and raw not in text
    assert not any(c in text for c in "\x1b\x07\x9b\x7f\u202e") and "\r" not in text
