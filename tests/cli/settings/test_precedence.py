"""flag > env > settings > default for the two settings only a terminal shows: `pager` and `color`
(issue 15 §2, at the place each is used; the other keys: test_settings.py, test_gateway_settings.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from pty_support import run_with_pty

from tests.conftest import EXAMPLES, REPO

EXAMPLE_STATE = ["--state-dir", str(EXAMPLES / "vora")]


def on_a_terminal(args: list[str], env: dict[str, str | None]) -> str:
    """Run vora with stdout and stderr on a pseudo-terminal; what it printed there."""
    full = {**os.environ, "PYTHONPATH": str(REPO)}
    for name, value in env.items():
        if value is None:
            full.pop(name, None)
        else:
            full[name] = value
    return run_with_pty([sys.executable, "-m", "vora_cli", *args], full, default_pager="PAGER" not in env)[2]


@pytest.mark.parametrize("args", [["config", "schema"], [*EXAMPLE_STATE, "context", "preview"]])
def test_the_pager_setting_is_used_and_pager_env_wins(settings_file: Path, tmp_path: Path, args: list[str]) -> None:
    from_settings, from_env = tmp_path / "settings.txt", tmp_path / "env.txt"
    settings_file.write_text(f"pager = \"cat > '{from_settings}'\"\n")
    on_a_terminal(args, {"PAGER": None})
    assert from_settings.exists() and from_settings.stat().st_size > 100
    from_settings.unlink()
    on_a_terminal(args, {"PAGER": f"cat > '{from_env}'"})
    assert from_env.stat().st_size > 100 and not from_settings.exists()


@pytest.mark.parametrize(("setting", "env", "coloured"), [
    ("always", {}, True),
    ("never", {}, False),
    ("never", {"FORCE_COLOR": "1"}, True),  # env > settings
    ("never", {"CLICOLOR_FORCE": "1"}, True),
    ("always", {"NO_COLOR": "1"}, False),
    ("auto", {}, True),  # a terminal
])
def test_the_color_setting_on_a_terminal_and_env_wins(settings_file: Path, vora, setting: str, env: dict[str, str],
                                                      coloured: bool) -> None:
    settings_file.write_text(f"color = \"{setting}\"\n")
    clean: dict[str, str | None] = {"NO_COLOR": None, "FORCE_COLOR": None, **env}
    if setting == "auto" or (setting == "never" and not env):
        # what a terminal changes: `auto` colours it, `never` still does not
        text = on_a_terminal([*EXAMPLE_STATE, "doctor"], clean)
    else:  # `always` and the env variables decide without asking the stream: in-process, piped
        text = vora(*EXAMPLE_STATE, "doctor", env=clean).stdout
    assert "config-file" in text
    assert ("\x1b[" in text) is coloured
