"""The environment the gateway substitutes `${VAR}` from: the process's, with the config's own variables
(`applyConfigEnvVars`; docs/config.md, "`${VAR}` is resolved as the gateway resolves it").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TABLE = Path(__file__).resolve().parent / "config_env.json"
_PORTABLE = r"[A-Za-z_][A-Za-z0-9_]*\Z"
# A `${NAME}` that is no `$${NAME}` escape (the gateway's `containsEnvVarReference`).
_REFERENCE = r"\$\$\{[A-Z_][A-Z0-9_]*\}|(\$\{[A-Z_][A-Z0-9_]*\})"


@cache
def _blocked() -> tuple[frozenset[str], tuple[str, ...]]:
    data = nesting.loads(TABLE.read_text(encoding="utf-8"))
    return frozenset(data["blockedKeys"]), tuple(data["blockedPrefixes"])


def _usable(raw_key: str) -> str | None:
    key = js_trim(raw_key)
    if not re.match(_PORTABLE, key):
        return None
    keys, prefixes = _blocked()
    upper = key.upper()
    return None if upper in keys or upper.startswith(prefixes) else key


def _references(value: str) -> bool:
    return "$" in value and any(m.group(1) for m in re.finditer(_REFERENCE, value))


def config_env_vars(tree: Mapping[str, Any]) -> dict[str, str]:
    """The variables the config itself defines (`collectConfigRuntimeEnvVars`), in its order."""
    section = tree.get("env")
    if not isinstance(section, dict):
        return {}
    found: dict[str, str] = {}
    variables = section.get("vars")
    if isinstance(variables, dict):
        for raw_key, value in variables.items():
            if isinstance(value, str) and value and (key := _usable(raw_key)) is not None:
                found[key] = value
    for raw_key, value in section.items():
        if raw_key in ("shellEnv", "vars") or not isinstance(value, str) or not js_trim(value):
            continue
        if (key := _usable(raw_key)) is not None:
            found[key] = value
    return found


def runtime_env(tree: Any, env: Mapping[str, str]) -> Mapping[str, str]:
    """`env` with the config's own variables applied as the gateway applies them; `env` itself when
    the config defines none (the common case: no copy of the environment)."""
    defined = config_env_vars(tree) if isinstance(tree, dict) else {}
    added = {key: value for key, value in defined.items()
             if not js_trim(env.get(key) or "") and not _references(value)}
    return {**env, **added} if added else env
