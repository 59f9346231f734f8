"""flag > env > settings > default for the two settings only a terminal shows: `pager` and `color`
(issue 15 §2, at the place each is used; the other keys: tests/cli/settings/test_settings.py, tests/cli/gateway/test_settings.py).

An env var set to an unusable value (VORA_LOCK_TIMEOUT=soon, VORA_JSON_INDENT=99) is ignored by
every command, as before settings existed; `vora settings list/get` say so on stderr, naming the
variable, the key and the type, so the operator sees why the value in effect is not theirs.
"""

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


@pytest.mark.parametrize(("name", "raw", "key", "words"), [
    ("VORA_LOCK_TIMEOUT", "soon", "lock_timeout", "must be a number, not 'soon'"),
    ("VORA_LOCK_TIMEOUT", "-1", "lock_timeout", "must be a number >= 0"),
    ("VORA_LOCK_TIMEOUT", "inf", "lock_timeout", "must be a finite number, not inf"),
    ("VORA_JSON_INDENT", "99", "json_indent", "from 0 to 16, not 99"),
    ("VORA_JSON_INDENT", "two", "json_indent", "must be an integer, not 'two'"),
])
def test_settings_list_and_get_warn_about_an_unusable_env_value(vora, name: str, raw: str, key: str,
                                                               words: str) -> None:
    for args in (["settings", "list"], ["settings", "get", key], ["settings", "get", key, "--json"],
                 ["-q", "settings", "list"]):
        result = vora(*args, env={name: raw})
        assert result.exit_code == 0
        warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
        assert len(warnings) == 1 and words in warnings[0] and warnings[0].endswith("; ignored"), result.stderr
        assert f"'{key}'" in warnings[0] or name in warnings[0]
    doc = vora("settings", "get", key, "--json", env={name: raw}).json()
    assert doc["source"] == "default"  # ignored, as the warning says


@pytest.mark.parametrize(("name", "raw"), [("VORA_LOCK_TIMEOUT", "2.5"), ("VORA_JSON_INDENT", "4"),
                                           ("FORCE_COLOR", "0"), ("PAGER", "cat")])
def test_a_usable_env_value_gets_no_warning(vora, name: str, raw: str) -> None:
    result = vora("settings", "list", env={name: raw})
    assert result.exit_code == 0 and "warning" not in result.stderr


def test_other_commands_still_ignore_it_quietly(vora, state_dir: Path) -> None:
    result = vora("config", "set", "gateway.port", "18790", env={"VORA_LOCK_TIMEOUT": "soon"})
    assert result.exit_code == 0 and "warning" not in result.stderr
