"""Writing vora.json: every config change of every command goes through `apply_config_edits`
(docs/config.md, "Every change takes one path").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from vora_cli.core.config.landing import Landing
from vora_cli.core.config.loading import (
    MISSING,
    ConfigFile,
    LoadedConfig,
    parse_config_bytes,
    parse_config_text,
)
from vora_cli.core.config.owners import locate_owner
from vora_cli.core.config.planning import APPEND, REMOVE, UNSET, ConfigChange, ConfigEdit, plan_edits
from vora_cli.core.config.readback import GatewayCheck, check_reads_back
from vora_cli.core.config.validation import describe_found, validate_tree
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.path_syntax import ConfigPath, format_config_path
from vora_cli.core.json5.values import escape_surrogates, same_value
from vora_cli.core.records import dataclass, field
from vora_cli.core.secrets import EMPTY_SECRET, follows_secret_flag, redact

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install


@dataclass(frozen=True)
class FileWrite:
    """One file a config write changed: its backup and its bytes before and after."""
    path: str
    backup: str | None
    old: bytes | None = field(repr=False, default=None)  # None: there was no file
    new: bytes = field(repr=False, default=b"")
    # The parsed trees whose secret values must not show in the diff (scanned only on demand).
    secret_trees: tuple[Any, ...] = field(repr=False, default=())

    @property
    def diff(self) -> str:
        """The unified diff, secrets redacted (computed when asked: most writes never show it)."""
        from vora_cli.core.config.diff import unified_diff  # difflib: only a shown diff needs it
        from vora_cli.core.secrets import secret_values

        old_text = "" if self.old is None else self.old.decode("utf-8", "replace")  # a non-UTF-8 file being repaired
        return unified_diff(old_text, self.new.decode("utf-8"), Path(self.path).name, secret_values(*self.secret_trees))

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "diff": self.diff, "backup": self.backup}


@dataclass(frozen=True)
class ConfigWriteResult:
    """What a config write changed (or would change, in a dry run)."""
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
            "changes": [c.to_dict() for c in self.changes],
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
        from vora_cli.core.config.migrations import migrate_legacy

        for problem in validate_tree(migrate_legacy(tree).tree):  # a legacy spelling as the gateway reads it
            if problem.severity != "error":
                continue
            hint = "see 'vora config schema' for the keys vora knows; --type string forces a string"
            if problem.path[: len(where_set)] == where_set:  # at or inside the value: its own indexes
                where = format_config_path((*typed_path, *problem.path[len(where_set):]))
                raise VoraError("invalid", f"{where} must be {problem.expected}, not {problem.found}", hint)
            if where_set[: len(problem.path)] == problem.path:  # a container the value goes in
                where = format_config_path(typed_path) or "."
                found = describe_found(edit.value, typed_path)
                if not problem.path:
                    raise VoraError("usage", f"{where}: the config is an object, so a path starts with a key name",
                                    "for example: vora config set gateway.port 18789")
                raise VoraError("invalid", f"{where} cannot be set to {found}: {format_config_path(problem.path)} "
                                f"must be {problem.expected}", hint)


def apply_config_edits(
    install: Install,
    edits: Sequence[ConfigEdit],
    *,
    command: str,
    dry_run: bool = False,
    snapshot: LoadedConfig | None = None,
    gateway: GatewayCheck | None = None,
) -> ConfigWriteResult:
    """Apply `edits` in one lossless write per owning file (docs/architecture.md, plan then commit).

    Planned on `snapshot` (else the install's `editable_config`). Under each file's lock,
    unchanged bytes get the planned text; changed bytes get one re-plan (an edit at an array
    index whose array changed is a conflict). Nothing is written when a file does not parse, an
    edit does not fit its type, a path's owner is ambiguous, or the change cannot be followed.
    """
    check_edit_types(edits)
    paths = install.paths
    loaded = snapshot if snapshot is not None else install.editable_config
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
    forced: tuple[str, ...] = ()
    if planned:  # a dry run runs every check a real write runs
        forced = check_reads_back(paths, loaded, planned, gateway)
    if planned:  # a dry run is refused where the real run would be (spec config.md)
        install.refuse_newer_line_write(f"{command} of {', '.join(str(f) for f in planned)}",
                                        forced=gateway is not None and gateway.force)
    if dry_run or not planned:
        return _result(plans, {}, dry_run=dry_run, warnings=forced)

    # The write: under each file's lock, the planned text if the file still holds what was read.
    landing = Landing(install, command)
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
                check_reads_back(paths, loaded, {file: (plan.new, plan.doc)}, gateway)
            return plan.new

        def changed_paths(file: Path = file) -> list[str]:
            return [c.path for c in plans[file].changes]

        landing.write(file, transform, changed_paths)
    return _result(plans, landing.backups, dry_run=False, warnings=(*forced, *landing.warnings))


@dataclass(frozen=True)
class _FilePlan:
    """The planned new bytes of one file and the changes they make."""
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
            old=plan.old,
            new=plan.new if plan.new is not None else b"",
            secret_trees=trees,
        )
        for file, plan in written.items()
    )
    if changes is None:
        changes = tuple(change for plan in written.values() for change in plan.changes)
    emptied = tuple(f"{c.path} {'would become' if dry_run else 'is now'} an empty string: the gateway counts an empty "
                    "secret as none set" for c in changes if c.new == EMPTY_SECRET and c.old != EMPTY_SECRET)
    return ConfigWriteResult(changed=bool(written), dry_run=dry_run, changes=changes, files=files,
                             warnings=(*emptied, *warnings))


def write_config_text(
    install: Install, new_text: str, *, expected: bytes | None, command: str, gateway: GatewayCheck | None = None
) -> ConfigWriteResult:
    """Replace the whole main config file with a text the user wrote (`vora config edit`).

    The text must parse; the file must still hold `expected` (else a conflict, exit 3).
    """
    paths = install.paths
    file = paths.config_path
    new_doc = parse_config_text(new_text, file)
    try:
        loaded = install.editable_config
    except VoraError:
        # `config edit` is how a file that does not parse gets fixed: compare with nothing.
        broken = ConfigFile(file, expected, None)
        loaded = LoadedConfig(file, broken, {}, (broken,), install.env, lenient=True)
    old_tree: Any = loaded.main.value
    new = escape_surrogates(new_text).encode("utf-8")
    if new == expected:
        return ConfigWriteResult(False, False, (), ())
    forced = check_reads_back(paths, loaded, {file: (new, new_doc)}, gateway)
    install.refuse_newer_line_write(f"{command} of {file}", forced=gateway is not None and gateway.force)
    changes = tuple(ConfigChange(format_config_path(path), _shown_value(old, path, old_tree),
                                 _shown_value(value, path, new_doc.value), action, str(file))
                    for path, old, value, action in changed_members(old_tree, new_doc.value))

    def transform(current: bytes | None) -> bytes:
        if current != expected:
            raise VoraError("conflict", f"{file} changed on disk while it was being edited",
                            "nothing was written; run 'vora config edit' again")
        return new

    landing = Landing(install, command)
    landing.write(file, transform, lambda: [c.path for c in changes])
    plan = _FilePlan(expected, new, old_tree, new_doc.value, changes)
    return _result({file: plan}, landing.backups, dry_run=False, warnings=(*forced, *landing.warnings))


def _shown_value(value: Any, path: ConfigPath, tree: Any) -> Any:
    return None if value is MISSING else redact(value, path, said=follows_secret_flag(tree, path))


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
    if same_value(old, new):
        return []
    return [(path, old, new, "set")]
