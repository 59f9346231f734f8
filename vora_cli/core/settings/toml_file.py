"""The settings file as TOML text: decoded as UTF-8 and parsed through the one bounded reader,
each failure a `parse_error` naming the file and the way out (`resolve.py` checks the values)."""

from __future__ import annotations

from pathlib import Path

from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def load_table(text: str, path: Path) -> dict[str, Any]:
    import tomllib

    from vora_cli.core.nesting import TomlTooDeep, toml_loads

    try:
        return toml_loads(text)
    except TomlTooDeep as deep:
        # named by its key, so the documented repair works on it: `unset` drops the statement
        # without the file having to parse (`parse_settings_for_unset`)
        repair = f"vora settings unset {deep.key}; or " if deep.key else ""
        raise VoraError("parse_error", f"{path}:{deep.line}: {deep.what}", f"remove it: {repair}remove the file to go back to the "
                        "defaults") from None
    except tomllib.TOMLDecodeError as exc:
        raise VoraError("parse_error", f"{path}: {exc}", "fix the file by hand (vora settings path shows it), "
                        "or remove it to go back to the defaults") from None


def decode(data: bytes, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VoraError("parse_error", f"{path}: not UTF-8 ({exc.reason} at byte {exc.start})",
                        "fix the file by hand (vora settings path shows it), or remove it to go back to the "
                        "defaults") from None
