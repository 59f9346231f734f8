"""What happens once a config file's new bytes land: the backup ring and the audit line; what fails after
the replace is a warning of a landed write, never an error (docs/config.md, "Backups and audit").
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
from collections.abc import Callable
from pathlib import Path

from vora_cli.core.clock import iso_utc
from vora_cli.core.errors import VoraError
from vora_cli.core.writer import WriteResult, append_line, replace_atomically, update_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install

BACKUP_RING = 5  # vora.json.bak, .bak.1 … .bak.4


def backup_paths(path: Path) -> list[Path]:
    return [path.with_name(path.name + ".bak")] + [
        path.with_name(f"{path.name}.bak.{i}") for i in range(1, BACKUP_RING)
    ]


def stage_backup(path: Path, old: bytes) -> Path:
    """Write the coming backup under a temporary name; the ring is not touched yet."""
    pending = path.with_name(path.name + ".bak.new")
    replace_atomically(pending, old, new_mode=0o600, force_mode=True)
    return pending


def rotate_backups(path: Path, pending: Path) -> Path:
    """Once the new config has landed: shift the ring (.bak -> .bak.1 … .bak.4) and move the
    staged backup in as .bak. A write that fails never gets here, so it never costs a backup."""
    ring = backup_paths(path)
    for newer, older in reversed(list(itertools.pairwise(ring))):
        if newer.exists():
            os.replace(newer, older)
    os.replace(pending, ring[0])
    return ring[0]


def _discard(pending: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(pending)


class Landing:
    """The steps after a file's replace: backups and the audit line. The change has landed, so
    what fails here becomes a warning of the result, never an error."""

    def __init__(self, install: Install, command: str) -> None:
        self.install = install
        self.command = command
        self.backups: dict[Path, Path] = {}
        self.warnings: list[str] = []
        self.pending: dict[Path, Path] = {}

    def before_replace(self, file: Path, old: bytes | None) -> None:
        if old is not None:
            self.pending[file] = stage_backup(file, old)

    def after_replace(self, file: Path) -> None:
        pending = self.pending.pop(file, None)
        if pending is None:
            return
        try:
            self.backups[file] = rotate_backups(file, pending)
        except (OSError, VoraError) as error:
            _discard(pending)
            self.warnings.append(f"{file} was written, but its backup could not be kept: {_reason(error)}")

    def abandon(self, file: Path) -> None:
        """The replace did not happen: drop the staged backup, the ring stays as it was."""
        pending = self.pending.pop(file, None)
        if pending is not None:
            _discard(pending)

    def audit(self, file: Path, changed: list[str], result: WriteResult) -> None:
        try:
            _audit(self.install, self.command, file, changed, result)
        except (OSError, VoraError, ValueError) as error:
            self.warnings.append(f"{file} was written, but the audit line could not be appended: {_reason(error)}")

    def write(self, file: Path, transform: Callable[[bytes | None], bytes | None],
              changed: Callable[[], list[str]]) -> WriteResult:
        try:
            result = update_file(file, transform, lock_timeout=self.install.lock_timeout,
                                 before_replace=lambda old, _new: self.before_replace(file, old),
                                 after_replace=lambda _result: self.after_replace(file))
        finally:
            self.abandon(file)
        if result.changed:
            self.audit(file, changed(), result)
        return result


def _reason(error: BaseException) -> str:
    if isinstance(error, VoraError):
        return error.message
    if isinstance(error, OSError):
        return error.strerror or type(error).__name__
    return str(error)


def _audit(install: Install, command: str, file: Path, changed: list[str], result: Any) -> None:
    record = {
        "time": iso_utc(install.now_ms),  # the run's clock: VORA_NOW_MS pins it
        "command": command,
        "file": str(file),
        "paths": changed,
        "before": {"sha256": result.before_sha256, "size": result.before_size},
        "after": {"sha256": result.after_sha256, "size": result.after_size},
    }
    # A path with a non-UTF-8 byte (a surrogate escape) is written as \\uXXXX by append_line.
    append_line(install.paths.logs_dir / "config-audit.jsonl", json.dumps(record, ensure_ascii=False))
