"""The edit planner: config edits that carry their intent, planned as a pure function of a snapshot, and
planned again by intent on fresh bytes (docs/config.md, "Every change takes one path").
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from vora_cli.core.config.includes import INCLUDE_KEY
from vora_cli.core.config.loading import get_path, is_missing
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.path_syntax import ConfigPath, format_config_path
from vora_cli.core.json5.values import same_value
from vora_cli.core.records import dataclass
from vora_cli.core.secrets import follows_secret_flag, redact
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SET, UNSET, APPEND, REMOVE = "set", "unset", "append", "remove"


@dataclass(frozen=True)
class ConfigEdit:
    """One intended change. `ConfigEdit(path, value)` sets, `ConfigEdit(path, delete=True)` unsets.

    `append(array_path, value)`: add at the end (array created when missing) unless an equal
    element is there. `remove(array_path, values)`: drop every equal element. Both keep their
    meaning on a file that changed. `set_if(path, value, current)`: set only if still `current`.
    """

    path: ConfigPath
    value: Any = None
    delete: bool = False
    action: str = ""  # "" means SET or UNSET, from `delete`
    # `(y,)`: set (or unset) only if the value there is still `y` (`MISSING`: still unset), else
    # `conflict`. `None`: no expectation.
    expect: tuple[Any] | None = None

    @classmethod
    def set_if(cls, path: ConfigPath, value: Any, current: Any) -> ConfigEdit:
        """Set `path` to `value` if it still holds `current` (`MISSING`: if it is still unset)."""
        return cls(path, value, expect=(current,))

    @classmethod
    def append(cls, path: ConfigPath, value: Any) -> ConfigEdit:
        return cls(path, value, action=APPEND)

    @classmethod
    def remove(cls, path: ConfigPath, values: Sequence[Any]) -> ConfigEdit:
        return cls(path, tuple(values), action=REMOVE)

    @property
    def op(self) -> str:
        return self.action or (UNSET if self.delete else SET)


@dataclass(frozen=True)
class ConfigChange:
    """One changed path of a config write, secrets redacted."""
    path: str
    old: Any  # the old value (redacted when secret); None when it was not set
    new: Any  # the new value (redacted when secret); None when removed
    action: str  # "set" | "add" | "remove"
    file: str

    def to_dict(self) -> dict[str, Any]:
        """`key`: the config path as `vora config get` takes it; `path` in vora's JSON is always a
        file (docs/exit-codes-and-json.md, "Write results")."""
        return {"key": self.path, "old": self.old, "new": self.new, "action": self.action, "file": self.file}


def _shown(value: Any, path: ConfigPath, tree: Any = None, inner: ConfigPath = ()) -> Any:
    """`value` at `path` as a change shows it; `tree` (the file's, where it is at `inner`) tells
    whether its neighbour says it is a secret (the element after `--api-key`)."""
    if value is None:
        return None
    return redact(value, path, said=tree is not None and follows_secret_flag(tree, inner))


def _still(old: Any, expected: Any) -> bool:
    if is_missing(expected) or is_missing(old):
        return is_missing(expected) and is_missing(old)
    return same_value(old, expected)


def _describe_expected(expected: Any, path: ConfigPath) -> str:
    if is_missing(expected):
        return "unset"
    return json.dumps(_shown(expected, path), ensure_ascii=False, default=str)


def _indexed_array(path: ConfigPath) -> ConfigPath | None:
    """The array the deepest index of `path` points into, or None when `path` has no index."""
    for i in range(len(path) - 1, -1, -1):
        seg = path[i]
        if isinstance(seg, int) and not isinstance(seg, bool):
            return path[:i]
    return None


def plan_edits(
    doc: Json5Document,
    edits: Sequence[tuple[ConfigEdit, ConfigPath]],
    file: Path,
    *,
    snapshot: Any = None,
    replan: bool = False,
) -> tuple[Json5Document, list[ConfigChange]]:
    """Apply `edits` (each with its path inside this file) to `doc`; a pure function. With
    `replan=True`, `doc` is the fresh file and `snapshot` the tree first planned on: an edit that
    addressed an array element by index needs that array unchanged."""
    changes: list[ConfigChange] = []
    for edit, inner in edits:
        shown_path = format_config_path(edit.path)
        if replan:
            array = _indexed_array(inner)
            if array is not None and not same_value(get_path(doc.value, array), get_path(snapshot, array)):
                raise VoraError(
                    "conflict",
                    f"{file} changed on disk while vora was working: the array {shown_path} indexes is not "
                    "the one vora read, so the index may name another element",
                    "nothing was written; run the command again to apply it to the new content",
                )
        op = edit.op
        old = get_path(doc.value, inner)
        if edit.expect is not None and not _still(old, edit.expect[0]):
            raise VoraError(
                "conflict",
                f"{shown_path} in {file} changed on disk while vora was working "
                f"(it is no longer {_describe_expected(edit.expect[0], edit.path)})",
                "nothing was written; run the command again to apply it to the new content",
            )
        if op == UNSET:
            if is_missing(old):
                if replan:
                    continue  # someone else removed it meanwhile: the intent already holds
                raise VoraError("not_found", f"{shown_path} is not set in {file}",
                                "see what is set with 'vora config get'")
            changes.append(ConfigChange(shown_path, _shown(old, edit.path, doc.value, inner), None, "remove", str(file)))
            doc = doc.unset(inner)
        elif op == SET:
            new_doc = doc.set(inner, edit.value)
            if new_doc is not doc:
                missing = is_missing(old)
                changes.append(ConfigChange(shown_path, None if missing else _shown(old, edit.path, doc.value, inner),
                                            _shown(edit.value, edit.path, new_doc.value, inner),
                                            "add" if missing else "set", str(file)))
            doc = new_doc
        elif op == APPEND:
            doc = _append(doc, edit, inner, old, file, changes)
        elif op == REMOVE:
            doc = _remove(doc, edit, inner, old, file, changes)
        else:  # pragma: no cover - the actions are closed
            raise VoraError("internal", f"unknown config edit action {op!r}")
    return doc, changes


def _append(doc: Json5Document, edit: ConfigEdit, inner: ConfigPath, old: Any, file: Path,
            changes: list[ConfigChange]) -> Json5Document:
    if is_missing(old):
        changes.append(ConfigChange(format_config_path(edit.path), None, _shown([edit.value], edit.path), "add",
                                    str(file)))
        return doc.set(inner, [edit.value])
    if not isinstance(old, list):
        raise VoraError("invalid", f"{format_config_path(edit.path)} in {file} is not an array",
                        f"fix it with '{command_line('vora', 'config', 'set', format_config_path(edit.path), '[]')}' or your editor")
    if any(same_value(element, edit.value) for element in old):
        return doc
    at = (*edit.path, len(old))
    new_doc = doc.set((*inner, len(old)), edit.value)
    changes.append(ConfigChange(format_config_path(at), None, _shown(edit.value, at, new_doc.value, (*inner, len(old))),
                                "add", str(file)))
    return new_doc


def _remove(doc: Json5Document, edit: ConfigEdit, inner: ConfigPath, old: Any, file: Path,
            changes: list[ConfigChange]) -> Json5Document:
    if not isinstance(old, list):
        return doc  # nothing (or no array) there: none of the values is in it
    for i in reversed(range(len(old))):
        if any(same_value(old[i], value) for value in edit.value):
            at = (*edit.path, i)
            changes.append(ConfigChange(format_config_path(at), _shown(old[i], at, doc.value, (*inner, i)), None,
                                        "remove", str(file)))
            doc = doc.unset((*inner, i))
    return doc


def plan_merge_patch(tree: Any, patch: dict[str, Any], written: Any = None) -> list[ConfigEdit]:
    """An RFC 7386 merge patch as edits on `tree`: objects merge, arrays and scalars replace, null deletes.
    `tree` is the merged config (no `$include` keys); `written`, the main file's own tree, tells
    where one is, so that `{"$include": null}` removes it."""
    edits: list[ConfigEdit] = []

    def walk(target: Any, node: dict[str, Any], prefix: ConfigPath) -> None:
        for key, value in node.items():
            path = (*prefix, key)
            present = isinstance(target, dict) and key in target
            if key == INCLUDE_KEY and written is not None:
                present = not is_missing(get_path(written, path))
            current = target.get(key) if present and isinstance(target, dict) else None
            if value is None:
                if present:
                    edits.append(ConfigEdit(path, delete=True))
            elif isinstance(value, dict) and isinstance(current, dict):
                walk(current, value, path)
            else:
                edits.append(ConfigEdit(path, _strip_nulls(value)))

    walk(tree, patch, ())
    return edits


def _strip_nulls(value: Any) -> Any:
    """RFC 7386: a patch object that lands where no object was keeps no null members."""
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    return value
