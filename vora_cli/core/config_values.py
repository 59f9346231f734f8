"""What `vora config get/set/unset/patch/validate/edit` compute, on top of `core.config`."""

from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from vora_cli.core.config import (
    ConfigEdit,
    ConfigPath,
    ConfigWriteResult,
    LoadedConfig,
    decode_config_bytes,
    get_path,
    is_missing,
    load_config,
    locate_owner,
    parse_config_text,
    substitute_env,
    write_config_text,
)
from vora_cli.core.config_path import format_config_path, parse_config_path, resolve_segments
from vora_cli.core.config_schema import (
    default_for,
    defaults_under,
    known_paths,
    redact,
    validate_tree,
)
from vora_cli.core.errors import VoraError
from vora_cli.core.json5doc import loads as json5_loads
from vora_cli.core.paths import VoraPaths
from vora_cli.core.writer import read_bytes

# -- paths and values from the command line -----------------------------------------------------


def resolve_cli_path(paths: VoraPaths, text: str) -> ConfigPath:
    """Parse a CLI path; a numeric segment is an index only where the node is an array."""
    segments = parse_config_path(text)
    tree = load_config(paths).value
    return resolve_segments(tree, segments)


def parse_cli_value(text: str, *, strict_json: bool = False, value_type: str | None = None) -> Any:
    """VALUE as JSON5 (falls back to a string); `--strict-json` and `--type` narrow it."""
    if value_type is not None and value_type not in ("string", "number", "integer", "boolean", "json"):
        raise VoraError("usage", f"unknown --type {value_type!r}", "use string, number, integer, boolean or json")
    if value_type == "string":
        return text
    if strict_json or value_type == "json":
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise VoraError("usage", f"VALUE is not strict JSON: {exc.msg} at column {exc.colno}",
                            "quote strings as JSON (for example '\"text\"'), or drop --strict-json") from None
    else:
        try:
            value = json5_loads(text, filename="VALUE")
        except VoraError:
            if value_type is not None:
                raise VoraError("usage", f"VALUE {text!r} is not a {value_type}", None) from None
            value = text
    if value_type == "boolean" and not isinstance(value, bool):
        raise VoraError("usage", f"VALUE {text!r} is not a boolean", "use true or false")
    if value_type == "integer" and (not isinstance(value, int) or isinstance(value, bool)):
        raise VoraError("usage", f"VALUE {text!r} is not an integer", None)
    if value_type == "number" and (not isinstance(value, int | float) or isinstance(value, bool)):
        raise VoraError("usage", f"VALUE {text!r} is not a number", None)
    return value


# -- get ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GetResult:
    path: str
    value: Any
    source: str  # file | default | env
    missing_env: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "value": self.value, "source": self.source}


def _did_you_mean(tree: Any, segments: ConfigPath) -> str | None:
    candidates = set(known_paths())

    def walk(node: Any, prefix: ConfigPath, depth: int) -> None:
        if depth > 6:
            return
        if isinstance(node, dict):
            for key, child in node.items():
                candidates.add(format_config_path((*prefix, key)))
                walk(child, (*prefix, key), depth + 1)

    walk(tree, (), 0)
    wanted = format_config_path(segments)
    candidates.discard(wanted)
    near = difflib.get_close_matches(wanted, sorted(candidates), n=1, cutoff=0.75)
    return near[0] if near else None


def get_effective(paths: VoraPaths, path_text: str | None, *, reveal: bool = False) -> GetResult:
    loaded = load_config(paths)
    effective = loaded.effective
    segments: ConfigPath = ()
    if path_text:
        segments = resolve_segments(effective, parse_config_path(path_text))
    shown = format_config_path(segments) if segments else ""
    raw = get_path(loaded.value, segments)
    value = get_path(effective, segments)
    missing = tuple(substitute_env(raw, loaded.env)[1]) if not is_missing(raw) else ()
    if is_missing(value):
        has_default, default = default_for(segments)
        if has_default:
            return GetResult(shown, default, "default")
        nested = defaults_under(segments) if segments else {}
        if nested:  # an unset object whose known keys have defaults (plugins.slots)
            return GetResult(shown, nested, "default")
        near = _did_you_mean(effective, segments)
        raise VoraError(
            "not_found",
            f"{shown} is not set in {paths.config_path} and has no default",
            f"did you mean {near}?" if near else "see the keys that are set with 'vora config get'",
        )
    source = "file"
    if is_missing(raw) or (isinstance(raw, str) and raw != value):
        source = "env"
    if not reveal:
        value = redact(value, segments)
    return GetResult(shown, value, source, missing)


