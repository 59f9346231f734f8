"""The settings file's folder without importing platformdirs (start-up), checked against platformdirs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from vora_cli.core import userdirs

ENVIRONMENTS = [
    {"HOME": "/home/ada"},
    {"HOME": "/home/ada/", "XDG_CONFIG_HOME": ""},
    {"HOME": "/home/ada", "XDG_CONFIG_HOME": "/srv/conf"},
    {"HOME": "/home/ada", "XDG_CONFIG_HOME": "/srv/conf/"},
    {"HOME": "/home/ada", "XDG_CONFIG_HOME": "relative/conf"},
    {"HOME": "/home/ada", "XDG_CONFIG_HOME": "   "},
    {"HOME": "/home/ada", "XDG_CONFIG_HOME": " /srv/conf"},
    {"HOME": "relative-home"},
    {"HOME": ""},
    {"HOME": "/home/a da", "XDG_CONFIG_HOME": "/x y"},
]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fast path is Linux's")
@pytest.mark.parametrize("env", ENVIRONMENTS, ids=[repr(e) for e in ENVIRONMENTS])
def test_user_config_dir_agrees_with_platformdirs(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    import platformdirs

    assert userdirs.user_config_dir() == platformdirs.user_config_path("vora")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fast path is Linux's")
@pytest.mark.parametrize("env", ENVIRONMENTS, ids=[repr(e) for e in ENVIRONMENTS])
def test_cache_dir_agrees_with_platformdirs(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name.replace("XDG_CONFIG_HOME", "XDG_CACHE_HOME"), value)
    import platformdirs

    assert userdirs.cache_dir() == platformdirs.user_cache_path("vora")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fast path is Linux's")
@pytest.mark.parametrize("env", ENVIRONMENTS, ids=[repr(e) for e in ENVIRONMENTS])
def test_data_dir_agrees_with_platformdirs(env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name.replace("XDG_CONFIG_HOME", "XDG_DATA_HOME"), value)
    import platformdirs

    assert userdirs.data_dir() == platformdirs.user_data_path("vora")


def test_the_common_case_does_not_import_platformdirs(tmp_path) -> None:
    code = ("import sys\nfrom vora_cli.core.userdirs import cache_dir, data_dir, settings_file\n"
            "settings_file()\ncache_dir()\ndata_dir()\n"
            "print('platformdirs' in sys.modules)")
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == ("False" if sys.platform.startswith("linux") else "True")
