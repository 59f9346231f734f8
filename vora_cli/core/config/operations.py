"""What `vora config get/set/unset/patch/edit` compute, on top of loading and writing."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.config.keys import default_for, defaults_under, known_paths
from vora_cli.core.config.loading import (
    MAX_CONFIG_BYTES,
    LoadedConfig,
    byte_line_col,
    check_config_size,
    decode_config_bytes,
    get_path,
    is_missing,
    parse_config_text,
    substitute_env,
)
from vora_cli.core.config.value_types import VALUE_TYPES
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.parser import loads as json5_loads
from vora_cli.core.json5.path_syntax import (
    ConfigPath,
    format_config_path,
    parse_config_path,
    resolve_segments,
)
from vora_cli.core.reading import read_bytes
from vora_cli.core.records import dataclass
from vora_cli.core.secrets import (
    MIN_KNOWN_VALUE_LENGTH,
    REDACTED,
    follows_secret_flag,
    is_secret_path,
    order_for_scrub,
    redact,
    redact_string,
    scrub_strings,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO

    from vora_cli.core.config.readback import GatewayCheck
    from vora_cli.core.config.writing import ConfigWriteResult
    from vora_cli.core.install import Install

# Planning, validation and writing are imported by the commands that change the file: `config get`
# (in shell loops and completion) does not pay for them.

# -- paths and values from the command line -----------------------------------------------------


def resolve_cli_path(loaded: LoadedConfig, text: str) -> ConfigPath:
    """Parse a CLI path; a numeric segment is an index only where the node is an array."""
    return resolve_segments(loaded.value, parse_config_path(text))


def set_value(install: Install, path_text: str, value_text: str, *, strict_json: bool = False,
              value_type: str | None = None, dry_run: bool = False,
              gateway: GatewayCheck | None = None) -> ConfigWriteResult:
    """`vora config set`: one read of the config, one planned edit, one locked write. `gateway`:
    how the result meets the gateway's validator (refused by default; `force` writes anyway)."""
    from vora_cli.core.config.planning import ConfigEdit
    from vora_cli.core.config.writing import apply_config_edits

    loaded = install.editable_config
    segments = resolve_cli_path(loaded, path_text)
    value = parse_cli_value(value_text, strict_json=strict_json, value_type=value_type,
                            secret=is_secret_path(segments))
    return apply_config_edits(install, [ConfigEdit(segments, value)], command="config set", dry_run=dry_run,
                              snapshot=loaded, gateway=gateway)


def read_value_from_stdin(stdin: BinaryIO, *, allow_empty: bool = False) -> str:
    """`config set PATH --stdin`: the text on stdin, one trailing newline dropped, parsed exactly
    like VALUE (docs/config.md, "--stdin"). Nothing on stdin (or only blanks) is a usage error
    unless `allow_empty`: it is what a failed command before the pipe sends."""
    from vora_cli.core.inputs import read_stream

    data = read_stream(stdin, MAX_CONFIG_BYTES, "<stdin>")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VoraError("usage", f"the value on stdin is not UTF-8 text (byte {exc.start})",
                        "pipe UTF-8 text into --stdin") from None
    if text.endswith("\r\n"):
        text = text[:-2]
    elif text.endswith("\n"):
        text = text[:-1]
    if not allow_empty and not text.strip():
        raise VoraError("usage", f"stdin is {'empty' if not data else 'blank'}: no value to set, nothing was written "
                        "(did the command before the pipe fail?)",
                        "pipe the value in, or pass --allow-empty to set an empty value on purpose")
    return text


def unset_value(install: Install, path_text: str, *, dry_run: bool = False,
                gateway: GatewayCheck | None = None) -> ConfigWriteResult:
    """`vora config unset`: remove exactly one key or array element (a broken `$include` too)."""
    from vora_cli.core.config.planning import ConfigEdit
    from vora_cli.core.config.writing import apply_config_edits

    loaded = install.editable_config
    segments = resolve_cli_path(loaded, path_text)
    return apply_config_edits(install, [ConfigEdit(segments, delete=True)], command="config unset", dry_run=dry_run,
                              snapshot=loaded, gateway=gateway)


