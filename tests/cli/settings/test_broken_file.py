"""A settings file that does not parse fails every command the same way (git's rule, issue 18):
one error naming the file and the repair, exit 1, nothing written, whether or not a flag or an
env var settles the values the file holds. `vora settings` itself (which repairs it), `--help`,
`--version` and the printing of that very error are the exceptions (docs/settings.md).

A settings file with a wrong value: the error's hint says `vora settings set KEY VALUE`, and
that command repairs it (it used to fail with the very same error). Any other bad key still
stops a `set` of a different key, naming the bad one; nothing is written then.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES

BROKEN = "profile = [1\n"  # TOML that does not parse
UNKNOWN = "colr = 'never'\n"  # parses, names a key vora does not know


@pytest.fixture
def install(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text("// mine\n{ a: 1 }\n")
    return state


COMMANDS = [
    ["config", "get", "a"],
    ["config", "set", "a", "3"],
    ["config", "file"],
    ["config", "schema"],
    ["context", "list"],
    ["sessions", "list"],
    ["plugins", "list"],
    ["devices", "list"],
    ["doctor"],
    ["completion", "bash"],
]


@pytest.mark.parametrize("text", [BROKEN, UNKNOWN])
@pytest.mark.parametrize("globals_", [[], ["--profile", "x"], ["--state-dir", "STATE"]])
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_fails_the_same_way(vora, settings_file: Path, install: Path, text: str,
                                          globals_: list[str], command: list[str]) -> None:
    settings_file.write_text(text)
    args = [str(install) if a == "STATE" else a for a in globals_]
    before = (install / "vora.json").read_bytes()
    result = vora(*args, *command, "--json")
    assert result.exit_code == 1, result.stdout
    error = result.json()["error"]
    assert error["code"] == ("parse_error" if text == BROKEN else "invalid")
    assert str(settings_file) in error["message"]
    assert ("vora settings path" if text == BROKEN else "vora settings unset colr") in error["hint"]
    assert (install / "vora.json").read_bytes() == before  # nothing written
    human = vora(*args, *command)
    assert human.exit_code == 1 and human.stdout == ""
    assert human.stderr.startswith("error: ") and str(settings_file) in human.stderr
    assert "Traceback" not in human.stderr


def test_the_old_symptom_get_and_set_agree_under_a_profile(vora, settings_file: Path, home: Path) -> None:
    """It used to be: `config get` worked (the flag settled the profile) and `config set` failed
    (the writer read `lock_timeout` from the file)."""
    profile_dir = home / ".vora-x"
    profile_dir.mkdir(mode=0o700)
    (profile_dir / "vora.json").write_text("{ a: 1 }\n")
    settings_file.write_text(BROKEN)
    for args in (["config", "get", "a"], ["config", "set", "a", "3"]):
        result = vora("--profile", "x", *args, "--json")
        assert (result.exit_code, result.json()["error"]["code"]) == (1, "parse_error"), args
    assert (profile_dir / "vora.json").read_text() == "{ a: 1 }\n"


def test_vora_settings_repairs_it_and_help_and_version_still_work(vora, settings_file: Path) -> None:
    settings_file.write_text(UNKNOWN)
    assert vora("settings", "path").stdout == f"{settings_file}\n"
    assert vora("--help").exit_code == 0 and vora("config", "--help").exit_code == 0
    assert vora("--version").exit_code == 0
    assert vora("settings", "unset", "colr").exit_code == 0
    assert vora("--state-dir", str(EXAMPLES / "vora"), "config", "get", "gateway.port").exit_code == 0


def test_unparsable_toml_keeps_settings_path_and_is_fixed_by_hand(vora, settings_file: Path) -> None:
    settings_file.write_text(BROKEN)
    assert vora("settings", "path", "--json").json()["settingsFile"] == str(settings_file)
    assert vora("settings", "list").exit_code == 1  # it must read the file to list its values
    settings_file.write_text("profile = 'x'\n")
    assert vora("config", "file").stdout.endswith(".vora-x/vora.json\n")


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
