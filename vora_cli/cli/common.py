"""What every command shares: the `--json` option, the app state in `ctx.obj`, the output,
and the one way commands and groups are put together (`command_group`, `add_command`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

import typer

from vora_cli.cli.clickcompat import JsonOnlyCommand, VoraCommand, VoraSubgroup
from vora_cli.cli.output import Output, json_mode_recorded, record_json_mode
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths


def _json_option(value: bool) -> bool:
    """`--json` records JSON mode for the whole run, and is on when the root's `--json` was given.

    Eager, so it is recorded before any other option or argument of its command can fail.
    """
    if value:
        record_json_mode()
    return json_mode_recorded()


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

# -- the check engine's commands (`vora doctor`, `vora security audit`): formats and id lists --------

FORMATS = ("text", "json", "github", "junit", "sarif")


def _format_option(value: str | None) -> str | None:
    """`--format json` is `--json`: recorded first, so even a usage error comes out as JSON."""
    if value == "json":
        record_json_mode()
    return value


FormatOption = Annotated[str | None, typer.Option(
    "--format", metavar="text|json|github|junit|sarif", is_eager=True, callback=_format_option,
    help="Output: text (default), json (= --json), github (workflow annotations), junit (XML), sarif (2.1.0).",
)]


def id_list(values: list[str] | None) -> list[str]:
    """Repeated options and comma lists, flattened: `--only a,b --only c`."""
    out: list[str] = []
    for value in values or []:
        out += [v.strip() for v in value.split(",") if v.strip()]
    return out


def choose_format(format: str | None, json: bool) -> str:
    if format is not None and format not in FORMATS:
        raise VoraError("usage", f"invalid --format {format!r}", f"use one of: {', '.join(FORMATS)}")
    if json and format not in (None, "json"):
        raise VoraError("usage", f"--json and --format {format} ask for two outputs",
                        f"use one: --format {format}, or --json")
    return "json" if json else format or "text"


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
    epilog: str | None = None,
    help: str | None = None,
    hidden: bool = False,
    json_only: bool = False,
) -> None:
    """Register a plain function as the command `name` of `group` (the one registration style).

    `json_only`: the command's whole output is JSON (`vora context json`), its errors too.
    """
    cls = JsonOnlyCommand if json_only else VoraCommand
    group.command(name, cls=cls, epilog=epilog, help=help, hidden=hidden)(function)


@dataclass
class AppState:
    """The global options, resolved once, when a command first asks for the paths.

    Resolving them may read the operator's settings file (default profile and state dir);
    `vora settings` must work on a settings file that does not parse, so nothing reads it
    before a command needs a path.
    """

    state_dir: str | None = None
    config: str | None = None
    profile: str | None = None
    dev: bool = False
    _paths: VoraPaths | None = field(default=None, repr=False)

    @property
    def paths(self) -> VoraPaths:
        if self._paths is None:
            from vora_cli.core.paths import resolve_paths

            self._paths = resolve_paths(state_dir=self.state_dir, config=self.config, profile=self.profile,
                                        dev=self.dev)
        return self._paths


def app_state(ctx: typer.Context) -> AppState:
    root = ctx.find_root()
    state = root.obj
    if not isinstance(state, AppState):  # a sub-app invoked on its own (tests of a sub-app)
        state = AppState()
        root.obj = state
    return state


def paths_of(ctx: typer.Context) -> VoraPaths:
    return app_state(ctx).paths


def output(json_mode: bool, *, no_headers: bool = False) -> Output:
    return Output(json_mode=json_mode or json_mode_recorded(), no_headers=no_headers)