# -- patch --------------------------------------------------------------------------------------


def read_patch(name: str, stdin: IO[str] | None) -> Any:
    if stdin is not None:
        text, label = stdin.read(), "<stdin>"
    else:
        data = read_bytes(Path(name))
        if data is None:
            raise VoraError("not_found", f"patch file {name} does not exist", None)
        text, label = decode_config_bytes(data, Path(name)), name
    patch = json5_loads(text, filename=label)
    if not isinstance(patch, dict):
        raise VoraError("invalid", f"{label}: a merge patch must be an object", "for example: {gateway: {port: 18790}}")
    return patch


def patch_to_edits(paths: VoraPaths, patch: dict[str, Any]) -> list[ConfigEdit]:
    """RFC 7386 merge patch as edits: objects merge, arrays and scalars replace, null deletes."""
    tree = load_config(paths).value
    edits: list[ConfigEdit] = []

    def walk(target: Any, node: dict[str, Any], prefix: ConfigPath) -> None:
        for key, value in node.items():
            path = (*prefix, key)
            current = target.get(key) if isinstance(target, dict) else None
            present = isinstance(target, dict) and key in target
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
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    return value


# -- validate -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    severity: str  # error | warn
    file: str
    line: int | None
    col: int | None
    path: str
    message: str
    expected: str | None = None
    found: str | None = None
    suggestion: str | None = None

    def line_text(self) -> str:
        where = self.file + (f":{self.line}:{self.col}" if self.line else "")
        text = f"{where}: {self.severity}: {self.path + ': ' if self.path else ''}{self.message}"
        if self.expected:
            text += f": expected {self.expected}"
        if self.found:
            text += f", found {self.found}"
        if self.suggestion:
            text += f" (did you mean {self.suggestion}?)"
        return text


@dataclass(frozen=True)
class ValidationReport:
    path: str
    problems: tuple[Problem, ...] = field(default_factory=tuple)
    strict: bool = False

    @property
    def error_count(self) -> int:
        return sum(1 for p in self.problems if p.severity == "error")

    @property
    def warning_count(self) -> int:
        return sum(1 for p in self.problems if p.severity == "warn")

    @property
    def valid(self) -> bool:
        return self.error_count == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "path": self.path,
            "strict": self.strict,
            "errors": self.error_count,
            "warnings": self.warning_count,
            "problems": [
                {"severity": p.severity, "file": p.file, "line": p.line, "col": p.col, "path": p.path,
                 "message": p.message, "expected": p.expected, "found": p.found, "suggestion": p.suggestion}
                for p in self.problems
            ],
        }


def validate_config(paths: VoraPaths, *, strict: bool = False) -> ValidationReport:
    """Syntax, `$include`s and the known keys, with positions; never raises for a bad file."""
    file = str(paths.config_path)
    try:
        loaded = load_config(paths)
    except VoraError as error:
        # Parse errors read "FILE:LINE:COL: what"; keep the position as data too.
        m = re.match(r"^(.*?):(\d+):(\d+): (.*)$", error.message, re.DOTALL)
        if m:
            problem = Problem("error", m.group(1), int(m.group(2)), int(m.group(3)), "", m.group(4))
        else:
            problem = Problem("error", file, None, None, "", error.message)
        return ValidationReport(file, (problem,), strict)
    problems = validation_problems(loaded)
    if strict:  # --strict: an unknown key is an error, and says so
        problems = [replace(p, severity="error") if p.severity == "warn" and p.message == "unknown key" else p
                    for p in problems]
    return ValidationReport(file, tuple(problems), strict)


