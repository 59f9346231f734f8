"""`vora config`: read and edit vora.json without losing a comment (spec config.md)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from vora_cli.cli.clickcompat import app_state
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
from vora_cli.cli.hot import config as hot
from vora_cli.cli.json_text import to_json
from vora_cli.cli.output import Output, stdin_is_interactive
from vora_cli.core.config.value_types import VALUE_TYPES

app = command_group(GROUP_HELP["config"])

PathArg = Annotated[str, typer.Argument(help="Config path: agents.defaults.workspace, agents.list[0].id, "
                                             'plugins.entries["my.plugin"].enabled, a.b\\.c')]


def config_file(ctx: typer.Context, json: JsonOption = False) -> int:
    """Print the resolved config file path (and, with --json, where it came from)."""
    return hot.config_file(app_state(ctx), json=json)


def config_get(
    ctx: typer.Context,
    path: Annotated[str | None, typer.Argument(help="Config path (omit for the whole config).")] = None,
    reveal: RevealOption = False,
    json: JsonOption = False,
) -> int:
    """Print the effective value at PATH (includes merged, ${VAR} resolved, defaults marked).

    Piped or redirected, the value is printed as stored; on a terminal, control characters in it
    are shown as escapes (\x1b) so a value cannot drive the terminal.
    """
    return hot.config_get(app_state(ctx), path=path, reveal=reveal, json=json)


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
) -> int:
    """Set one value, rewriting only its own text in the file."""
    return hot.config_set(app_state(ctx), path=path, value=value, from_stdin=from_stdin, allow_empty=allow_empty,
                          strict_json=strict_json, value_type=value_type, dry_run=dry_run, force=force, json=json)


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
    hot.report_write(output(ctx, json), result, show_diff=False)


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
    hot.report_write(output(ctx, json), result, show_diff=False)


def config_validate(
    ctx: typer.Context,
    strict: Annotated[bool, typer.Option("--strict", help="vora's own warnings (keys it checks more strictly than the gateway) are errors too.")] = False,
    json: JsonOption = False,
) -> int:
    """Check the config as the gateway does (its schema, its rules, each plugin's configSchema); exit 1 when invalid."""
    return hot.config_validate(app_state(ctx), strict=strict, json=json)


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
    hot.report_write(out, result, show_diff=True)


add_command(app, "file", config_file, body=hot.config_file, examples=("vora --profile work config file --json",))
add_command(app, "get", config_get, body=hot.config_get, examples=(
    "vora config get gateway.port",
    "vora config get plugins.slots --json",
))
add_command(app, "set", config_set, body=hot.config_set, examples=(
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
add_command(app, "validate", config_validate, body=hot.config_validate, examples=("vora config validate --strict --json",))
add_command(app, "schema", config_schema, examples=("vora config schema > vora.schema.json",))
add_command(app, "edit", config_edit, examples=("EDITOR=nano vora config edit",))
