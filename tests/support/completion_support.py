"""Shared helpers for the completion tests: a realistic state dir, session stores, a `vora` on PATH,
where each shell's script is installed."""

from __future__ import annotations

import functools
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from vora_cli.cli.docgen.tree import CommandSpec

REPO = Path(__file__).resolve().parents[2]
# Where `vora completion SHELL --install` puts each shell's script, under the home.
SCRIPT_PATH = {"bash": ".local/share/bash-completion/completions/vora", "zsh": ".local/share/zsh/site-functions/_vora",
               "fish": ".config/fish/completions/vora.fish"}
# Session keys in two agents' stores (`write_session_stores`).
SESSION_KEYS = ["agent:main:main", "agent:main:telegram:group:-1001234567890", "agent:ops:cron:nightly"]

CONFIG = """// the operator's own comments stay
{
  gateway: { port: 18789 },
  plugins: {
    entries: {
      "my-engine": { enabled: true },  // linked for development
      "@acme/memory": { enabled: false },
    },
    installs: { "lossless-claw": { source: "npm", spec: "lossless-claw" } },
  },
  agents: { list: [{ id: "main" }] },
}
"""

PENDING = {
    "req-7f3a": {"requestId": "req-7f3a", "deviceId": "96ce6dad0000aaaa", "ts": 1},
    "req-b210": {"requestId": "req-b210", "deviceId": "c0ffee00c0ffee00", "ts": 2},
}
PAIRED = {"96ce6dad0000aaaa": {"deviceId": "96ce6dad0000aaaa"}, "abcd1234abcd1234": {"deviceId": "abcd1234abcd1234"}}


def make_state(state_dir: Path) -> Path:
    """A state dir with a commented vora.json, two extension folders and a pairing store."""
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "vora.json").write_text(CONFIG)
    for name in ("ext-folder", "my-engine", ".staging"):
        (state_dir / "extensions" / name).mkdir(parents=True)
    (state_dir / "extensions" / "stray-file.txt").write_text("not a plugin")
    devices = state_dir / "devices"
    devices.mkdir()
    (devices / "pending.json").write_text(json.dumps(PENDING, indent=2))
    (devices / "paired.json").write_text(json.dumps(PAIRED, indent=2))
    return state_dir


def vora_on_path(bin_dir: Path) -> dict[str, str]:
    """An env whose PATH has a `vora` that runs this checkout (what the scripts call on TAB)."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    wrapper = bin_dir / "vora"
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="{REPO}" exec "{sys.executable}" -m vora_cli "$@"\n')
    wrapper.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return env


@functools.cache
def vora_tree() -> CommandSpec:
    """The command tree of the real app, as `vora completion` and the generator read it: built
    once per process (frozen data; the app does not change while the tests run)."""
    from vora_cli.cli.app import root_command
    from vora_cli.cli.docgen.tree import command_tree

    return command_tree(root_command())


@functools.cache
def script(shell: str) -> str:
    """The completion script the app generates for `shell` (35 ms each; one per process)."""
    from vora_cli.cli.docgen.shell_scripts import render

    return render(shell, vora_tree())


def zpty_tab_press(keys: str, until: list[str], patience: int = 400) -> str:
    """A `zsh -f -c` driver: type `keys` (a $'...' body, `\\t` for TAB) into an interactive zsh on
    a pseudo-terminal and print what it shows once every text of `until` is on screen (polled
    every 50 ms, `patience` times: a hang guard of 20 s, not a wait on every run)."""
    assert all('"' not in text and "$" not in text and "`" not in text for text in until)
    shown = " && ".join(f'$all == *"{text}"*' for text in until)
    return (
        "zmodload zsh/zpty\n"
        "zpty z 'TERM=dumb zsh -i'\n"
        f"zpty -w -n z $'{keys}'\n"
        "local all='' chunk\n"
        f"for i in {{1..{patience}}}; do\n"
        "  while zpty -r -t z chunk; do all+=$chunk; done\n"
        f"  [[ {shown} ]] && break\n"
        "  sleep 0.05\n"
        "done\n"
        "print -r -- $all\n"
        "zpty -d z\n"
    )


def write_session_stores(state_dir: Path) -> None:
    """The stores of agents main (the first two SESSION_KEYS) and ops (the last)."""
    for agent, keys in (("main", SESSION_KEYS[:2]), ("ops", SESSION_KEYS[2:])):
        store = state_dir / "agents" / agent / "sessions"
        store.mkdir(parents=True)
        (store / "sessions.json").write_text(json.dumps({k: {"sessionId": k[-4:], "updatedAt": 1} for k in keys}))


def bash_complete(script: Path, env: dict[str, str], line: str, *, words: list[str] | None = None) -> list[str]:
    """The candidates a real bash's `_vora` puts in COMPREPLY for `line` (cursor at its end);
    `words`: COMP_WORDS as bash splits the line (default: at spaces; bash also splits at `:` and
    `=`, COMP_WORDBREAKS, which a test of such words passes)."""
    words = line.split(" ") if words is None else words
    program = (
        f"source {shlex.quote(str(script))}\n"
        f"COMP_LINE={shlex.quote(line)}; COMP_POINT=${{#COMP_LINE}}\n"
        f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
        "COMPREPLY=(); _vora; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True,
                            env=env, check=True, timeout=30)
    assert result.stderr == ""
    return [w for w in result.stdout.splitlines() if w]


needs_zsh = pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (.ci/run installs it)")
needs_fish = pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed (.ci/run installs it)")


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file (with its bytes) and folder under `root`."""
    out: dict[str, bytes | None] = {}
    for path in sorted(root.rglob("*")):
        out[path.relative_to(root).as_posix()] = path.read_bytes() if path.is_file() else None
    return out


ZSH_RECORDERS = r"""
compdef() { : }
_describe() { local name=$4 d; for d in "${(@P)name}"; do print -r -- "${${d%%:*}//\\/}"; done }
compadd() { while [[ $1 == -* ]]; do if [[ $1 == -- ]]; then shift; break; fi; shift; done; print -rl -- "$@" }
_files() { if [[ $1 == -/ ]]; then print '<dirs>'; else print '<files>'; fi }
compset() { : }
"""


def zsh_complete(script: Path, env: dict[str, str], line: str) -> list[str]:
    words = line.split(" ")
    program = (
        ZSH_RECORDERS + f"source {shlex.quote(str(script))}\n"
        f"words=({' '.join(shlex.quote(w) for w in words)}); CURRENT={len(words)}\n_vora; true\n"
    )
    result = subprocess.run(["zsh", "-f", "-c", program], capture_output=True, text=True, env=env, check=True,
                            timeout=30)
    assert result.stderr == ""
    cur = words[-1]
    return [w for w in result.stdout.splitlines() if w.startswith(cur) or w.startswith("<")]


def fish_complete(script: Path, env: dict[str, str], line: str) -> list[str]:
    program = f"source {shlex.quote(str(script))}; complete -C {shlex.quote(line)}"
    result = subprocess.run(["fish", "--no-config", "-c", program], capture_output=True, text=True, env=env,
                            check=True, timeout=30)
    assert result.stderr == ""
    return [row.split("\t")[0] for row in result.stdout.splitlines()]
