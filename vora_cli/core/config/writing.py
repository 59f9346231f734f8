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

from vora_cli.core.config.diff import unified_diff
from vora_cli.core.config.loading import (
    ConfigPath,
    LoadedConfig,
    load_config,
    locate_owner,
    parse_config_bytes,
    parse_config_text,
)
from vora_cli.core.config.path_syntax import format_config_path
from vora_cli.core.config.planning import APPEND, REMOVE, UNSET, ConfigChange, ConfigEdit, plan_edits
from vora_cli.core.config.validation import validate_tree
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.paths import VoraPaths
from vora_cli.core.writer import append_line, replace_atomically, update_file

BACKUP_RING = 5  # vora.json.bak, .bak.1 … .bak.4


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
        from vora_cli.core.secrets import secret_values

        return unified_diff(self.old_text, self.new_text, Path(self.path).name, secret_values(*self.secret_trees))

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
        if edit.op in (UNSET, REMOVE):
            continue
        # The value alone, placed at its path (every index becomes 0: only the types matter).
        tree: Any = edit.value
        typed_path = (*edit.path, 0) if edit.op == APPEND else edit.path
        for seg in reversed(typed_path):
            tree = {seg: tree} if isinstance(seg, str) else [tree]
        where_set = tuple(0 if isinstance(seg, int) else seg for seg in typed_path)
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
    snapshot: LoadedConfig | None = None,
) -> ConfigWriteResult:
    """Apply `edits` in one lossless write per owning file (normally just vora.json).

    The config is read once (`snapshot`, when the caller already loaded it, else now) and the
    edits are planned on it. Under each file's lock, unchanged bytes get the planned text as
    is; changed bytes get one re-plan of the same edits (appends and removals by value find
    their place again; an edit at an array index whose array changed is a conflict).
    Nothing is written when a file does not parse, an edit does not fit its known type, the
    owner of a path is ambiguous, or the file changed in a way the edits cannot follow (exit 3).
    """
    check_edit_types(edits)
    loaded = snapshot if snapshot is not None else load_config(paths, env)
    by_file: dict[Path, list[tuple[ConfigEdit, ConfigPath]]] = {}
    for edit in edits:
        owner, inner = locate_owner(loaded, edit.path)
        by_file.setdefault(owner, []).append((edit, inner))

    plans: dict[Path, _FilePlan] = {}
    for file, file_edits in by_file.items():
        read = loaded.file_for(file)
        raw = read.raw if read is not None else None
        base = read.doc if read is not None and read.doc is not None else _empty_document(file)
        plans[file] = _plan_file(file, raw, base, file_edits, base.value, replan=False)
    if dry_run or not any(plan.new is not None for plan in plans.values()):
        return _result(plans, {}, dry_run=dry_run)

    # The write: under each file's lock, the planned text if the file still holds what was read.
    backups: dict[Path, Path] = {}
    for file, file_edits in by_file.items():
        first = plans[file]

        def before_replace(old: bytes | None, new: bytes, file: Path = file) -> None:
            if old is not None:
                backups[file] = rotate_backups(file, old)

        def transform(raw: bytes | None, file: Path = file, first: _FilePlan = first,
                      file_edits: list[tuple[ConfigEdit, ConfigPath]] = file_edits) -> bytes | None:
            if raw == first.old:
                return first.new
            fresh = parse_config_bytes(raw, file, included=file != loaded.path) if raw is not None \
                else _empty_document(file)
            plans[file] = _plan_file(file, raw, fresh, file_edits, first.before, replan=True)
            return plans[file].new

        result = update_file(file, transform, before_replace=before_replace)
        if result.changed:
            _audit(paths, command, file, [c.path for c in plans[file].changes], result)
    return _result(plans, backups, dry_run=False)


@dataclass(frozen=True)
class _FilePlan:
    old: bytes | None  # the bytes planned on
    new: bytes | None  # the new bytes; None: nothing changes
    before: Any  # the parsed tree planned on
    after: Any  # the tree after the edits
    changes: tuple[ConfigChange, ...]


def _empty_document(file: Path) -> Json5Document:
    return Json5Document.parse("{\n}\n", filename=str(file))


def _plan_file(file: Path, raw: bytes | None, doc: Json5Document, edits: list[tuple[ConfigEdit, ConfigPath]],
               snapshot: Any, *, replan: bool) -> _FilePlan:
    new_doc, changes = plan_edits(doc, edits, file, snapshot=snapshot, replan=replan)
    new_bytes: bytes | None = new_doc.text.encode("utf-8")
    if (raw is not None and new_bytes == raw) or (raw is None and not changes):
        new_bytes, changes = None, []
    return _FilePlan(raw, new_bytes, doc.value, new_doc.value, tuple(changes))


def _result(plans: dict[Path, _FilePlan], backups: dict[Path, Path], *, dry_run: bool) -> ConfigWriteResult:
    written = {file: plan for file, plan in plans.items() if plan.new is not None}
    # Every tree seen, old and new: their secret values must not show in any diff.
    trees = tuple(tree for plan in plans.values() for tree in (plan.before, plan.after))
    files = tuple(
        FileWrite(
            path=str(file),
            backup=str(backups[file]) if file in backups else None,
            old_text="" if plan.old is None else plan.old.decode("utf-8"),
            new_text=plan.new.decode("utf-8") if plan.new is not None else "",
            secret_trees=trees,
        )
        for file, plan in written.items()
    )
    changes = tuple(change for plan in written.values() for change in plan.changes)
    return ConfigWriteResult(changed=bool(written), dry_run=dry_run, changes=changes, files=files)


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
    old_tree = trees[1] if len(trees) > 1 else {}
    plan = _FilePlan(expected, new, old_tree, new_doc.value, ())
    return _result({file: plan}, backups, dry_run=False)
