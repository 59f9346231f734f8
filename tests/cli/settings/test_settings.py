"""`vora settings list|get|set|unset|path` and the precedence flag > env > settings > default,
checked at each place a setting is used (paths, colour, JSON indent, lock wait, doctor, editor)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, REPO


def write_settings(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


# -- list / get / set / unset / path ------------------------------------------------------------

def test_list_shows_every_key_with_its_source(vora, settings_path: Path) -> None:
    doc = vora("settings", "list", "--json").json()
    assert doc["file"] == str(settings_path) and doc["exists"] is False
    keys = [s["key"] for s in doc["settings"]]
    assert keys == ["state_dir", "profile", "color", "editor", "pager", "json_indent", "lock_timeout",
                    "doctor.fail_on", "doctor.skip", "gateway.url", "gateway.version", "gateway.timeout"]
    by_key = {s["key"]: s for s in doc["settings"]}
    assert by_key["color"] == {"key": "color", "value": "never", "source": "env", "origin": "NO_COLOR",
                               "type": "auto | always | never"}  # the test env sets NO_COLOR
    assert by_key["lock_timeout"]["source"] == "default" and by_key["lock_timeout"]["value"] == 10.0
    assert by_key["doctor.fail_on"]["value"] == "error"


def test_set_get_unset_round_trip_through_the_toml_file(vora, settings_path: Path) -> None:
    result = vora("settings", "set", "doctor.fail_on", "warn")
    assert result.exit_code == 0
    assert result.stdout == "doctor.fail_on = warn (was -)\n"
    assert result.stderr == f"Wrote {settings_path}\n"
    assert vora("settings", "set", "lock_timeout", "2.5").exit_code == 0
    assert vora("settings", "set", "doctor.skip", "skills, pairing-store").exit_code == 0
    assert vora("settings", "set", "json_indent", "4").exit_code == 0
    data = tomllib.loads(settings_path.read_text())
    assert data == {"lock_timeout": 2.5, "json_indent": 4,
                    "doctor": {"fail_on": "warn", "skip": ["skills", "pairing-store"]}}
    assert stat.S_IMODE(settings_path.stat().st_mode) == 0o600
    assert [p.name for p in settings_path.parent.iterdir()] == ["settings.toml"]  # no lock file left
    got = vora("settings", "get", "doctor.skip", "--json").json()
    assert got == {"key": "doctor.skip", "value": ["skills", "pairing-store"], "source": "settings",
                   "origin": str(settings_path)}
    assert vora("settings", "get", "doctor.skip").stdout == "skills,pairing-store\n"
    same = vora("settings", "set", "doctor.fail_on", "warn")
    assert same.stdout == "doctor.fail_on is already warn; nothing written\n"
    assert vora("settings", "unset", "doctor.fail_on").stdout == "doctor.fail_on unset (was warn)\n"
    assert "fail_on" not in tomllib.loads(settings_path.read_text()).get("doctor", {})
    assert vora("settings", "get", "doctor.fail_on", "--json").json()["source"] == "default"
    again = vora("settings", "unset", "doctor.fail_on")
    assert again.stdout == f"doctor.fail_on is not set in {settings_path}; nothing written\n"


def test_set_honours_xdg_config_home(vora, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert vora("settings", "set", "pager", "more").exit_code == 0
    assert (tmp_path / "xdg" / "vora" / "settings.toml").is_file()
    assert not (home / ".config").exists()
    assert vora("settings", "path").stdout == f"{tmp_path / 'xdg' / 'vora' / 'settings.toml'}\n"


@pytest.mark.parametrize(("command", "key"), [
    (["settings", "set", "colour", "never"], "colour"),
    (["settings", "set", "doctor.failon", "warn"], "doctor.failon"),
    (["settings", "get", "gateway.token"], "gateway.token"),
    (["settings", "unset", "nope"], "nope"),
])
def test_unknown_keys_are_usage_errors_naming_the_key(vora, settings_path: Path, command: list[str], key: str) -> None:
    write_settings(settings_path, 'pager = "less"\n')
    result = vora(*command, "--json")
    assert result.exit_code == 2
    error = result.json()["error"]
    assert error["code"] == "usage" and f"'{key}'" in error["message"]
    assert settings_path.read_text() == 'pager = "less"\n'


@pytest.mark.parametrize(("key", "value", "wanted"), [
    ("color", "blue", "auto | always | never"),
    ("json_indent", "two", "an integer"),
    ("json_indent", "-1", "an integer >= 0"),
    ("lock_timeout", "soon", "a number"),
    ("doctor.fail_on", "fatal", "warn | error"),
    ("doctor.skip", "no-such-check", "unknown check 'no-such-check'"),
    ("gateway.url", "http://127.0.0.1:18789", "a ws:// or wss:// URL"),
    ("gateway.timeout", "-3", "a number of seconds above 0, at most 600"),
    ("profile", "!!", "a profile name"),
    ("editor", " ", "a string"),
])
def test_wrong_types_are_refused_and_nothing_is_written(vora, settings_path: Path, key: str, value: str,
                                                        wanted: str) -> None:
    write_settings(settings_path, "# mine\npager = 'less'\n")
    result = vora("settings", "set", "--json", "--", key, value)  # `--`: a value may start with "-"
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "invalid" and f"'{key}'" in error["message"] and wanted in error["message"]
    assert settings_path.read_text() == "# mine\npager = 'less'\n"


@pytest.mark.parametrize(("text", "words"), [
    ("colr = 'never'\n", ["unknown setting 'colr'", "did you mean 'color'"]),
    ("[doctor]\nfail_on = 3\n", ["'doctor.fail_on'", "warn | error", "not 3"]),
    ("lock_timeout = true\n", ["'lock_timeout'", "a number"]),
    ("profile = [1\n", ["settings.toml"]),
])
def test_a_bad_settings_file_is_an_error_naming_the_key_and_the_file(vora, settings_path: Path, text: str,
                                                                     words: list[str]) -> None:
    write_settings(settings_path, text)
    result = vora("config", "file", "--json")
    assert result.exit_code == 1
    error = result.json()["error"]
    assert str(settings_path) in error["message"]
    for word in words:
        assert word in error["message"] + (error["hint"] or "")
    human = vora("doctor")
    assert human.exit_code == 1 and str(settings_path) in human.stderr and "Traceback" not in human.stderr


def test_unset_repairs_a_file_with_an_unknown_or_wrong_key(vora, settings_path: Path) -> None:
    write_settings(settings_path, "colr = 'never'\n[doctor]\nfail_on = 3\npager = 'x'\n")
    assert vora("settings", "unset", "colr").exit_code == 0
    assert vora("settings", "unset", "doctor.fail_on").exit_code == 0
    assert vora("config", "file").exit_code == 1  # doctor.pager is still unknown
    assert vora("settings", "unset", "doctor.pager").exit_code == 0
    assert vora("config", "file").exit_code == 0


def test_path_shows_the_cache_dir_and_its_size(vora, home: Path, settings_path: Path) -> None:
    cache = home / ".cache" / "vora"
    doc = vora("settings", "path", "--json").json()
    assert doc == {"settingsFile": str(settings_path), "exists": False, "configDir": str(settings_path.parent),
                   "cacheDir": str(cache), "cacheSizeBytes": 0, "cacheFiles": 0}
    (cache / "npm" / "_cacache").mkdir(parents=True)
    (cache / "npm" / "_cacache" / "a").write_bytes(b"x" * 1000)
    (cache / "npm" / "b.tgz").write_bytes(b"y" * 24)
    doc = vora("settings", "path", "--json").json()
    assert (doc["cacheSizeBytes"], doc["cacheFiles"]) == (1024, 2)


# -- precedence where each setting is used ---------------------------------------------------------

def test_state_dir_and_profile_flag_env_settings_default(vora, home: Path, settings_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def where() -> tuple[str, str, str | None, str]:
        doc = vora("config", "file", "--json").json()
        return doc["stateDir"], doc["stateDirSource"], doc["profile"], doc["profileSource"]

    assert where() == (str(home / ".vora"), "default", None, "default")
    assert vora("settings", "set", "profile", "work").exit_code == 0
    assert where() == (str(home / ".vora-work"), "settings", "work", "settings")
    assert vora("settings", "set", "state_dir", "~/ops").exit_code == 0
    assert where() == (str(home / "ops"), "settings", "work", "settings")
    monkeypatch.setenv("VORA_PROFILE", "lab")
    assert where() == (str(home / ".vora-lab"), "profile", "lab", "env")
    monkeypatch.setenv("VORA_STATE_DIR", str(home / "env-state"))
    assert where() == (str(home / "env-state"), "env", "lab", "env")
    doc = vora("--state-dir", str(home / "flag"), "--profile", "x", "config", "file", "--json").json()
    assert (doc["stateDirSource"], doc["profile"], doc["profileSource"]) == ("flag", "x", "flag")
    listed = {s["key"]: s for s in vora("--profile", "x", "settings", "list", "--json").json()["settings"]}
    assert (listed["profile"]["source"], listed["state_dir"]["source"]) == ("flag", "env")


def test_color_setting_always_colours_even_when_piped(vora, settings_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR")
    plain = vora("settings", "get", "nope")
    assert "\x1b[" not in plain.stderr
    write_settings(settings_path, 'color = "always"\n')
    coloured = vora("settings", "get", "nope")
    assert "\x1b[1;31merror:\x1b[0m" in coloured.stderr
    table = vora("--state-dir", str(EXAMPLES / "vora"), "doctor")
    assert "\x1b[" in table.stdout
    monkeypatch.setenv("NO_COLOR", "1")  # env beats the settings file
    assert "\x1b[" not in vora("settings", "get", "nope").stderr


def test_json_indent_env_beats_settings_beats_auto(vora_process, settings_path: Path, home: Path) -> None:
    env = {"HOME": str(home), "VORA_HOME": str(home)}
    compact = vora_process("config", "file", "--json", env=env)
    assert compact.stdout.count("\n") == 1
    write_settings(settings_path, "json_indent = 3\n")
    indented = vora_process("config", "file", "--json", env=env)
    assert indented.stdout.startswith('{\n   "path"')
    forced = vora_process("config", "file", "--json", env={**env, "VORA_JSON_INDENT": "0"})
    assert forced.stdout.count("\n") == 1


def test_lock_timeout_setting_bounds_the_wait(vora, state_dir: Path, settings_path: Path, monkeypatch) -> None:
    from waits_support import record_waits

    from vora_cli.core.writer import file_lock

    config = state_dir / "vora.json"
    config.write_text("{}\n")
    write_settings(settings_path, "lock_timeout = 0.2\n")
    waits = record_waits(monkeypatch)
    with file_lock(config, timeout=1):
        result = vora("config", "set", "gateway.port", "1", "--json")
    assert result.exit_code == 3 and result.json()["error"]["code"] == "conflict"
    # it waited, and its back-off asked for at most the setting's 0.2 s (plus one last step) of sleep,
    # not the built-in 10 s: a sleep never takes less than asked, so a busy machine only lowers the sum
    assert waits.sleeps and sum(waits.sleeps) < 1.0
    assert config.read_text() == "{}\n"
    from vora_cli.core.install import Install

    assert Install().lock_timeout == 0.2
    assert Install(env={**os.environ, "VORA_LOCK_TIMEOUT": "7"}).lock_timeout == 7.0  # env beats the settings file


def test_doctor_defaults_come_from_settings_and_flags_win(vora, settings_path: Path) -> None:
    examples = ["--state-dir", str(EXAMPLES / "vora")]
    assert vora(*examples, "doctor", "--json").exit_code == 0  # warnings only
    write_settings(settings_path, "[doctor]\nfail_on = 'warn'\nskip = ['skills']\n")
    result = vora(*examples, "doctor", "--json")
    assert result.exit_code == 1
    statuses = {c["id"]: c["status"] for c in result.json()["checks"]}
    assert statuses.get("skills", "skip") == "skip" and statuses["bootstrap-size"] == "warn"
    assert vora(*examples, "doctor", "--json", "--fail-on", "error").exit_code == 0
    flagged = {c["id"]: c["status"] for c in vora(*examples, "doctor", "--json", "--skip", "pairing-store").json()["checks"]}
    assert flagged["skills"] == "warn" and flagged.get("pairing-store", "skip") == "skip"
    only = {c["id"]: c["status"] for c in vora(*examples, "doctor", "--json", "--only", "skills").json()["checks"]}
    assert only["skills"] == "warn"  # --only names it: the settings' skip gives way


def test_editor_setting_is_used_by_config_edit_and_env_wins(vora, state_dir: Path, settings_path: Path,
                                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (state_dir / "vora.json").write_text("{ gateway: { port: 1 } }\n")
    script = tmp_path / "ed.py"
    script.write_text("import re, sys, pathlib\np = pathlib.Path(sys.argv[2])\n"
                      "p.write_text(re.sub(r'port: \\d+', 'port: ' + sys.argv[1], p.read_text()))\n")
    write_settings(settings_path, f"editor = '{sys.executable} {script} 2'\n")
    assert vora("config", "edit").exit_code == 0
    assert "port: 2" in (state_dir / "vora.json").read_text()
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script} 3")
    assert vora("config", "edit").exit_code == 0
    assert "port: 3" in (state_dir / "vora.json").read_text()


def test_commands_that_need_no_setting_do_not_load_toml(home: Path, settings_path: Path) -> None:
    """The file is read lazily: no tomllib without a settings file, tomli_w only for set/unset."""
    script = ("import sys\nfrom vora_cli.cli.app import app\n"
              "try:\n    app(sys.argv[1:], prog_name='vora')\nexcept SystemExit:\n    pass\n"
              "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n")
    env = {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(home)}
    run = lambda *args: set(subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,  # noqa: E731
                                           env=env, check=False).stderr.split())
    assert not {"tomllib", "tomli_w"} & run("config", "file")
    assert not {"tomllib", "tomli_w"} & run("--help")
    write_settings(settings_path, "pager = 'less'\n")
    loaded = run("config", "file")
    assert "tomllib" in loaded and "tomli_w" not in loaded
