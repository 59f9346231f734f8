"""`vora config`: read and edit vora.json without losing a comment (spec config.md)."""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from vora_cli.cli.common import (
    DryRunOption,
    JsonOption,
    RevealOption,
    add_command,
    command_group,
    install_of,
    output,
)
from vora_cli.cli.groups import GROUP_HELP
from vora_cli.cli.output import Output, stdin_is_interactive, stdout_is_terminal, to_json
from vora_cli.core.config.value_types import VALUE_TYPES

if TYPE_CHECKING:
    from vora_cli.core.config.writing import ConfigWriteResult

app = command_group(GROUP_HELP["config"])

PathArg = Annotated[str, typer.Argument(help="Config path: agents.defaults.workspace, agents.list[0].id, "
                                             'plugins.entries["my.plugin"].enabled, a.b\\.c')]


def config_file(ctx: typer.Context, json: JsonOption = False) -> None:
    """Print the resolved config file path (and, with --json, where it came from)."""
    install = install_of(ctx)
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

    output(ctx, json).emit(payload, human)


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


def config_get(
    ctx: typer.Context,
    path: Annotated[str | None, typer.Argument(help="Config path (omit for the whole config).")] = None,
    reveal: RevealOption = False,
    json: JsonOption = False,
) -> None:
    """Print the effective value at PATH (includes merged, ${VAR} resolved, defaults marked).

    Piped or redirected, the value is printed as stored; on a terminal, control characters in it
    are shown as escapes (\x1b) so a value cannot drive the terminal.
    """
    from vora_cli.core.config.operations import get_effective

    out = output(ctx, json)
    result = get_effective(install_of(ctx), path, reveal=reveal)
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

    out.emit(result.to_dict(), human)


def _report_write(out: Output, result: ConfigWriteResult, *, show_diff: bool) -> None:
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

    out.emit(result.to_dict, human)


def config_set(
    ctx: typer.Context,
    path: PathArg,
    value: Annotated[str | None, typer.Argument(
        help="The value, parsed as JSON5 (falls back to a string). Omit with --stdin.", show_default=False)] = None,
    from_stdin: Annotated[bool, typer.Option(
        "--stdin", help="Read the value from stdin (keeps secrets out of shell history); parsed like VALUE.")] = False,
    allow_empty: Annotated[bool, typer.Option(
        "--allow-empty", help="With --stdin: an empty stdin sets an empty value (else it is a usage error).")] = False,
    strict_json: Annotated[bool, typer.Option("--strict-json", help="VALUE must be strict JSON.")] = False,
    value_type: Annotated[
        str | None, typer.Option("--type", metavar="TYPE", help=f"Force the type: {', '.join(VALUE_TYPES)}.")
    ] = None,
    dry_run: DryRunOption = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Write even what the gateway's validator refuses (a warning says the gateway will not start).")] = False,
    json: JsonOption = False,
) -> None:
    """Set one value, rewriting only its own text in the file."""
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
            output(ctx, json).note("Reading the value from the terminal; end with Ctrl-D.")
        value = read_value_from_stdin(sys.stdin.buffer, allow_empty=allow_empty)
    install = install_of(ctx)
    result = set_value(install, path, value, strict_json=strict_json, value_type=value_type, dry_run=dry_run,
                       gateway=gateway_check(install, force=force))
    _report_write(output(ctx, json), result, show_diff=False)


def config_unset(
    ctx: typer.Context,
    path: PathArg,
    dry_run: DryRunOption = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Write even what the gateway's validator refuses (a warning says the gateway will not start).")] = False,
    json: JsonOption = False,
) -> None:
    """Remove exactly one key or array element (and its own comment)."""
    from vora_cli.core.config.operations import unset_value
    from vora_cli.core.plugins.facts import gateway_check

    install = install_of(ctx)
    result = unset_value(install, path, dry_run=dry_run, gateway=gateway_check(install, force=force))
    _report_write(output(ctx, json), result, show_diff=False)


