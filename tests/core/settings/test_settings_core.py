"""Core of `vora settings`: types, the TOML round trip, precedence in path resolution, and the
writer's lock that leaves no lock file behind."""

from __future__ import annotations

import shlex
import threading
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given
from hypothesis import strategies as st

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import resolve_paths
from vora_cli.core.settings.resolve import (
    SETTINGS,
    Settings,
    check_value,
    flatten,
    nest,
    parse_settings,
    parse_value,
)
from vora_cli.core.writer import file_lock, update_file

HOME = Path("/home/ada")


def paths_with(settings: dict[str, Any], **kwargs: Any) -> tuple[str, str, str | None, str]:
    env = {"HOME": str(HOME), **kwargs.pop("env", {})}
    p = resolve_paths(env=env, settings=Settings(env, values=settings), **kwargs)
    return str(p.state_dir), p.state_dir_source, p.profile, p.profile_source


@pytest.mark.parametrize(("settings", "kwargs", "expected"), [
    ({}, {}, ("/home/ada/.vora", "default", None, "default")),
    ({"profile": "work"}, {}, ("/home/ada/.vora-work", "settings", "work", "settings")),
    ({"profile": "default"}, {}, ("/home/ada/.vora", "settings", "default", "settings")),
    ({"state_dir": "~/ops"}, {}, ("/home/ada/ops", "settings", None, "default")),
    ({"state_dir": "/srv/vora", "profile": "work"}, {}, ("/srv/vora", "settings", "work", "settings")),
    ({"state_dir": "/srv/vora"}, {"profile": "lab"}, ("/home/ada/.vora-lab", "profile", "lab", "flag")),
    ({"state_dir": "/srv/vora"}, {"dev": True}, ("/home/ada/.vora-dev", "profile", "dev", "flag")),
    ({"state_dir": "/srv/vora"}, {"env": {"VORA_PROFILE": "lab"}}, ("/home/ada/.vora-lab", "profile", "lab", "env")),
    ({"profile": "work"}, {"env": {"VORA_STATE_DIR": "/e"}}, ("/e", "env", "work", "settings")),
    ({"profile": "work"}, {"state_dir": "/f"}, ("/f", "flag", "work", "settings")),
])
def test_state_dir_and_profile_precedence(settings: dict[str, Any], kwargs: dict[str, Any],
                                          expected: tuple[str, str, str | None, str]) -> None:
    assert paths_with(settings, **kwargs) == expected


def test_flags_and_env_settle_paths_without_reading_the_settings(tmp_path: Path) -> None:
    """Path resolution reads the file only for a value no flag or env var settled (the CLI edge
    still checks the file for every command: tests/cli/settings/test_broken_file.py)."""
    broken = tmp_path / "settings.toml"
    broken.write_text("profile = [1\n")
    env = {"HOME": str(HOME), "VORA_STATE_DIR": "/e"}
    p = resolve_paths(env=env, profile="x", settings=Settings(env, path=broken))
    assert (str(p.state_dir), p.profile) == ("/e", "x")
    with pytest.raises(VoraError) as caught:
        resolve_paths(env=env, settings=Settings(env, path=broken))  # the profile is the file's to say
    assert caught.value.code == "parse_error" and str(broken) in caught.value.message


def test_a_bad_profile_in_the_settings_is_refused() -> None:
    with pytest.raises(VoraError) as caught:
        paths_with({"profile": "!!"})
    assert caught.value.code == "usage"


@pytest.mark.parametrize(("key", "raw", "value"), [
    ("json_indent", "0", 0), ("lock_timeout", "2", 2.0), ("lock_timeout", "0.5", 0.5),
    ("doctor.skip", "", []), ("color", "never", "never"), ("gateway.url", "wss://gw.example:443", "wss://gw.example:443"),
])
def test_command_line_values_take_the_key_s_type(key: str, raw: str, value: Any) -> None:
    assert parse_value(SETTINGS[key], raw) == value


@pytest.mark.parametrize(("key", "value"), [
    ("json_indent", True), ("json_indent", 1.5), ("json_indent", 17), ("lock_timeout", "3"), ("lock_timeout", float("nan")),
    ("doctor.skip", "skills"), ("doctor.skip", ["ok", 3]), ("color", "ALWAYS"), ("editor", ""),
    # what the consumers refuse or hang on (issue 22, class 5)
    ("lock_timeout", float("inf")), ("lock_timeout", 3601), ("gateway.timeout", float("inf")), ("gateway.timeout", 0),
    ("gateway.timeout", 600.5), ("state_dir", "relative/dir"), ("state_dir", "./x"), ("state_dir", "a\0b"),
    ("editor", 'code --wait "'), ("pager", "less '"), ("gateway.url", "ws://"), ("gateway.url", "http://h:1"),
    ("gateway.url", "ws://h:99999"), ("gateway.version", "latest"), ("doctor.skip", ["a\0"]),
])
def test_wrong_types_from_the_file_name_the_key_and_the_file(key: str, value: Any) -> None:
    with pytest.raises(VoraError) as caught:
        check_value(SETTINGS[key], value, "in /x/settings.toml")
    assert caught.value.code == "invalid"
    assert f"'{key}'" in caught.value.message and "/x/settings.toml" in caught.value.message


