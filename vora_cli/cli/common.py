"""What every command shares: the `--json` option, the app state in `ctx.obj`, the output."""

from __future__ import annotations

from dataclasses import dataclass, field
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


def output(json_mode: bool) -> Output:
    return Output(json_mode=json_mode)
