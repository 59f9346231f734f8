"""The one home rule: where "the home" is when `HOME` says it, and when it does not.

A leaf module: `core/paths.py` (the gateway's home, `~` in config values) and `core/userdirs.py`
(vora's own files) both use it, and neither imports the other.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from vora_cli.core.errors import VoraError


def env_value(env: Mapping[str, str], name: str) -> str | None:
    """An env var's value; empty and the literal strings `undefined`/`null` count as unset."""
    value = env.get(name)
    if value is None:
        return None
    value = value.strip()
    if not value or value in ("undefined", "null"):
        return None
    return value


def os_home(env: Mapping[str, str]) -> Path:
    """`HOME` when it is an absolute path, else the home the user database gives."""
    value = env_value(env, "HOME")
    if value is not None and os.path.isabs(value):
        return Path(value)
    try:
        import pwd  # lazy: only when HOME does not say (and absent on Windows)

        found = pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, OSError):
        found = ""
    if found and os.path.isabs(found):
        return Path(found)
    if os.name == "nt":  # no user database: USERPROFILE and friends, as Python finds them
        return Path.home()
    raise VoraError("usage", "cannot tell where your home is: HOME is not set to an absolute path and user id "
                    f"{os.getuid()} has no home in the user database",
                    "set HOME (or VORA_HOME) to an absolute path")