def config_patch(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help="A JSON5 merge patch file (a pipe, /dev/stdin, <(...) too), or - for stdin.")],
    dry_run: DryRunOption = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Write even what the gateway's validator refuses (a warning says the gateway will not start).")] = False,
    json: JsonOption = False,
) -> None:
    """Apply a JSON5 merge patch (objects merge, arrays and scalars replace, null deletes) in one write."""
    from vora_cli.core.config.operations import apply_patch, read_patch
    from vora_cli.core.plugins.facts import gateway_check

    install = install_of(ctx)
    patch = read_patch(file, sys.stdin.buffer if file == "-" else None)
    result = apply_patch(install, patch, dry_run=dry_run, gateway=gateway_check(install, force=force))
    _report_write(output(ctx, json), result, show_diff=False)


def config_validate(
    ctx: typer.Context,
    strict: Annotated[bool, typer.Option("--strict", help="vora's own warnings (keys it checks more strictly than the gateway) are errors too.")] = False,
    json: JsonOption = False,
) -> int:
    """Check the config as the gateway does (its schema, its rules, each plugin's configSchema); exit 1 when invalid."""
    from vora_cli.core.plugins.facts import validate_install_config

    report = validate_install_config(install_of(ctx), strict=strict)

    def human(o: Output) -> None:
        for p in report.problems:
            o.line(p.line_text())
        if report.valid:
            extra = f" ({len(report.problems)} warning(s))" if report.problems else ""
            o.line(f"{report.path}: valid{extra}")
        else:
            o.line(f"{report.path}: invalid: {report.error_count} error(s), {report.warning_count} warning(s)")

    return output(ctx, json).emit(report.to_dict(), human, failed=not report.valid)


def config_schema(ctx: typer.Context, json: JsonOption = False) -> None:
    """Print the JSON Schema of the keys vora knows."""
    from vora_cli.core.config.keys import json_schema

    schema = json_schema()

    def human(o: Output) -> None:
        o.paged(to_json(schema) + "\n")

    output(ctx, json).emit(schema, human)


def config_edit(ctx: typer.Context,
    force: Annotated[bool, typer.Option(
        "--force", help="Write even what the gateway's validator refuses (a warning says the gateway will not start).")] = False,
                json: JsonOption = False) -> None:
    """Open vora.json in $EDITOR; on save, validate and write it back (never an invalid file)."""
    from vora_cli.core.config.operations import edit_config
    from vora_cli.core.plugins.facts import gateway_check

    out = output(ctx, json)

    def ask_reopen(message: str) -> bool:
        if json or not stdin_is_interactive():
            return False
        out.warn(message)
        return out.confirm("Reopen the editor to fix it?", yes=False)

    install = install_of(ctx)
    result = edit_config(install, reopen=ask_reopen, gateway=gateway_check(install, force=force))
    _report_write(out, result, show_diff=True)


add_command(app, "file", config_file, examples=("vora --profile work config file --json",))
add_command(app, "get", config_get, examples=(
    "vora config get gateway.port",
    "vora config get plugins.slots --json",
))
add_command(app, "set", config_set, examples=(
    "vora config set agents.defaults.bootstrapMaxChars 30000",
    "vora config set plugins.allow '[\"my-engine\"]'",
    "vora config set gateway.mode local --dry-run",
    "secret-tool lookup service vora | vora config set gateway.auth.token --stdin --type string",
))
add_command(app, "unset", config_unset, examples=("vora config unset plugins.entries.old-engine",))
add_command(app, "patch", config_patch, examples=(
    "echo '{plugins: {slots: {memory: \"none\"}}}' | vora config patch -",
    "vora config patch <(jq -n '{gateway: {port: 18790}}')",
))
add_command(app, "validate", config_validate, examples=("vora config validate --strict --json",))
add_command(app, "schema", config_schema, examples=("vora config schema > vora.schema.json",))
add_command(app, "edit", config_edit, examples=("EDITOR=nano vora config edit",))
