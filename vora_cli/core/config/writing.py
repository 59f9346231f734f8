"""Writing vora.json: every config change of every command goes through `apply_config_edits`.

Spec: config.md, "Writing the file: lossless". The owning file is parsed under its lock, the
edits are applied by the lossless editor (`core.json5.document`), the result is type-checked
against the known keys, the old file goes into the backup ring, the new text replaces the file
atomically, and one audit line is appended.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import itertools
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vora_cli.core.config.loading import (
    MISSING,
    ConfigFile,
    ConfigPath,
    LoadedConfig,
    check_config_size,
    load_config,
    locate_owner,
    parse_config_bytes,
    parse_config_text,
)
from vora_cli.core.config.path_syntax import format_config_path
from vora_cli.core.config.planning import APPEND, REMOVE, UNSET, ConfigChange, ConfigEdit, plan_edits
from vora_cli.core.config.redaction import redact, secret_strings, unified_diff
from vora_cli.core.config.validation import validate_tree
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.values import escape_surrogates, strict_eq
from vora_cli.core.paths import VoraPaths
from vora_cli.core.writer import WriteResult, append_line, replace_atomically, update_file

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
    # What went wrong after the write landed (a backup or the audit line could not be written):
    # the change is in the file all the same, so these are warnings, not an error.
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "changed": self.changed,
            "dryRun": self.dry_run,
            "changes": [c.__dict__ for c in self.changes],
            "files": [f.to_dict() for f in self.files],
            "warnings": list(self.warnings),
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


class _Landing:
    """The steps after a file's replace: backups and the audit line. The change has landed, so
    what fails here becomes a warning of the result, never an error (issue 12, point 5)."""

    def __init__(self, paths: VoraPaths, command: str) -> None:
        self.paths = paths
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
            _audit(self.paths, self.command, file, changed, result)
        except (OSError, VoraError, ValueError) as error:
            self.warnings.append(f"{file} was written, but the audit line could not be appended: {_reason(error)}")

    def write(self, file: Path, transform: Callable[[bytes | None], bytes | None],
              changed: Callable[[], list[str]]) -> WriteResult:
        try:
            result = update_file(file, transform,
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


def check_reads_back(paths: VoraPaths, loaded: LoadedConfig,
                     planned: Mapping[Path, tuple[bytes, Json5Document | None]]) -> None:
    """Refuse a result a later read could not load (spec config.md; issue 12, point 4).

    The planned bytes are loaded the way `load_config` will load them after the write: size
    limit, syntax, every `$include` resolved (present, inside the config folder, no cycle); the
    keys vora knows must not gain a type error; a file that was strict JSON stays strict JSON.
    """
    try:
        for file, (new, _doc) in planned.items():
            check_config_size(new, file)
        # The planned documents are the editor's: their text was checked to hold exactly the
        # intended change, so their values are what a parse of the new bytes would give.
        after = load_config(paths, loaded.env, lenient=False,
                            planned={file: ConfigFile(file, new, doc) for file, (new, doc) in planned.items()})
    except VoraError as error:
        raise VoraError(error.code if error.code != "conflict" else "invalid",
                        f"the config would not load after this change ({error.message}); nothing was written",
                        error.hint) from None
    before_errors = {(p.path, p.expected) for p in validate_tree(loaded.value) if p.severity == "error"}
    for problem in validate_tree(after.value):
        if problem.severity == "error" and (problem.path, problem.expected) not in before_errors:
            raise VoraError(
                "invalid",
                f"{format_config_path(problem.path)} must be {problem.expected}, not {problem.found}; nothing was written",
                "see 'vora config schema' for the keys vora knows",
            )
    for file, (new, _doc) in planned.items():
        read = loaded.file_for(file)
        # New text copies its neighbours' style (core/json5/style.py), so in a strict-JSON file
        # only a NaN or an Infinity can make it JSON5: parse twice only when one is there.
        if read is None or read.raw is None or (b"NaN" not in new and b"Infinity" not in new):
            continue
        if is_strict_json(read.raw) and not is_strict_json(new):
            raise VoraError(
                "invalid",
                f"{file} is strict JSON and this change would make it JSON5 only (NaN or Infinity); nothing was written",
                "write a finite number, or a string such as \"Infinity\"",
            )


def is_strict_json(raw: bytes) -> bool:
    """Whether `raw` is strict JSON (RFC 8259: no comments, no NaN/Infinity, no trailing commas)."""
    def refuse(name: str) -> Any:
        raise ValueError(name)

    try:
        json.loads(raw.decode("utf-8"), parse_constant=refuse)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return False
    return True


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
    planned = {file: (plan.new, plan.doc) for file, plan in plans.items() if plan.new is not None}
    if planned:  # a dry run runs every check a real write runs
        check_reads_back(paths, loaded, planned)
    if dry_run or not planned:
        return _result(plans, {}, dry_run=dry_run)

    # The write: under each file's lock, the planned text if the file still holds what was read.
    landing = _Landing(paths, command)
    for file, file_edits in by_file.items():
        first = plans[file]

        def transform(raw: bytes | None, file: Path = file, first: _FilePlan = first,
                      file_edits: list[tuple[ConfigEdit, ConfigPath]] = file_edits) -> bytes | None:
            if raw == first.old:
                return first.new
            fresh = parse_config_bytes(raw, file, included=file != loaded.path) if raw is not None \
                else _empty_document(file)
            plans[file] = _plan_file(file, raw, fresh, file_edits, first.before, replan=True)
            plan = plans[file]
            if plan.new is not None:
                check_reads_back(paths, loaded, {file: (plan.new, plan.doc)})
            return plan.new

        def changed_paths(file: Path = file) -> list[str]:
            return [c.path for c in plans[file].changes]

        landing.write(file, transform, changed_paths)
    return _result(plans, landing.backups, dry_run=False, warnings=tuple(landing.warnings))


@dataclass(frozen=True)
class _FilePlan:
    old: bytes | None  # the bytes planned on
    new: bytes | None  # the new bytes; None: nothing changes
    before: Any  # the parsed tree planned on
    after: Any  # the tree after the edits
    changes: tuple[ConfigChange, ...]
    doc: Json5Document | None = None  # the edited document (None when nothing changes)


def _empty_document(file: Path) -> Json5Document:
    return Json5Document.parse("{\n}\n", filename=str(file))


def _plan_file(file: Path, raw: bytes | None, doc: Json5Document, edits: list[tuple[ConfigEdit, ConfigPath]],
               snapshot: Any, *, replan: bool) -> _FilePlan:
    new_doc, changes = plan_edits(doc, edits, file, snapshot=snapshot, replan=replan)
    new_bytes: bytes | None = new_doc.text.encode("utf-8")
    if (raw is not None and new_bytes == raw) or (raw is None and not changes):
        new_bytes, changes = None, []
    return _FilePlan(raw, new_bytes, doc.value, new_doc.value, tuple(changes), new_doc)


def _result(plans: dict[Path, _FilePlan], backups: dict[Path, Path], *, dry_run: bool,
            warnings: tuple[str, ...] = (), changes: tuple[ConfigChange, ...] | None = None) -> ConfigWriteResult:
    written = {file: plan for file, plan in plans.items() if plan.new is not None}
    # Every tree seen, old and new: their secret values must not show in any diff.
    trees = tuple(tree for plan in plans.values() for tree in (plan.before, plan.after))
    files = tuple(
        FileWrite(
            path=str(file),
            backup=str(backups[file]) if file in backups else None,
            old_text="" if plan.old is None else plan.old.decode("utf-8", "replace"),  # a non-UTF-8 file being repaired
            new_text=plan.new.decode("utf-8") if plan.new is not None else "",
            secret_trees=trees,
        )
        for file, plan in written.items()
    )
    if changes is None:
        changes = tuple(change for plan in written.values() for change in plan.changes)
    return ConfigWriteResult(changed=bool(written), dry_run=dry_run, changes=changes, files=files, warnings=warnings)


def _audit(paths: VoraPaths, command: str, file: Path, changed: list[str], result: Any) -> None:
    record = {
        "time": _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "command": command,
        "file": str(file),
        "paths": changed,
        "before": {"sha256": result.before_sha256, "size": result.before_size},
        "after": {"sha256": result.after_sha256, "size": result.after_size},
    }
    # Paths may hold a non-UTF-8 byte (a surrogate escape): written as \\uXXXX, never an error.
    append_line(paths.logs_dir / "config-audit.jsonl", escape_surrogates(json.dumps(record, ensure_ascii=False)))


def write_config_text(
    paths: VoraPaths, new_text: str, *, expected: bytes | None, command: str
) -> ConfigWriteResult:
    """Replace the whole main config file with a text the user wrote (`vora config edit`).

    The text must parse; the file must still hold `expected` (else a conflict, exit 3).
    """
    file = paths.config_path
    new_doc = parse_config_text(new_text, file)
    try:
        loaded = load_config(paths, lenient=True)
    except VoraError:
        # `config edit` is how a file that does not parse gets fixed: compare with nothing.
        broken = ConfigFile(file, expected, None)
        loaded = LoadedConfig(file, broken, {}, (broken,), os.environ, lenient=True)
    old_tree: Any = loaded.main.value
    new = escape_surrogates(new_text).encode("utf-8")
    if new == expected:
        return ConfigWriteResult(False, False, (), ())
    check_reads_back(paths, loaded, {file: (new, new_doc)})
    changes = tuple(ConfigChange(format_config_path(path), _shown_value(old, path), _shown_value(value, path),
                                 action, str(file))
                    for path, old, value, action in changed_members(old_tree, new_doc.value))

    def transform(current: bytes | None) -> bytes:
        if current != expected:
            raise VoraError("conflict", f"{file} changed on disk while it was being edited",
                            "nothing was written; run 'vora config edit' again")
        return new

    landing = _Landing(paths, command)
    landing.write(file, transform, lambda: [c.path for c in changes])
    plan = _FilePlan(expected, new, old_tree, new_doc.value, changes)
    return _result({file: plan}, landing.backups, dry_run=False, warnings=tuple(landing.warnings))


def _shown_value(value: Any, path: ConfigPath) -> Any:
    return None if value is MISSING else redact(value, path)


def changed_members(old: Any, new: Any, path: ConfigPath = ()) -> list[tuple[ConfigPath, Any, Any, str]]:
    """Where two trees differ, as (path, old, new, action): objects compared key by key, any
    other difference reported at its own path (`config edit --json` names what changed)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[tuple[ConfigPath, Any, Any, str]] = []
        for key, value in new.items():
            if key not in old:
                out.append(((*path, key), MISSING, value, "add"))
            else:
                out.extend(changed_members(old[key], value, (*path, key)))
        out.extend(((*path, key), value, MISSING, "remove") for key, value in old.items() if key not in new)
        return out
    if strict_eq(old, new):
        return []
    return [(path, old, new, "set")]
