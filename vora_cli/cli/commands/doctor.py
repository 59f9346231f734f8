"""`vora doctor`: is this install sound? Read-only unless `--fix` (spec doctor.md). Its body: `cli/hot/doctor.py`."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.clickcompat import app_state
from vora_cli.cli.common import (
    DryRunOption,
    FormatOption,
    JsonOption,
    OnlyOption,
    SkipOption,
    YesOption,
    add_command,
    command_group,
)
from vora_cli.cli.connect_options import TimeoutOption, UrlOption
from vora_cli.cli.groups import GROUP_HELP
from vora_cli.cli.hot import doctor as hot
from vora_cli.core.doctor_names import FAIL_ON_LEVELS

app = command_group(GROUP_HELP["doctor"], no_args_is_help=False)  # one command: its docstring is the help

EXAMPLES = (
    "vora doctor",
    "vora doctor --json --fail-on warn",
    "vora doctor --format github",
    "vora doctor --format junit > doctor.xml",
    "vora doctor --format sarif > doctor.sarif",
    "vora doctor --only slot-context-engine,slot-memory",
    "vora doctor --fix --dry-run",
    "vora doctor --fix state-dir --yes",
    "vora doctor --list-checks",
)

# -- the command --------------------------------------------------------------------------------

def doctor(
    ctx: typer.Context,
    fix_targets: Annotated[
        list[str] | None,
        typer.Argument(metavar="[ID]...", help="With --fix: only these fixes (the spec's `--fix [ID …]`).",
                       show_default=False),
    ] = None,
    json: JsonOption = False,
    format: FormatOption = None,
    only: OnlyOption = None,
    skip: SkipOption = None,
    fail_on: Annotated[
        str | None, typer.Option("--fail-on", metavar="|".join(FAIL_ON_LEVELS),
                                 help="Exit 1 at this severity or worse (default error; setting doctor.fail_on).")
    ] = None,
    fix: Annotated[bool, typer.Option("--fix", help="Apply the available fixes (each previewed and confirmed).")] = False,
    fix_id: Annotated[
        list[str] | None,
        typer.Option("--fix-id", metavar="ID", help="Only these fixes (implies --fix; repeat, or a,b)."),
    ] = None,
    yes: YesOption = False,
    dry_run: DryRunOption = False,
    live: Annotated[bool, typer.Option(
        "--live", help="Also ask the running gateway: reachable, auth, version, loaded slot plugins, memory.")] = False,
    url: UrlOption = None,
    timeout: TimeoutOption = None,
    list_checks: Annotated[bool, typer.Option(
        "--list-checks", help="List every check id with its group and what it verifies; run nothing.")] = False,
) -> int:
    """Check a Vora install: config, slots, plugins, workspace, devices (read-only unless --fix).

    --only, --skip and --fix-id repeat (--only a --only b) or take a comma list (--only a,b).
    --fix alone applies every available fix but plugin-settings (it deletes settings: name it);
    --fix ID... (or --fix-id ID) only those. Exit 0 when no check is an error (with
    --fail-on warn: no warning either), else 1. Only --live connects to the gateway (--url and --timeout apply to it).
    """
    return hot.doctor(app_state(ctx), fix_targets=fix_targets, json=json, format=format, only=only, skip=skip,
                      fail_on=fail_on, fix=fix, fix_id=fix_id, yes=yes, dry_run=dry_run, live=live, url=url,
                      timeout=timeout, list_checks=list_checks)


add_command(app, "doctor", doctor, body=hot.doctor, examples=EXAMPLES)
