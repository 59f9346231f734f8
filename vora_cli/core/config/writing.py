"""Writing vora.json: every config change of every command goes through `apply_config_edits`.

Spec: config.md, "Writing the file: lossless". The owning file is parsed under its lock, the
edits are applied by the lossless editor (`core.json5.document`), the result is type-checked
against the known keys, the old file goes into the backup ring, the new text replaces the file
atomically, and one audit line is appended.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vora_cli.core.config.loading import (
    ConfigPath,
    get_path,
    is_missing,
    load_config,
    locate_owner,
    parse_config_bytes,
    parse_config_text,
)
from vora_cli.core.config.path_syntax import format_config_path
from vora_cli.core.config.redaction import redact, secret_strings, unified_diff
from vora_cli.core.config.validation import validate_tree
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.paths import VoraPaths
from vora_cli.core.writer import append_line, read_bytes, replace_atomically, update_file

BACKUP_RING = 5  # vora.json.bak, .bak.1 … .bak.4


# -- writing ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ConfigEdit:
    """Set `path` to `value`, or delete it (`delete=True`)."""

    path: ConfigPath
    value: Any = None
    delete: bool = False


@dataclass(frozen=True)
class ConfigChange:
    path: str
    old: Any  # the old value (redacted when secret); None when it was not set
    new: Any  # the new value (redacted when secret); None when removed
    action: str  # "set" | "add" | "remove"
    file: str


@dataclass(frozen=True)
class FileWrite:
    path: str
    backup: str | None
    old_text: str = field(repr=False, default="")
    new_text: str = field(repr=False, default="")
    # The parsed trees whose secret values must not show in the diff (scanned only on demand).
    secret_trees: tuple[Any, ...] = field(repr=False, default=())

    @property
    def diff(self) -> str:
        """The unified diff, secrets redacted (computed when asked: most writes never show it)."""
        secrets: set[str] = set()
        for tree in self.secret_trees:
            secrets |= secret_strings(tree)
        return unified_diff(self.old_text, self.new_text, Path(self.path).name, secrets)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "diff": self.diff, "backup": self.backup}


@dataclass(frozen=True)
class ConfigWriteResult:
    changed: bool
    dry_run: bool
    changes: tuple[ConfigChange, ...]
    files: tuple[FileWrite, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "changed": self.changed,
            "dryRun": self.dry_run,
            "changes": [c.__dict__ for c in self.changes],
            "files": [f.to_dict() for f in self.files],
        }



def check_edit_types(edits: Sequence[ConfigEdit]) -> None:
    """A value set at a known key must fit its type (`ture` for a boolean is an error)."""
    for edit in edits:
        if edit.delete:
            continue
        # The value alone, placed at its path (every index becomes 0: only the types matter).
        tree: Any = edit.value
        for seg in reversed(edit.path):
            tree = {seg: tree} if isinstance(seg, str) else [tree]
        where_set = tuple(0 if isinstance(seg, int) else seg for seg in edit.path)
        for problem in validate_tree(tree):
            if problem.severity != "error":
                continue
            if problem.path[: len(where_set)] != where_set and where_set[: len(problem.path)] != problem.path:
                continue
            where = format_config_path(problem.path)
            raise VoraError(
                "invalid",
                f"{where} must be {problem.expected}, not {problem.found}",
                "see 'vora config schema' for the keys vora knows; --type string forces a string",
            )


def _render(value: Any, path: ConfigPath) -> Any:
    return redact(value, path) if value is not None else None


def backup_paths(path: Path) -> list[Path]:
    return [path.with_name(path.name + ".bak")] + [
        path.with_name(f"{path.name}.bak.{i}") for i in range(1, BACKUP_RING)
    ]


def rotate_backups(path: Path, old: bytes) -> Path:
    """Keep the backup ring: .bak (newest) … .bak.4; every backup 0600."""
    ring = backup_paths(path)
    for newer, older in reversed(list(itertools.pairwise(ring))):
        if newer.exists():
            os.replace(newer, older)
    replace_atomically(ring[0], old, new_mode=0o600, force_mode=True)
    return ring[0]


def apply_config_edits(
    paths: VoraPaths,
    edits: Sequence[ConfigEdit],
    *,
    command: str,
    dry_run: bool = False,
    env: Mapping[str, str] | None = None,
) -> ConfigWriteResult:
    """Apply `edits` in one lossless write per owning file (normally just vora.json).

    Nothing is written when a file does not parse, an edit does not fit its known type, the
    owner of a path is ambiguous, or the file changed on disk meanwhile (exit 3).
    """
    check_edit_types(edits)
    loaded = load_config(paths, env)
    by_file: dict[Path, list[tuple[ConfigEdit, ConfigPath]]] = {}
    for edit in edits:
        owner, inner = locate_owner(loaded, edit.path)
        by_file.setdefault(owner, []).append((edit, inner))

    changes: list[ConfigChange] = []
    planned: dict[Path, tuple[bytes | None, bytes]] = {}
    secret_trees: list[Any] = []
    built: dict[Path, tuple[bytes | None, bytes | None, list[ConfigChange]]] = {}

    def build(file: Path, raw: bytes | None) -> bytes | None:
        if file in built and built[file][0] == raw:  # same bytes as the first pass: same result
            _, new_bytes, file_changes = built[file]
            if new_bytes is not None:
                changes.extend(file_changes)
                planned[file] = (raw, new_bytes)
            return new_bytes
        result = _build(file, raw)
        built[file] = (raw, *result)
        return build(file, raw)

    def _build(file: Path, raw: bytes | None) -> tuple[bytes | None, list[ConfigChange]]:
        if raw is not None:
            doc = parse_config_bytes(raw, file)
        else:
            doc = Json5Document.parse("{\n}\n", filename=str(file))
        first_value = doc.value
        file_changes: list[ConfigChange] = []
        for edit, inner in by_file[file]:
            old = get_path(doc.value, inner)
            if edit.delete:
                if is_missing(old):
                    raise VoraError("not_found", f"{format_config_path(edit.path)} is not set in {file}",
                                    "see what is set with 'vora config get'")
                doc = doc.unset(inner)
                file_changes.append(ConfigChange(format_config_path(edit.path), _render(old, edit.path), None,
                                                 "remove", str(file)))
            else:
                new_doc = doc.set(inner, edit.value)
                if new_doc is not doc:
                    file_changes.append(ConfigChange(
                        format_config_path(edit.path),
                        None if is_missing(old) else _render(old, edit.path),
                        _render(edit.value, edit.path),
                        "add" if is_missing(old) else "set",
                        str(file),
                    ))
                doc = new_doc
        new_bytes = doc.text.encode("utf-8")
        secret_trees.extend((first_value, doc.value))
        if (raw is not None and new_bytes == raw) or (raw is None and not file_changes):
            return None, []
        return new_bytes, file_changes

    # First pass: compute every new text from what is on disk now (also the dry run).
    for file in by_file:
        build(file, read_bytes(file))
    if dry_run or not planned:
        return _result(changes, planned, {}, dry_run=dry_run, secret_trees=secret_trees)

    # Second pass: the real write, under each file's lock, recomputed from the bytes on disk.
    changes.clear()
    planned.clear()
    backups: dict[Path, Path] = {}
    for file in list(by_file):
        def before_replace(old: bytes | None, new: bytes, file: Path = file) -> None:
            if old is not None:
                backups[file] = rotate_backups(file, old)

        def transform(raw: bytes | None, file: Path = file) -> bytes | None:
            return build(file, raw)

        result = update_file(file, transform, before_replace=before_replace)
        if result.changed:
            _audit(paths, command, file, [c.path for c in changes if c.file == str(file)], result)
    return _result(changes, planned, backups, dry_run=False, secret_trees=secret_trees)


def _result(changes: list[ConfigChange], planned: dict[Path, tuple[bytes | None, bytes]],
            backups: dict[Path, Path], *, dry_run: bool, secret_trees: list[Any]) -> ConfigWriteResult:
    trees = tuple(secret_trees)
    files = tuple(
        FileWrite(
            path=str(file),
            backup=str(backups[file]) if file in backups else None,
            old_text="" if old is None else old.decode("utf-8"),
            new_text=new.decode("utf-8"),
            secret_trees=trees,
        )
        for file, (old, new) in planned.items()
    )
    return ConfigWriteResult(changed=bool(planned), dry_run=dry_run, changes=tuple(changes), files=files)


def _audit(paths: VoraPaths, command: str, file: Path, changed: list[str], result: Any) -> None:
    record = {
        "time": _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "command": command,
        "file": str(file),
        "paths": changed,
        "before": {"sha256": result.before_sha256, "size": result.before_size},
        "after": {"sha256": result.after_sha256, "size": result.after_size},
    }
    append_line(paths.logs_dir / "config-audit.jsonl", json.dumps(record, ensure_ascii=False))


def write_config_text(
    paths: VoraPaths, new_text: str, *, expected: bytes | None, command: str
) -> ConfigWriteResult:
    """Replace the whole main config file with a text the user wrote (`vora config edit`).

    The text must parse; the file must still hold `expected` (else a conflict, exit 3).
    """
    file = paths.config_path
    new_doc = parse_config_text(new_text, file)
    trees: list[Any] = [new_doc.value]
    if expected is not None:
        trees.append(parse_config_bytes(expected, file).value)
    new = new_text.encode("utf-8")
    if new == expected:
        return ConfigWriteResult(False, False, (), ())
    backups: dict[Path, Path] = {}

    def transform(current: bytes | None) -> bytes:
        if current != expected:
            raise VoraError("conflict", f"{file} changed on disk while it was being edited",
                            "nothing was written; run 'vora config edit' again")
        return new

    def before_replace(old: bytes | None, _new: bytes) -> None:
        if old is not None:
            backups[file] = rotate_backups(file, old)

    result = update_file(file, transform, before_replace=before_replace)
    _audit(paths, command, file, ["*"], result)
    return _result([], {file: (expected, new)}, backups, dry_run=False, secret_trees=trees)
