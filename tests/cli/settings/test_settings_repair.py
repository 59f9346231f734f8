"""A settings file with a wrong value: the error's hint says `vora settings set KEY VALUE`, and
that command repairs it (it used to fail with the very same error). Any other bad key still
stops a `set` of a different key, naming the bad one; nothing is written then."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest


@pytest.mark.parametrize(("text", "key", "good", "stored"), [
    ("[doctor]\nfail_on = 3\n", "doctor.fail_on", "warn", "warn"),
    ("lock_timeout = true\n", "lock_timeout", "5", 5.0),
    ("json_indent = 'wide'\n", "json_indent", "2", 2),
    ("[gateway]\nurl = 'http://127.0.0.1:1'\n", "gateway.url", "ws://127.0.0.1:1", "ws://127.0.0.1:1"),
    ("[doctor]\nskip = 'skills'\n", "doctor.skip", "skills", ["skills"]),
])
def test_the_set_the_hint_names_repairs_the_file(vora, settings_file: Path, text: str, key: str, good: str,
                                                 stored: object) -> None:
    settings_file.write_text(text)
    broken = vora("settings", "get", key, "--json")
    assert broken.exit_code == 1
    hint = broken.json()["error"]["hint"]
    assert f"vora settings set {key} VALUE" in hint
    repaired = vora("settings", "set", key, good)
    assert repaired.exit_code == 0, repaired.stderr
    values = tomllib.loads(settings_file.read_text())
    section, _, name = key.rpartition(".")
    assert (values[section] if section else values)[name] == stored
    assert vora("settings", "get", key).exit_code == 0


@pytest.mark.parametrize(("text", "bad"), [("[doctor]\nfail_on = 3\n", "doctor.fail_on"),
                                           ("colr = 'never'\n", "colr")])
def test_another_bad_key_still_stops_a_set_naming_it(vora, settings_file: Path, text: str, bad: str) -> None:
    settings_file.write_text(text)
    result = vora("settings", "set", "pager", "less", "--json")
    assert result.exit_code == 1
    assert f"'{bad}'" in result.json()["error"]["message"] and str(settings_file) in result.json()["error"]["message"]
    assert settings_file.read_text() == text