def parse_cli_value(text: str, *, strict_json: bool = False, value_type: str | None = None,
                    secret: bool = False) -> Any:
    """VALUE as JSON5 (falls back to a string); `--strict-json` and `--type` narrow it. An error
    quotes VALUE only when it is not going to a secret path."""
    shown = REDACTED if secret else repr(redact_string(text))
    if value_type is not None and value_type not in VALUE_TYPES:
        raise VoraError("usage", f"unknown --type {value_type!r}",
                        f"use {', '.join(VALUE_TYPES[:-1])} or {VALUE_TYPES[-1]}")
    if value_type == "string":
        return text
    if strict_json or value_type == "json":
        given = "--strict-json" if strict_json else "--type json"  # the flag that asked for JSON

        def not_json(name: str) -> Any:  # Python's json reads NaN and Infinity; RFC 8259 does not
            raise VoraError("usage", f"VALUE is not strict JSON: {name} is JSON5 only",
                            f"write a finite number, or a string such as '\"Infinity\"'; or drop {given}")

        try:
            value = nesting.loads(text, parse_constant=not_json)
        except json.JSONDecodeError as exc:
            raise VoraError("usage", f"VALUE is not strict JSON: {exc.msg} at column {exc.colno}",
                            f"quote strings as JSON (for example '\"text\"'), or drop {given}") from None
    else:
        try:
            value = json5_loads(text, filename="VALUE")
        except VoraError:
            if value_type is not None:
                raise VoraError("usage", f"VALUE {shown} is not {'an' if value_type[0] in 'aeiou' else 'a'} {value_type}", None) from None
            value = text
    if value_type == "boolean" and not isinstance(value, bool):
        raise VoraError("usage", f"VALUE {shown} is not a boolean", "use true or false")
    if value_type == "integer" and (not isinstance(value, int) or isinstance(value, bool)):
        raise VoraError("usage", f"VALUE {shown} is not an integer", None)
    if value_type == "number" and (not isinstance(value, int | float) or isinstance(value, bool)):
        raise VoraError("usage", f"VALUE {shown} is not a number", None)
    return value


# -- get ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GetResult:
    """The value at a path (`vora config get`) and where it came from."""
    path: str
    value: Any
    source: str  # file | default | env
    missing_env: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.path, "value": self.value, "source": self.source}


def _did_you_mean(tree: Any, segments: ConfigPath) -> str | None:
    from vora_cli.core.wording import closest, typo_limit

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
    # a typo is judged by the last key's length: `gateway.prot` may be `gateway.port`, while
    # `agents.defaults.foo` is no typo of `agents.defaults.env`
    last = str(segments[-1]) if segments else wanted
    return closest(wanted, sorted(candidates), limit=typo_limit(last))


def get_effective(install: Install, path_text: str | None, *, reveal: bool = False) -> GetResult:
    """`vora config get`: the effective value at a path (merged, `${VAR}` resolved), or its default."""
    loaded = install.require_config()
    effective = install.effective
    segments: ConfigPath = ()
    if path_text:
        segments = resolve_segments(effective, parse_config_path(path_text))
    shown = format_config_path(segments) if segments else ""
    raw = get_path(loaded.value, segments)
    value = get_path(effective, segments)
    missing = tuple(substitute_env(raw, loaded.runtime_env)[1]) if not is_missing(raw) else ()
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
            f"{shown} is not set in {install.paths.config_path} and has no default",
            f"did you mean {near}?" if near else "see the keys that are set with 'vora config get'",
        )
    source = "file"
    if is_missing(raw) or (isinstance(raw, str) and raw != value):
        source = "env"
    if not reveal:
        value = redact(value, segments, said=follows_secret_flag(effective, segments))
        # a number or a boolean holds no text: the install's secrets are gathered only for one that does
        if isinstance(value, str | dict | list) and (
                secrets := [s for s in install.secret_values if len(s.strip()) >= MIN_KNOWN_VALUE_LENGTH]):
            value = scrub_strings(value, order_for_scrub(secrets))
    return GetResult(shown, value, source, missing)


# -- patch --------------------------------------------------------------------------------------


def read_patch(name: str, stdin: BinaryIO | None) -> Any:
    """The merge patch in file `name`, or in `stdin` (`-`): a pipe, `/dev/stdin` and `<(…)` work
    as files do; at most MAX_CONFIG_BYTES either way."""
    from vora_cli.core.inputs import read_input_bytes, read_stream

    if stdin is not None:
        label = "<stdin>"
        data = read_stream(stdin, MAX_CONFIG_BYTES, label)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line, col = byte_line_col(data, exc.start)
            raise VoraError("invalid", f"{label}:{line}:{col}: the patch on stdin is not valid UTF-8 "
                                       f"(byte 0x{data[exc.start]:02x})",
                            "send the patch as UTF-8 text (for example: iconv -t UTF-8 patch.json5 | vora config patch -)") \
                from None
    else:
        label = name
        found = read_input_bytes(Path(name), MAX_CONFIG_BYTES)
        if found is None:
            raise VoraError("not_found", f"patch file {name} does not exist", "pass an existing file, or - for stdin")
        text = decode_config_bytes(found, Path(name), included=True)
    if not text.strip():
        # the same rule as `config set --stdin`: a failed command before the pipe sends nothing
        raise VoraError("usage", f"{label} is empty: no merge patch, nothing was written",
                        "the empty patch is {} (JSON5); did the command before the pipe fail?")
    patch = json5_loads(text, filename=label)
    if not isinstance(patch, dict):
        raise VoraError("invalid", f"{label}: a merge patch must be an object", "for example: {gateway: {port: 18790}}")
    return patch