def _splits(text: str) -> bool:
    try:
        return bool(shlex.split(text)) and bool(text.strip())  # a blank value is no setting (str.strip's blanks)
    except ValueError:
        return False


values = st.fixed_dictionaries({}, optional={
    "profile": st.from_regex(r"\A[a-z0-9][a-z0-9_-]{0,20}\Z"),
    "color": st.sampled_from(["auto", "always", "never"]),
    # an editor is a command line that splits into words (a quote left open does not), with no NUL
    "editor": st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), min_size=1).filter(_splits),
    "json_indent": st.integers(0, 16),
    "lock_timeout": st.floats(0, 3600),
    "doctor.fail_on": st.sampled_from(["warn", "error"]),
    "doctor.skip": st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), min_size=1), max_size=4),
    "gateway.timeout": st.floats(0, 600, exclude_min=True),
})


@given(values)
def test_every_valid_file_round_trips_through_tomli_w(flat: dict[str, Any]) -> None:
    data = tomli_w.dumps(nest(flat)).encode()
    assert parse_settings(data, Path("/x/settings.toml")) == flat
    assert flatten(tomllib.loads(data.decode())) == flat


def test_resolve_setting_sources(tmp_path: Path) -> None:
    def resolve_setting(key: str, flag: Any = None, env: dict[str, str] | None = None) -> Any:
        return Settings(env or {}, path=tmp_path / "none.toml").resolve(key, flag)

    assert resolve_setting("doctor.fail_on").to_dict() == {"key": "doctor.fail_on", "value": "error",
                                                           "source": "default", "origin": "built-in"}
    assert resolve_setting("doctor.fail_on", "warn").source == "flag"
    for unusable in ("nope", "nan", "inf", "-1", "2.5", "999", "٣"):  # ignored, as before settings existed
        assert resolve_setting("json_indent", env={"VORA_JSON_INDENT": unusable}).source == "default"
    for unusable in ("nan", "inf", "-1", "soon"):
        assert resolve_setting("lock_timeout", env={"VORA_LOCK_TIMEOUT": unusable}).value == 10.0
    assert resolve_setting("json_indent", env={"VORA_JSON_INDENT": "0"}).value == 0
    assert resolve_setting("editor", env={"EDITOR": "nano", "VISUAL": "code -w"}).value == "code -w"
    assert resolve_setting("color", env={"NO_COLOR": "1"}).to_dict()["value"] == "never"


def test_lock_without_lock_file_serialises_writers_and_leaves_nothing(tmp_path: Path) -> None:
    tmp_path = tmp_path / "w"
    tmp_path.mkdir()
    target = tmp_path / "counter"
    target.write_text("0")

    def bump() -> None:
        for _ in range(25):
            update_file(target, lambda old: str(int(old or b"0") + 1).encode(), lock_timeout=10, keep_lock_file=False)

    threads = [threading.Thread(target=bump) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert target.read_text() == "100"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counter"]


def test_a_waiter_holding_a_removed_lock_file_locks_the_new_one(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """B opens the lock file, A removes it and releases, B's flock then succeeds on the removed
    file: B must notice and lock the current one, or a third writer C would get in beside B."""
    import os

    from vora_cli.core import writer

    tmp_path = tmp_path / "w"
    tmp_path.mkdir()
    target = tmp_path / "f"
    lock_file = tmp_path / "f.lock"
    a_holds, a_may_go = threading.Event(), threading.Event()

    def a() -> None:
        with file_lock(target, 10, keep_lock_file=False):
            a_holds.set()
            a_may_go.wait(5)

    real_open = os.open
    calls = {"n": 0}

    def open_then_let_a_finish(path: Any, flags: int, mode: int = 0o777) -> int:
        fd = real_open(path, flags, mode)
        if Path(path) == lock_file and calls["n"] == 0:
            calls["n"] += 1
            a_may_go.set()
            thread.join()  # A removed the lock file and released it: fd is the removed file
        return fd

    thread = threading.Thread(target=a)
    thread.start()
    a_holds.wait(5)
    monkeypatch.setattr(writer.os, "open", open_then_let_a_finish)
    with file_lock(target, timeout=5, keep_lock_file=False):
        monkeypatch.setattr(writer.os, "open", real_open)
        with pytest.raises(VoraError) as caught, file_lock(target, timeout=0.1, keep_lock_file=False):
            pass
        assert caught.value.code == "conflict"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("blank", [" ", "\t", "\x0c", "\x0b", "\u2003", "\u3000 "])
def test_a_blank_string_setting_says_it_is_blank(blank: str) -> None:
    from pathlib import Path

    from vora_cli.core.settings.resolve import parse_settings

    with pytest.raises(VoraError) as caught:
        parse_settings(tomli_w.dumps({"editor": blank}).encode(), Path("/x/settings.toml"))
    assert "must be a string that is not blank" in caught.value.message
