"""What every command shares: the `--json` option, the run's install and output (in `ctx.obj`),
and the one way commands and groups are put together (`command_group`, `add_command`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from vora_cli.cli.check_options import FORMATS
from vora_cli.cli.clickcompat import JsonOnlyCommand, VoraCommand, VoraSubgroup, run_of, with_examples
from vora_cli.cli.output import Output

if TYPE_CHECKING:
    from vora_cli.core.install import Install


def _json_option(ctx: typer.Context, value: bool) -> bool:
    """`--json` records JSON mode for the whole run, and is on when the root's `--json` was given.

    Eager, so it is recorded before any other option or argument of its command can fail.
    """
    run = run_of(ctx)
    if value:
        run.json_mode = True
    return run.json_mode


JsonOption = Annotated[bool, typer.Option(
    "--json", help="Print exactly one JSON document on stdout, errors included.", is_eager=True, callback=_json_option
)]
DryRunOption = Annotated[
    bool, typer.Option("--dry-run", help="Run every check a real write runs, show the change, write nothing.")
]
NoHeadersOption = Annotated[
    bool, typer.Option("--no-headers", help="Leave out the header row and title (for awk and cut).")
]
YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Proceed without asking (for scripts).")]
RevealOption = Annotated[bool, typer.Option("--reveal", help="Show secrets (tokens, passwords) instead of <redacted>.")]

# -- the check engine's commands (`vora doctor`, `vora security audit`): formats and id lists --------

def _format_option(ctx: typer.Context, value: str | None) -> str | None:
    """`--format json` is `--json`: recorded first, so even a usage error comes out as JSON."""
    if value == "json":
        run_of(ctx).json_mode = True
    return value


# `--only` / `--skip` of the check runners (doctor, security audit): the same words in both
OnlyOption = Annotated[
    list[str] | None, typer.Option("--only", metavar="ID", help="Run only these checks (repeat, or a,b).")
]
SkipOption = Annotated[
    list[str] | None, typer.Option("--skip", metavar="ID", help="Leave these checks out (repeat, or a,b).")
]
FormatOption = Annotated[str | None, typer.Option(
    "--format", metavar="|".join(FORMATS), is_eager=True, callback=_format_option,
    help="Output: text (default), json (= --json), github (workflow annotations), junit (XML), sarif (2.1.0).",
)]


def command_group(help: str, *, no_args_is_help: bool = True, one_command: bool = False) -> typer.Typer:
    """A command group (`vora plugins`): its commands are added with `add_command`.

    A group of one command is that command (`vora doctor`) unless `one_command` keeps it a group
    (`vora security audit`: more commands may join it)."""
    group = typer.Typer(cls=VoraSubgroup, help=help, no_args_is_help=no_args_is_help)
    if one_command:
        group.callback()(_no_group_options)
    return group


def _no_group_options() -> None:
    """The group itself takes no options; its command does the work."""


def add_command(
    group: typer.Typer,
    name: str,
    function: Callable[..., Any],
    *,
    examples: Sequence[str] = (),
    epilog: str | None = None,
    help: str | None = None,
    hidden: bool = False,
    json_only: bool = False,
    body: Callable[..., Any] | None = None,
) -> None:
    """Register a plain function as the command `name` of `group` (the one registration style).

    `examples`: whole command lines, printed one per line after the help (and in the reference);
    `epilog`: prose after the help. `json_only`: the command's whole output is JSON (`vora
    context json`), its errors too. `body`: the command's Typer-free body (`cli/hot/`), which `function`
    calls with the run's `AppState` and its own values; it makes the command hot: the fast dispatch
    (`cli/dispatch.py`) answers it without importing Typer.
    """
    cls = with_examples(JsonOnlyCommand if json_only else VoraCommand, tuple(examples),
                        f"{body.__module__}:{body.__qualname__}" if body is not None else None)
    group.command(name, cls=cls, epilog=epilog, help=help, hidden=hidden)(function)


def install_of(ctx: typer.Context) -> Install:
    """The run's install, built once by the root callback from the global options (`cli/app.py`)."""
    from vora_cli.cli.clickcompat import app_state

    return app_state(ctx).install


def output(ctx: typer.Context, json_mode: bool, *, no_headers: bool = False) -> Output:
    """The command's output, on the run's `Run` (JSON mode when this command or the root said so)."""
    from vora_cli.cli.clickcompat import app_state

    return app_state(ctx).output(json_mode, no_headers=no_headers)
