"""A `--json` error's hint quotes the real command, with the global options the operator typed,
as the human hint does (spec gateway.md: pairing required names the exact `vora devices approve`
command; sessions.md: `session_not_found` hints at `vora sessions list`)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from gateway_server import refused_port, running_gateway
from sessions_support import NOW, write_store


def _both(vora: Any, state: Path, *args: str) -> tuple[str, str]:
    """(human hint, JSON hint) of one failing command, run with `--state-dir`."""
    human = vora("--state-dir", str(state), *args)
    doc = vora("--state-dir", str(state), *args, "--json")
    assert human.exit_code == 1 and doc.exit_code == 1, (human.stderr, doc.stdout)
    hint_line = next(line for line in human.stderr.splitlines() if line.startswith("hint: "))
    return hint_line.removeprefix("hint: "), json.loads(doc.stdout)["error"]["hint"]


def test_pairing_required_json_hint_is_the_exact_approve_command(tmp_path: Path, vora: Any) -> None:
    state = tmp_path / "other state"  # a space: the option is shell-quoted
    state.mkdir()
    with running_gateway(auto_pair=False) as gw:
        human, hint = _both(vora, state, "gateway", "status", "--url", gw.url)
    prefix = f"vora --state-dir {shlex.quote(str(state))} devices approve "
    for text in (hint, human):
        assert text.startswith(f"on the gateway host run: {prefix}") and "vora devices approve" not in text
        assert f"(or: {prefix}--latest)" in text


def test_session_not_found_json_hint_names_the_state_dir(tmp_path: Path, vora: Any) -> None:
    state = tmp_path / "state"
    write_store(state, {"agent:main:main": {"sessionId": "s1", "updatedAt": NOW}})
    human, hint = _both(vora, state, "sessions", "show", "nope")
    assert f"vora --state-dir {state} sessions list --agent main" in hint
    assert hint == human


def test_refused_gateway_json_hint_names_the_state_dir(tmp_path: Path, vora: Any) -> None:
    state = tmp_path / "state"
    state.mkdir()
    human, hint = _both(vora, state, "gateway", "status", "--url", f"ws://127.0.0.1:{refused_port()}")
    assert f"vora --state-dir {state} logs --file" in hint
    assert hint == human
