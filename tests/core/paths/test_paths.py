"""Path and profile resolution (spec README: state dir, config path, profiles): flag > env > profile > default."""

from __future__ import annotations

from pathlib import Path

import pytest

from vora_cli.core.paths import is_within, resolve_paths


def test_default_paths_live_under_home(home: Path) -> None:
    paths = resolve_paths(env={"VORA_HOME": str(home)})
    assert paths.state_dir == home / ".vora"
    assert paths.config_path == home / ".vora" / "vora.json"
    assert (paths.state_dir_source, paths.config_source) == ("default", "default")
    assert paths.default_workspace() == home / ".vora" / "workspace"


def test_vora_home_wins_over_home_and_undefined_counts_as_unset(tmp_path: Path) -> None:
    assert resolve_paths(env={"VORA_HOME": str(tmp_path / "a"), "HOME": str(tmp_path / "b")}).home == tmp_path / "a"
    assert resolve_paths(env={"VORA_HOME": "undefined", "HOME": str(tmp_path / "b")}).home == tmp_path / "b"
    assert resolve_paths(env={"VORA_HOME": "null", "HOME": str(tmp_path / "b")}).home == tmp_path / "b"


def test_flag_beats_env_beats_profile(home: Path) -> None:
    env = {"VORA_HOME": str(home), "VORA_STATE_DIR": "~/from-env", "VORA_PROFILE": "work"}
    assert resolve_paths(env=env).state_dir == home / "from-env"
    assert resolve_paths(env=env).state_dir_source == "env"
    flagged = resolve_paths(state_dir="~/from-flag", env=env)
    assert (flagged.state_dir, flagged.state_dir_source) == (home / "from-flag", "flag")
    profiled = resolve_paths(env={"VORA_HOME": str(home), "VORA_PROFILE": "Work"})
    assert (profiled.state_dir, profiled.state_dir_source, profiled.profile) == (home / ".vora-work", "profile", "work")
    assert profiled.default_workspace() == home / ".vora" / "workspace-work"
    config = resolve_paths(config="~/c.json5", env={"VORA_HOME": str(home), "VORA_CONFIG_PATH": "/x.json"})
    assert (config.config_path, config.config_source) == (home / "c.json5", "flag")
    assert resolve_paths(env={"VORA_HOME": str(home), "VORA_CONFIG_PATH": "/x.json"}).config_source == "env"


def test_profile_default_and_dev(home: Path) -> None:
    assert resolve_paths(profile="default", env={"VORA_HOME": str(home)}).state_dir == home / ".vora"
    assert resolve_paths(dev=True, env={"VORA_HOME": str(home)}).state_dir == home / ".vora-dev"


@pytest.mark.parametrize(("path", "folder", "strict", "inside"), [
    ("/a/b", "/a", False, True), ("/a", "/a", False, True), ("/a", "/a", True, False),
    ("/ab", "/a", False, False), ("/a/b", "/a/", False, True), ("payload/x", "payload", True, True),
    # the file system's root holds nothing below it: a folder linked to `/` proves no containment
    ("/etc/passwd", "/", False, False), ("/etc/passwd", "//", True, False), ("/", "/", False, True),
])
def test_is_within_judges_the_spelling_and_proves_nothing_under_the_root(path: str, folder: str, strict: bool,
                                                                         inside: bool) -> None:
    assert is_within(path, folder, strict=strict) is inside
