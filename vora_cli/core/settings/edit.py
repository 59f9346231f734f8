"""Writing the settings file: `vora settings set` and `unset` (reading and precedence: `resolve.py`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from vora_cli.core.errors import VoraError
from vora_cli.core.settings.resolve import (
    SETTINGS,
    forget_cached,
    nest,
    parse_settings,
    parse_value,
    setting_spec,
    settings_path,
)

# -- set / unset ----------------------------------------------------------------------------------

class SettingsChange(NamedTuple):
    key: str
    path: Path
    before: Any
    after: Any
    changed: bool

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "path": str(self.path), "before": self.before, "after": self.after,
                "changed": self.changed}


def _write(key: str, edit: Callable[[dict[str, Any]], Any], strict: bool) -> SettingsChange:
    import tomli_w

    from vora_cli.core.writer import DEFAULT_LOCK_TIMEOUT, update_file

    path = settings_path()
    seen: dict[str, Any] = {}

    def transform(old: bytes | None) -> bytes | None:
        # `set KEY` repairs KEY's own wrong value (the hint of that error says to); any other bad
        # key in the file still stops it, naming that key
        values = {} if old is None else parse_settings(old, path, strict=strict, replacing=key if strict else None)
        original = dict(values)
        seen["before"] = values.get(key)
        seen["after"] = edit(values)
        if values == original:
            return None
        header = "# vora settings: edit with `vora settings set KEY VALUE` (docs/settings.md)\n"
        return (header + tomli_w.dumps(nest(values))).encode("utf-8")

    # The lock wait of the settings file itself is the built-in one: reading `lock_timeout` from a
    # file being repaired (`unset` of a bad key) must not fail the repair.
    result = update_file(path, transform, new_mode=0o600, lock_timeout=DEFAULT_LOCK_TIMEOUT, keep_lock_file=False)
    forget_cached(path)
    return SettingsChange(key, path, seen.get("before"), seen.get("after"), result.changed)


def set_setting(key: str, raw: str) -> SettingsChange:
    """Set `key` to the command-line text `raw` (checked against the key's type) in the settings file."""
    # Every refusal names the file it left alone (issue 15: "naming the key and the file").
    untouched = f"nothing was written to {settings_path()}"
    try:
        spec = setting_spec(key)
    except VoraError as error:
        raise VoraError(error.code, error.message, f"{error.hint}; {untouched}") from None
    try:
        value = parse_value(spec, raw)
    except VoraError as error:
        raise VoraError(error.code, error.message,
                        f"{untouched}; vora settings list --json shows each key's type") from None
    if key == "doctor.skip":  # checked here, not on every read: the check ids live in the doctor package
        from vora_cli.core.doctor.runner import SELECTABLE_IDS

        unknown = [v for v in value if v not in SELECTABLE_IDS]
        if unknown:
            # the same ids `vora doctor --skip` takes, live checks included
            raise VoraError("invalid", f"setting 'doctor.skip': unknown check {unknown[0]!r}",
                            f"check ids: {', '.join(SELECTABLE_IDS)}; {untouched}")

    def edit(values: dict[str, Any]) -> Any:
        values[key] = value
        return value

    return _write(key, edit, strict=True)


def unset_setting(key: str) -> SettingsChange:
    """Remove `key` from the settings file (a key vora does not know may be removed too: a repair)."""
    def edit(values: dict[str, Any]) -> Any:
        values.pop(key, None)
        return None

    if key not in SETTINGS:
        path = settings_path()
        from vora_cli.core.reading import read_bytes

        data = read_bytes(path)
        if data is None or key not in parse_settings(data, path, strict=False):
            setting_spec(key)  # raises: unknown key, and not in the file either
    return _write(key, edit, strict=False)
