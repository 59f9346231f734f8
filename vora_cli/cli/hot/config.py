"""The bodies of `vora config file/get/set/validate`, and the write report the other config commands share."""

from __future__ import annotations

import math
import sys

from vora_cli.cli.json_text import to_json
from vora_cli.cli.output import Output, stdin_is_interactive, stdout_is_terminal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.cli.invocation import AppState
    from vora_cli.core.config.writing import ConfigWriteResult


def config_file(state: AppState, *, json: bool) -> int:
    install = state.install
    paths = install.paths
    payload = {
        "path": str(paths.config_path),
        "source": paths.config_source,
        "exists": paths.config_path.exists(),
        "stateDir": str(paths.state_dir),
        "stateDirSource": paths.state_dir_source,
        "profile": paths.profile,
        "profileSource": paths.profile_source,
        "settingsFile": str(install.settings.path),
    }

    def human(out: Output) -> None:
        out.line(str(paths.config_path))

    return state.output(json).emit(payload, human)


def _scalar_text(value: Any) -> str:
    """How `get` prints a value: a scalar raw, an object or array as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        from vora_cli.core.strict_json import non_finite_text

        return non_finite_text(value)
    return to_json(value)


def _inline(value: Any) -> str:
    """A value inside a one-line change message."""
    import json as _json

    return value if isinstance(value, str) else _json.dumps(value, ensure_ascii=False)


def config_get(state: AppState, *, path: str | None, reveal: bool, json: bool) -> int:
    from vora_cli.core.config.operations import get_effective

    out = state.output(json)
    result = get_effective(state.install, path, reveal=reveal)
    for name in result.missing_env:
        out.warn(f"${{{name}}} is not set in the environment; the text stays as written")

    def human(o: Output) -> None:
        text = _scalar_text(result.value)
        if stdout_is_terminal():
            o.line(text)  # control characters shown as \x1b: a value cannot drive the terminal
        else:
            o.text(text + "\n")  # a script gets the stored value, byte for byte
        if result.source == "default":
            o.note(f"({result.path} is not set; this is the default)")
        elif result.source == "env":
            o.note(f"({result.path} comes from the environment)")

    return out.emit(result.to_dict(), human)


def report_write(out: Output, result: ConfigWriteResult, *, show_diff: bool) -> int:
    """What a config write did: the changes (and the diff), then `Wrote FILE` on stderr."""
    def human(o: Output) -> None:
        if not result.changed:
            o.line("No change")
            return
        if show_diff or result.dry_run:
            for f in result.files:
                o.text(f.diff)
        for change in result.changes:
            if change.action == "remove":
                o.line(f"Removed {change.path} (was {_inline(change.old)})")
            elif change.action == "add":
                o.line(f"Set {change.path}: {_inline(change.new)}")
            else:
                o.line(f"Updated {change.path}: {_inline(change.old)} -> {_inline(change.new)}")
        for warning in result.warnings:
            o.warn(warning)
        if result.dry_run:
            o.note("Dry run: nothing was written.")
        else:
            for f in result.files:
                backup = f" (backup: {f.backup})" if f.backup else ""
                o.note(f"Wrote {f.path}{backup}")

    return out.emit(result.to_dict, human)


def config_set(state: AppState, *, path: str, value: str | None, from_stdin: bool, allow_empty: bool,
               strict_json: bool, value_type: str | None, dry_run: bool, force: bool, json: bool) -> int:
    from vora_cli.core.config.operations import read_value_from_stdin, set_value
    from vora_cli.core.errors import VoraError
    from vora_cli.core.plugins.facts import gateway_check

    if from_stdin and value is not None:
        raise VoraError("usage", "VALUE and --stdin both give the value", "pass one: VALUE, or --stdin")
    if allow_empty and not from_stdin:
        raise VoraError("usage", "--allow-empty goes with --stdin", "for an empty string as VALUE, pass '\"\"'")
    if value is None:
        if not from_stdin:
            raise VoraError("usage", "missing VALUE", f"vora config set {path} VALUE, or pipe it: ... | vora config set {path} --stdin")
        if stdin_is_interactive():
            state.output(json).note("Reading the value from the terminal; end with Ctrl-D.")
        value = read_value_from_stdin(sys.stdin.buffer, allow_empty=allow_empty)
    install = state.install
    result = set_value(install, path, value, strict_json=strict_json, value_type=value_type, dry_run=dry_run,
                       gateway=gateway_check(install, force=force))
    return report_write(state.output(json), result, show_diff=False)


def config_validate(state: AppState, *, strict: bool, json: bool) -> int:
    from vora_cli.core.plugins.facts import validate_install_config

    report = validate_install_config(state.install, strict=strict)

    def human(o: Output) -> None:
        for p in report.problems:
            o.line(p.line_text())
        if report.valid:
            extra = f" ({len(report.problems)} warning(s))" if report.problems else ""
            o.line(f"{report.path}: valid{extra}")
        else:
            o.line(f"{report.path}: invalid: {report.error_count} error(s), {report.warning_count} warning(s)")

    return state.output(json).emit(report.to_dict(), human, failed=not report.valid)