def apply_patch(install: Install, patch: dict[str, Any], *, dry_run: bool = False,
                gateway: GatewayCheck | None = None) -> ConfigWriteResult:
    """`vora config patch`: an RFC 7386 merge patch, planned on one read, in one write."""
    from vora_cli.core.config.planning import plan_merge_patch
    from vora_cli.core.config.writing import apply_config_edits

    loaded = install.editable_config
    return apply_config_edits(install, plan_merge_patch(loaded.value, patch, loaded.main.value), command="config patch",
                              dry_run=dry_run, snapshot=loaded, gateway=gateway)


# -- edit ---------------------------------------------------------------------------------------


FALLBACK_EDITORS = ("vi", "nano")


def _editor_command(install: Install) -> list[str]:
    import shlex
    import shutil

    resolved = install.settings.resolve("editor")  # $VISUAL > $EDITOR > the `editor` setting
    editor = resolved.value
    if not editor:
        # As git does: vi when nothing is set, nano where there is no vi (docs/terminal.md).
        editor = next((name for name in FALLBACK_EDITORS if shutil.which(name)), None)
        if editor is None:
            raise VoraError("usage", "no editor: $VISUAL and $EDITOR are not set (nor the editor setting), "
                                     f"and none of {', '.join(FALLBACK_EDITORS)} is on PATH",
                            "for example: EDITOR=nano vora config edit, or vora settings set editor nano")
    # name where the editor came from: $VISUAL, $EDITOR or the settings file
    if resolved.source == "env":
        where, fix = f"${resolved.origin}", f"set {resolved.origin} to an installed editor"
    else:
        where, fix = f"the editor setting in {resolved.origin}", "vora settings set editor NAME (an installed editor)"
    try:
        argv = shlex.split(editor)
    except ValueError as exc:  # `EDITOR='code --wait "'`: a quote left open
        raise VoraError("usage", f"editor {editor!r} (from {where}) is not a command line: {exc}", fix) from None
    if not argv or not shutil.which(argv[0]):
        raise VoraError("not_found", f"editor {(argv or [''])[0]!r} (from {where}) is not on PATH", fix)
    return argv


def edit_config(install: Install, *, reopen: Callable[[str], bool],
                gateway: GatewayCheck | None = None, editor_output: int | None = None) -> ConfigWriteResult:
    """Open a copy in $EDITOR; write it back only when it parses and its known keys are valid.
    `editor_output`: the file descriptor the editor writes to (None: vora's own stdout)."""
    # Only `config edit` needs these; `doctor` and `config validate` should not pay for them.
    import shutil
    import subprocess
    import tempfile

    from vora_cli.core.config.validation import validate_tree
    from vora_cli.core.config.writing import write_config_text

    paths = install.paths
    argv = _editor_command(install)
    original = read_bytes(paths.config_path)
    if original is not None:
        check_config_size(original, paths.config_path)
    workdir = Path(tempfile.mkdtemp(prefix="vora-edit-"))
    copy = workdir / paths.config_path.name
    # The bytes as they are: a file that is not UTF-8 is fixed in the editor, like any other
    # that does not parse (the hint of every parse error sends the operator here).
    starting = original if original is not None else b"{\n}\n"
    copy.write_bytes(starting)
    os.chmod(copy, 0o600)
    while True:
        try:
            status = subprocess.run([*argv, str(copy)], check=False, stdout=editor_output).returncode
        except OSError as exc:
            raise VoraError("external", f"cannot run editor {argv[0]!r}: {exc.strerror}", None) from exc
        if status != 0:
            if copy.read_bytes() == starting:
                shutil.rmtree(workdir, ignore_errors=True)  # nothing of the operator's to keep
                raise VoraError("external", f"the editor exited with status {status}; nothing was written", None)
            raise VoraError("external", f"the editor exited with status {status}; nothing was written",
                            f"your copy is kept at {copy}")
        edited = copy.read_bytes()
        try:
            # Errors name vora.json (the file the operator knows), at the line the editor shows.
            new_text = decode_config_bytes(edited, paths.config_path)
            doc = parse_config_text(new_text, paths.config_path)
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
    result = write_config_text(install, new_text, expected=original, command="config edit", gateway=gateway)
    shutil.rmtree(workdir, ignore_errors=True)
    return result


