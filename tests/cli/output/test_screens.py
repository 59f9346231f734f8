"""Every command on a real terminal (issue 38; docs/terminal.md): the contract walk's steps, each run
through a pseudo-terminal at 60, 80 and 120 columns, with colour and with `NO_COLOR`.

- No line breaks a word: a line longer than the terminal is one word alone (a path), which no
  fold can break; anything else folds at word boundaries (`wrapping.fold_line`).
- Each screen (stdout and stderr as the terminal showed them, the run's own paths and the test
  gateway's port written as `<ROOT>` and `<PORT>`) is the one recorded in `tests/data/screens/`:
  `RECORD_SCREENS=1` records them again, on purpose.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import EXAMPLES
from contract_support import STEPS
from devices_support import NOW, read_store
from gateway_server import running_gateway
from pty_support import run_with_pty

from vora_cli.core.devices.identity import b64url, raw_public_key_from_pem

REPO = Path(__file__).resolve().parents[3]
SCREENS = REPO / "tests" / "data" / "screens"
WALKS = [(60, "plain"), (80, "plain"), (80, "colour"), (120, "plain"), (120, "colour")]
# Not human views: a shell script (a fold would change what a shell reads) and a JSON document
UNFOLDED = {"completion bash", "context json"}
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _install(root: Path) -> Path:
    shutil.copytree(EXAMPLES / "vora", root / "vora")
    shutil.copytree(EXAMPLES / "plugins", root / "plugins")
    (root / "patch.json5").write_text("{ agents: { defaults: { bootstrapMaxChars: 12345 } } }")
    (root / "home").mkdir()
    editor = root / "editor.sh"
    editor.write_text("#!/bin/sh\nexit 0\n")
    editor.chmod(0o755)
    return editor


# Steps that talk to the test gateway: its clock is the machine's (a signature dated at the pinned
# time would be refused), so they run on the real clock; their times and numbers are named below.
LIVE = ("gateway", "logs")


def walk(root: Path, columns: int, colour: str) -> dict[str, str]:
    """Every step on a terminal `columns` wide: its screen, by the step's words. `root` must have
    the same length in every run: a path's length decides where a line folds."""
    editor = _install(root)
    screens: dict[str, str] = {}
    seen: list[str] = []  # what differs between runs: new devices' ids and keys, a fresh token
    with running_gateway() as gateway:
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "VORA_NOW_MS")}
        env.update(PYTHONPATH=str(REPO), VORA_GATEWAY_PORT=str(gateway.port), EDITOR=str(editor), PAGER="cat",
                   HOME=str(root / "home"), VORA_HOME=str(root / "home"), TMPDIR=str(root))
        if colour == "plain":
            env["NO_COLOR"] = "1"
        request = ""
        for step in STEPS:
            args = [request if a == "{req}" else a for a in step]
            pinned = env if step[0] in LIVE else {**env, "VORA_NOW_MS": str(NOW)}
            code, _piped, shown = run_with_pty([sys.executable, "-m", "vora_cli", "--state-dir", "vora", *args],
                                               pinned, columns=columns, cwd=str(root))
            screens[" ".join(step)] = f"$ vora {' '.join(step)}\n{shown.replace(chr(13) + chr(10), chr(10))}[exit {code}]\n"
            # the new ids and key, read from the files the step wrote (the gateway's formats)
            if step == ("devices", "demo-request"):
                (staged,) = read_store(root / "vora")[0].values()
                request = staged["requestId"]
                seen += [request, staged["deviceId"]]
            elif step == ("devices", "identity", "--create"):
                identity = json.loads((root / "vora" / "identity" / "device.json").read_text(encoding="utf-8"))
                seen += [identity["deviceId"], b64url(raw_public_key_from_pem(identity["publicKeyPem"]))]
        return {step: normalized(text, root, gateway.port, seen) for step, text in screens.items()}


def normalized(text: str, root: Path, port: int, seen: list[str]) -> str:
    """What differs between two runs of the same walk, named: its folder, the gateway's port, the
    ids and keys of the devices it makes (random, as a new device's are), a minted token, the test
    gateway's clock, and the sizes of archives (gzip keeps the files' times)."""
    text = text.replace(str(root), "<ROOT>").replace(f":{port}", ":<PORT>")
    text = re.sub(rf"{re.escape(str(root.parent))}/vora-screens-[0-9a-f]*", "<ROOT>", text)  # cut in a table cell
    for n, value in enumerate(seen):
        for shown in (value, value[:16], value[:12], value[:8]):
            text = text.replace(shown, f"<ID{n}>")
    text = re.sub(r"(?m)^[A-Za-z0-9_-]{43}$", "<TOKEN>", text)  # `devices rotate`'s new token, shown once
    text = re.sub(r"handshake in \d+ ms", "handshake in N ms", text)
    text = re.sub(r"up \d+[hm] \d+[ms]", "up N", text)
    text = re.sub(r'"(ts|durationMs)": \d+', r'"\1": N', text)
    text = re.sub(r"vora-\d{4}-\d\d-\d\d\.log", "vora-DATE.log", text)
    # a progress line rewritten in place (`\r`): the screen shows its last state, whose count is the
    # clock's (at most ten redraws a second)
    text = "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))
    text = re.sub(r"[\d.]+ (?:B|KiB|MiB) of [\d.]+ (?:B|KiB|MiB) \(\d+%\)", "N of M (P%)", text)
    text = re.sub(r"archive \d+\.\d(\s+)KiB|\(\d+\.\d(\s+)KiB\); check",
                  lambda m: f"archive ####{m.group(1) or m.group(2)}KiB", text)  # a fold kept where it was
    # the archive's own size where it is created and listed, its digits hidden one for one (the
    # table's columns stay as wide as they were)
    return re.sub(r"vora\.tar\.gz(?: \(|  \S+(?: \d\d:\d\d)?  )\d+\.\d\s+KiB",  # a narrow screen folds before KiB
                  lambda m: re.sub(r"\d(?=[\d.]*\s+KiB$)|(?<=\d)\.(?=\d\s+KiB$)", "#", m.group(0)), text)


def broken_words(screen: str, columns: int) -> list[str]:
    """The lines the terminal breaks inside a word: longer than it, yet not one word alone."""
    found = []
    for line in _ANSI.sub("", screen).splitlines():
        if len(line) > columns and " " in line.strip():
            found.append(line)
    return found


@pytest.fixture
def fixed_root() -> Iterator[Path]:
    """A folder whose path has the same length in every run (`walk`), removed afterwards."""
    root = Path("/tmp") / f"vora-screens-{uuid.uuid4().hex[:8]}"
    root.mkdir()
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.slow
@pytest.mark.parametrize(("columns", "colour"), WALKS)
def test_every_command_on_a_terminal(columns: int, colour: str, fixed_root: Path) -> None:
    screens = walk(fixed_root, columns, colour)
    broken = {step: lines for step, screen in screens.items()
              if step not in UNFOLDED and (lines := broken_words(screen, columns))}
    assert broken == {}
    recorded = SCREENS / f"{columns}-{colour}.txt"
    text = "\n".join(screens.values())
    if os.environ.get("RECORD_SCREENS"):
        recorded.write_text(text, encoding="utf-8")
        return
    assert text == recorded.read_text(encoding="utf-8")
