"""An env var set to an unusable value (VORA_LOCK_TIMEOUT=soon, VORA_JSON_INDENT=99) is ignored by
every command, as before settings existed; `vora settings list/get` say so on stderr, naming the
variable, the key and the type, so the operator sees why the value in effect is not theirs."""

from __future__ import annotations

from pathlib import Path

import pytest


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
