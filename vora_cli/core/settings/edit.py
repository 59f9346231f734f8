"""Writing the settings file: `vora settings set` and `unset` (reading and precedence: `resolve.py`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from vora_cli.core.errors import VoraError
from vora_cli.core.settings.resolve import (
    SETTINGS,
    Settings,
    nest,
    parse_settings,
    parse_settings_for_unset,
    parse_value,
    setting_spec,
    shown_value,
)

# -- set / unset ----------------------------------------------------------------------------------

class SettingsChange(NamedTuple):
    """One setting written: the write-result words `vora config` uses too (`key`, `old`, `new`,
    `file`, `changed`; docs/exit-codes-and-json.md, "Write results")."""

    key: str
    file: Path
    old: Any
    new: Any
    changed: bool
    backup: Path | None = None  # the hand-written file as it was (comments and all), when vora rewrote it

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "old": shown_value(self.key, self.old), "new": shown_value(self.key, self.new),
                "file": str(self.file), "changed": self.changed,
                "backup": None if self.backup is None else str(self.backup)}


HEADER = "# vora settings: edit with `vora settings set KEY VALUE` (docs/settings.md)\n"


def _render(values: dict[str, Any]) -> bytes:
    import tomli_w

    return (HEADER + tomli_w.dumps(nest(values))).encode("utf-8")


def _write(path: Path, key: str, edit: Callable[[dict[str, Any]], Any], strict: bool) -> SettingsChange:
    from vora_cli.core.writer import replace_atomically, unused_backup_path, update_file

    seen: dict[str, Any] = {}

    def transform(old: bytes | None) -> bytes | None:
        # `set KEY` repairs KEY's own wrong value (the hint of that error says to); any other bad
        # key in the file still stops it, naming that key. `unset KEY` also drops a statement of
        # KEY too deep to parse: the documented repair works without the file parsing.
        dropped = False
        if old is None:
            values: dict[str, Any] = {}
        elif strict:
            values = parse_settings(old, path, replacing=key)
        else:
            values, dropped = parse_settings_for_unset(old, path, key)
        original = dict(values)
        seen["before"] = values.get(key)
        seen["after"] = edit(values)
        if values == original and not dropped:
            return None
        seen["own"] = old is None or old == _render(original)
        return _render(values)

    def keep_backup(old: bytes | None, _new: bytes) -> None:
        # tomli-w writes no comments: a file vora did not write this way (a hand-written one, with
        # comments and an order of its own) is kept as it was before vora rewrites it
        if old is not None and not seen["own"]:
            seen["backup"] = unused_backup_path(path)
            replace_atomically(seen["backup"], old, new_mode=0o600)

    # The lock wait of the settings file itself is the built-in one: reading `lock_timeout` from a
    # file being repaired (`unset` of a bad key) must not fail the repair.
    result = update_file(path, transform, new_mode=0o600, lock_timeout=SETTINGS["lock_timeout"].default,
                         keep_lock_file=False, before_replace=keep_backup)
    return SettingsChange(key, path, seen.get("before"), seen.get("after"), result.changed,
                          seen.get("backup") if result.changed else None)


def set_setting(settings: Settings, key: str, raw: str) -> SettingsChange:
    """Set `key` to the command-line text `raw` (checked against the key's type) in the settings file."""
    # Every refusal names the key and the file it left alone.
    untouched = f"nothing was written to {settings.path}"
    try:
        spec = setting_spec(key)
    except VoraError as error:
        raise VoraError(error.code, error.message, f"{error.hint}; {untouched}") from None
    try:
        value = parse_value(spec, raw)
    except VoraError as error:
        raise VoraError(error.code, error.message,
                        f"{untouched}; vora settings list --json shows each key's type") from None
    if key == "doctor.skip":  # checked when set and by `vora doctor`, not on every read (docs/settings.md)
        from vora_cli.core.doctor_names import skip_setting_error, unknown_check_ids

        for unknown in unknown_check_ids(value)[:1]:  # the same ids `vora doctor --skip` takes
            raise skip_setting_error(unknown, "", untouched)

    def edit(values: dict[str, Any]) -> Any:
        values[key] = value
        return value

    return _write(settings.path, key, edit, strict=True)


def unset_setting(settings: Settings, key: str) -> SettingsChange:
    """Remove `key` from the settings file (a key vora does not know may be removed too: a repair)."""
    def edit(values: dict[str, Any]) -> Any:
        values.pop(key, None)
        return None

    path = settings.path
    if key not in SETTINGS:
        from vora_cli.core.reading import read_bytes

        data = read_bytes(path)
        values, dropped = parse_settings_for_unset(data, path, key) if data is not None else ({}, False)
        if key not in values and not dropped:
            setting_spec(key)  # raises: unknown key, and not in the file either
    return _write(path, key, edit, strict=False)
