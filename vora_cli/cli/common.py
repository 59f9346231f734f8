"""What every command shares: the `--json` option, the app state in `ctx.obj`, the output."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import typer

from vora_cli.cli.output import Output
from vora_cli.core.paths import VoraPaths

JsonOption = Annotated[
    bool, typer.Option("--json", help="Print exactly one JSON document on stdout, errors included.")
]
DryRunOption = Annotated[
    bool, typer.Option("--dry-run", help="Run every check a real write runs, show the change, write nothing.")
]
YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Proceed without asking (for scripts).")]


@dataclass(frozen=True)
class AppState:
    """The global options, resolved once by the root callback."""

    paths: VoraPaths


def app_state(ctx: typer.Context) -> AppState:
    root = ctx.find_root()
    state = root.obj
    if not isinstance(state, AppState):  # a sub-app invoked on its own (tests of a sub-app)
        from vora_cli.core.paths import resolve_paths

        state = AppState(paths=resolve_paths())
        root.obj = state
    return state


def paths_of(ctx: typer.Context) -> VoraPaths:
    return app_state(ctx).paths


def output(json_mode: bool) -> Output:
    return Output(json_mode=json_mode)