def validation_problems(loaded: LoadedConfig) -> list[Problem]:
    """The known-key problems of a loaded config, each with its file:line:col (also `vora doctor`)."""
    file = str(loaded.path)
    problems: list[Problem] = []
    for sp in validate_tree(loaded.value):
        owner_file, inner = file, sp.path
        line = col = None
        try:
            owner, inner = locate_owner(loaded, sp.path)
            owner_file = str(owner)
            cf = loaded.file_for(owner)
            if cf is not None and cf.doc is not None:
                pos = cf.doc.get_node_position(inner)
                if pos:
                    line, col = pos
        except VoraError:
            pass
        # `found` of a secret path is already redacted by validate_tree.
        problems.append(Problem(sp.severity, owner_file, line, col, format_config_path(sp.path), sp.message,
                                sp.expected, sp.found, sp.suggestion and _sibling_path(sp.path, sp.suggestion)))
    for name in loaded.missing_env_vars():
        problems.append(Problem("warn", file, None, None, "", f"${{{name}}} is not set in the environment"))
    problems.sort(key=lambda p: (p.file != file, p.file, p.line or 0, p.col or 0))
    return problems


def _sibling_path(path: ConfigPath, name: str) -> str:
    return format_config_path((*path[:-1], name))


# -- edit ---------------------------------------------------------------------------------------


def _editor_command() -> list[str]:
    import shlex
    import shutil

    from vora_cli.core.settings import resolve_setting

    editor = resolve_setting("editor").value  # $VISUAL > $EDITOR > the `editor` setting
    if not editor:
        raise VoraError("usage", "no editor: $EDITOR is not set (nor the editor setting)",
                        "for example: EDITOR=nano vora config edit, or vora settings set editor nano")
    argv = shlex.split(editor)
    if not shutil.which(argv[0]):
        raise VoraError("not_found", f"editor {argv[0]!r} (from $EDITOR) is not on PATH", "set EDITOR to an installed editor")
    return argv


def edit_config(paths: VoraPaths, *, reopen: Callable[[str], bool]) -> ConfigWriteResult:
    """Open a copy in $EDITOR; write it back only when it parses and its known keys are valid."""
    # Only `config edit` needs these; `doctor` and `config validate` should not pay for them.
    import shutil
    import subprocess
    import tempfile

    argv = _editor_command()
    original = read_bytes(paths.config_path)
    text = decode_config_bytes(original, paths.config_path) if original is not None else "{\n}\n"
    workdir = Path(tempfile.mkdtemp(prefix="vora-edit-"))
    copy = workdir / paths.config_path.name
    copy.write_text(text, encoding="utf-8", newline="")
    os.chmod(copy, 0o600)
    while True:
        try:
            status = subprocess.run([*argv, str(copy)], check=False).returncode
        except OSError as exc:
            raise VoraError("external", f"cannot run editor {argv[0]!r}: {exc.strerror}", None) from exc
        if status != 0:
            raise VoraError("external", f"the editor exited with status {status}; nothing was written",
                            f"your copy is kept at {copy}")
        edited = copy.read_bytes()
        try:
            new_text = decode_config_bytes(edited, copy)
            doc = parse_config_text(new_text, copy)
            errors = [p for p in validate_tree(doc.value) if p.severity == "error"]
            if errors:
                first = errors[0]
                raise VoraError("invalid", f"{format_config_path(first.path)} must be {first.expected}, "
                                           f"not {first.found}", None)
        except VoraError as error:
            if reopen(f"{error.message}; nothing was written"):
                continue
            raise VoraError(error.code if error.code != "conflict" else "invalid",
                            f"{error.message}; nothing was written",
                            f"your edited copy is kept at {copy}") from None
        break
    result = write_config_text(paths, new_text, expected=original, command="config edit")
    shutil.rmtree(workdir, ignore_errors=True)
    return result


