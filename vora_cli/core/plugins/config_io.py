"""The one place the plugins code reads and writes `vora.json` and parses JSON5.

Config writes belong to the lossless editor (`vora_cli.core.config`); this module only adapts
its API to what the plugins code needs, so switching implementations touches this file alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths


def parse_json5(text: str, filename: str) -> Any:
    """Parse JSON5 text; a syntax error is `parse_error` naming the file, line and column."""
    from vora_cli.core.json5doc import loads

    return loads(text, filename=filename)


@dataclass(frozen=True)
class ConfigEdit:
    """One change: set `value` at `path`, or delete it."""

    path: tuple[str | int, ...]
    value: Any = None
    delete: bool = False


@dataclass(frozen=True)
class ConfigWrite:
    """What a config write did (or, in a dry run, would do)."""

    path: Path
    changed: bool
    diff: str
    changes: tuple[str, ...] = field(default_factory=tuple)
    backup_path: Path | None = None


def read_config(paths: VoraPaths) -> dict[str, Any]:
    """The merged config tree (`{}` when the file does not exist)."""
    try:
        text = paths.config_path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {paths.config_path}: {exc.strerror}") from exc
    value = parse_json5(text, str(paths.config_path))
    if not isinstance(value, dict):
        raise VoraError("invalid", f"{paths.config_path}: the top level must be an object")
    return value


def write_config(paths: VoraPaths, edits: Sequence[ConfigEdit], *, command: str, dry_run: bool) -> ConfigWrite:
    """Apply `edits` in ONE lossless write (or show them in a dry run)."""
    raise VoraError(
        "internal",
        "the lossless config editor is not merged into this branch yet",
        "use 'vora config set' once it lands",
    )
