"""`vora config set`: one value, rewriting only its own text in the file."""

from __future__ import annotations

import sys

from vora_cli.cli.commands.config._report import report_write
from vora_cli.cli.declare import command
from vora_cli.cli.output import stdin_is_interactive
from vora_cli.core.config.value_types import VALUE_TYPES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.config._options import ForceOption, PathArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption


@command("set", hot=True, examples=(
    "vora config set agents.defaults.bootstrapMaxChars 30000",
    "vora config set plugins.allow '[\"my-engine\"]'",
    "vora config set gateway.mode local --dry-run",
    "secret-tool lookup service vora | vora config set gateway.auth.token --stdin --type string",
))
def config_set(
    state: AppState,
    path: PathArgument,
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
    force: ForceOption = False,
    json: JsonOption = False,
) -> int:
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
            state.output(json).note("Reading the value from the terminal; end with Ctrl-D.")
        value = read_value_from_stdin(sys.stdin.buffer, allow_empty=allow_empty)
    install = state.install
    result = set_value(install, path, value, strict_json=strict_json, value_type=value_type, dry_run=dry_run,
                       gateway=gateway_check(install, force=force))
    return report_write(state.output(json), result, show_diff=False)
