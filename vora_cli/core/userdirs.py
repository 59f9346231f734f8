"""Where vora keeps its **own** files, under the real home, never `VORA_HOME` (docs/settings.md); platformdirs
is imported only where the common case cannot be answered without it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "vora"
SETTINGS_FILE_NAME = "settings.toml"


def user_config_dir() -> Path:
    """vora's user config dir: `$XDG_CONFIG_HOME/vora` (`~/.config/vora`), `~/Library/Application Support/vora` on macOS."""
    fast = linux_xdg_dir("XDG_CONFIG_HOME", ".config") if sys.platform.startswith("linux") else None
    if fast is not None:
        return fast
    import platformdirs

    return platformdirs.user_config_path(APP)


def linux_xdg_dir(variable: str, under_home: str) -> Path | None:
    """platformdirs' Linux answer for `$variable/vora` in the common case, None for any other
    (a relative or blank-but-set variable, a relative HOME: platformdirs decides those)."""
    value = os.environ.get(variable, "")
    if value:
        return Path(value) / APP if value.startswith("/") and value.strip() == value else None
    home = os.environ.get("HOME", "")
    return Path(home) / under_home / APP if home.startswith("/") and home.strip() == home else None


def settings_file() -> Path:
    """The settings file (`vora settings path`)."""
    return user_config_dir() / SETTINGS_FILE_NAME


def cache_dir() -> Path:
    """What vora downloads (npm tarballs): `$XDG_CACHE_HOME/vora` (`~/.cache/vora`), `~/Library/Caches/vora` on macOS.
    `doctor` and `security audit` check its mode: answered on Linux without the import too."""
    fast = linux_xdg_dir("XDG_CACHE_HOME", ".cache") if sys.platform.startswith("linux") else None
    if fast is not None:
        return fast
    import platformdirs

    return platformdirs.user_cache_path(APP)


def npm_cache_dir() -> Path:
    return cache_dir() / "npm"


def dir_size(path: Path) -> tuple[int, int]:
    """Bytes and files under `path` (0, 0 when it does not exist); symlinks are not followed."""
    from vora_cli.core import trees

    return trees.size(path)


def xdg_data_dir(app: str) -> Path:
    """`$XDG_DATA_HOME/<app>` (`~/.local/share/<app>`) on every POSIX system, macOS included:
    bash-completion and zsh set-ups follow XDG there too, not `~/Library`."""
    from platformdirs.unix import Unix

    return Unix(app).user_data_path


def xdg_config_dir(app: str) -> Path:
    """`$XDG_CONFIG_HOME/<app>` (`~/.config/<app>`) on every POSIX system (fish reads it on macOS too)."""
    from platformdirs.unix import Unix

    return Unix(app).user_config_path


def data_dir() -> Path:
    """vora's own data: `$XDG_DATA_HOME/vora` (`~/.local/share/vora`), `~/Library/Application Support/vora`
    on macOS. `doctor` and `security audit` look there (backups, restore journals): answered on Linux
    without the import too."""
    fast = linux_xdg_dir("XDG_DATA_HOME", ".local/share") if sys.platform.startswith("linux") else None
    if fast is not None:
        return fast
    import platformdirs

    return platformdirs.user_data_path(APP)


def backup_dir() -> Path:
    """Where `vora backup create` writes and `vora backup list` looks by default: `<data dir>/backups`."""
    return data_dir() / "backups"
