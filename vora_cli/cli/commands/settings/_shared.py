"""What the `vora settings` commands share: values as a person reads them, every setting resolved."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.output import Output


def shown(key: str, value: Any, *, reveal: bool = False) -> str:
    """A value as a person reads it: unset is '-', a list is comma-separated, a password inside a
    URL redacted (unless `reveal`)."""
    from vora_cli.core.settings.resolve import shown_value

    if not reveal:
        value = shown_value(key, value)
    if value is None:
        return "-"
    if isinstance(value, list):
        return ",".join(value) if value else "(none)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def resolved_all(state: AppState) -> list[Any]:
    """Every setting resolved; the state dir and profile as the global options resolved them."""
    from vora_cli.core.settings.resolve import SETTINGS

    return [resolved(state, key) for key in SETTINGS]


def resolved(state: AppState, key: str) -> Any:
    """One setting resolved. Only the state dir and profile resolve the install's paths (so only
    they look at an install, and a newer gateway line's note follows only them)."""
    from vora_cli.core.settings.resolve import ResolvedSetting

    install = state.install
    settings = install.settings
    if key == "state_dir":
        paths = install.paths
        origin = {"flag": "--state-dir", "env": "VORA_STATE_DIR", "settings": str(settings.path),
                  "profile": "--profile/VORA_PROFILE", "default": "built-in"}[paths.state_dir_source]
        return ResolvedSetting(key, str(paths.state_dir), paths.state_dir_source, origin)
    if key == "profile":
        paths = install.paths
        origin = {"flag": "--profile/--dev", "env": "VORA_PROFILE", "settings": str(settings.path),
                  "default": "built-in"}[paths.profile_source]
        return ResolvedSetting(key, paths.profile, paths.profile_source, origin)
    return settings.resolve(key)


def warn_ignored_env(state: AppState, out: Output, keys: list[str]) -> None:
    """An env var set to something unusable is ignored by every command: say it here."""
    settings = state.install.settings
    for key in keys:
        for reason in settings.ignored_env(key):
            out.warn(reason)


def kept_text(backup: object) -> str:
    return f" (your hand-written file, comments and all, is kept as {backup})" if backup else ""
