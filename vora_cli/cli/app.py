"""The root `vora` app: global options, the command groups, and the one error boundary."""

from __future__ import annotations

import os
import re
import sys
from typing import Annotated, Any

import click
import typer

from vora_cli import __version__
from vora_cli.cli import options
from vora_cli.cli.clickcompat import (
    QUERY_HELP,
    QUIET_HELP,
    VoraSubgroup,
    app_state,
    click_command,
    defer_error,
    run_of,
    summary,
)
from vora_cli.cli.common import build_group
from vora_cli.cli.global_options import hoist_global_options
from vora_cli.cli.groups import GROUP_HELP, GROUP_NAMES
from vora_cli.cli.invocation import AppState, failure_code, finish, version_document
from vora_cli.cli.output import Run, format_error, write_stdout
from vora_cli.cli.streams import prepare_streams
from vora_cli.core.errors import VoraError

EPILOG = (
    "Environment: VORA_HOME, VORA_STATE_DIR, VORA_CONFIG_PATH, VORA_PROFILE, VORA_GATEWAY_TOKEN, "
    "VORA_GATEWAY_PORT, VORA_GATEWAY_URL, VORA_GATEWAY_PASSWORD, VORA_DEBUG (tracebacks), NO_COLOR. "
    "Exit codes: 0 ok, 1 failed or problems found, 2 usage error, 3 conflict (nothing written, retry)."
)


# The command groups, in help order (`cli/groups.py`), then the commands of the root itself. Each is
# imported and built only when it is run (or listed by --help).
LAZY_GROUPS = GROUP_NAMES
ROOT_COMMANDS = ("completion",)
_BUILT: dict[str, click.Command] = {}


def _listed_command(name: str) -> click.Command:
    """What the root help lists for `name`: the built group if it is built, else a stand-in
    carrying its help from `GROUP_HELP` (same one-line help, no import)."""
    if name in _BUILT or name not in GROUP_HELP:
        return _build_group(name)
    return click.Command(name, help=GROUP_HELP[name])


def _build_group(name: str) -> click.Command:
    if name not in _BUILT:
        _BUILT[name] = build_group(name)
    return _BUILT[name]


class VoraGroup(VoraSubgroup):
    """The root group: turns every failure into one message (or JSON error) and an exit code."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_global_options(self, ctx, args))

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*LAZY_GROUPS, *ROOT_COMMANDS]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_GROUPS or cmd_name in ROOT_COMMANDS:
            return _build_group(cmd_name)
        return None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own, listing lazy groups by their stand-ins (see GROUP_HELP)
        commands = []
        for name in self.list_commands(ctx):
            command = _listed_command(name)
            if command is not None and not command.hidden:
                commands.append((name, command))
        if commands:
            with formatter.section("Commands"):
                formatter.write_dl([(name, summary(command)) for name, command in commands])

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        # One run: its output state now (an error before any command must still print well), its
        # install once the root callback has read the global options.
        run = Run(argv)
        prepare_streams()
        extra.setdefault("obj", AppState(run))
        try:
            result = super().main(
                args=argv,
                prog_name=prog_name or "vora",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            code = result if isinstance(result, int) else 0
        except click.UsageError as error:
            code = _usage_error(run, error)
        except click.Abort:
            format_error(run, VoraError("refused", "aborted", None))
            code = 1
        except click.ClickException as error:
            format_error(run, VoraError("usage", error.format_message(), None))
            code = error.exit_code
        except KeyboardInterrupt:  # typer already turns it into exit 130; this keeps it so
            code = 130
        except Exception as error:  # the table; a bug is one line, traceback only with VORA_DEBUG=1
            code = failure_code(run, error)  # a failed stdout too (`StdoutFailed`): `finish` says it
        code = finish(run, code, extra["obj"])
        if standalone_mode:
            sys.exit(code)
        return code


def _usage_error(run: Run, error: click.UsageError) -> int:
    ctx = error.ctx
    command = ctx.command_path if ctx is not None else "vora"
    hint = f"run '{command} --help' for the usage"
    name = error.option_name if isinstance(error, click.NoSuchOption) else ""
    if _looks_negative(name):
        # `config set gateway.port -5`: click reads "-5" as an option; `--` makes it a value (POSIX)
        arguments = [p.human_readable_name for p in ctx.command.params if isinstance(p, click.Argument)] if ctx else []
        hint = (f"a value that starts with '-' is read as an option; put '--' before the arguments: "
                f"{command} [OPTIONS] -- {' '.join(arguments) or '...'}")
    message = error.format_message()
    if isinstance(error, click.NoSuchOption):
        # one sentence, as for a mistyped command: "No such option: --fial-on; did you mean --fail-on?",
        # and a guess only when it is a typo of the option (`wording.closest`): click guesses
        # `--verbose` for `--bogus`
        from vora_cli.core.wording import closest

        guess = closest(name, error.possibilities or ())
        message = f"No such option: {name}" + (f"; did you mean {guess}?" if guess else "")
        if guess is None and not _option_shaped(name) and not _looks_negative(name):
            # `--Xy9…` is a value (a base64url token may start with dashes), which may be a secret:
            # it is not repeated
            arguments = [p.human_readable_name for p in ctx.command.params if isinstance(p, click.Argument)] \
                if ctx else []
            message = "a word that starts with '-' is no option of this command (not repeated: it may be a value)"
            stdin = ctx is not None and any("--stdin" in getattr(p, "opts", ()) for p in ctx.command.params)
            hint = (f"a value that starts with '-' goes after '--': {command} [OPTIONS] -- "
                    f"{' '.join(arguments) or '...'}" + (" (or give it on stdin: --stdin)" if stdin else ""))
    elif message.startswith("Got unexpected extra argument") and "--passphrase" not in run.argv:
        # (after --passphrase the word is said by `output._hidden`, with that flag's own hint)
        # the extra words may be the rest of a value typed without quotes (a passphrase): not repeated
        message = "more arguments than the command takes (not repeated: they may be part of a value)"
        hint = f"a value with blanks goes in quotes; run '{command} --help' for the usage"
    format_error(run, VoraError("usage", message, hint))
    return 2


def _option_shaped(name: str) -> bool:
    """Whether `name` is spelled as a person types an option (`--fail-on`, `-v`, `--FIX`,
    `--dry_run`): letters, dashes and underscores, no digit; else it is a value given where an
    option was expected (a token holds digits)."""
    return len(name) <= 40 and re.fullmatch(r"--?[A-Za-z][A-Za-z_]*(?:-[A-Za-z_]+)*", name) is not None


def _looks_negative(name: str) -> bool:
    """`-5`, `-0.5`, `-.5`: a number, not an option (click names only the first character of a
    short-option cluster: `-1.5` is reported as `-1`, `-.5` as `-.`)."""
    return len(name) >= 2 and name[0] == "-" and name[1] in "0123456789."


def _quiet_flag(ctx: typer.Context, value: bool) -> bool:
    if value:
        run_of(ctx).quiet = True
    return value


def _query_flag(ctx: typer.Context, value: str | None) -> str | None:
    if value is not None:
        run = run_of(ctx)
        run.query = value
        run.json_mode = True
    return value


def _version_callback(ctx: typer.Context, value: bool) -> None:
    if value:
        run = run_of(ctx)
        # eager options run in command-line order: `--version --json` has not recorded --json yet
        words = run.argv[: run.argv.index("--")] if "--" in run.argv else run.argv
        if run.json_mode or "--json" in words:
            write_stdout(run.stdout_json(version_document()))
        else:
            write_stdout(f"vora {__version__}\n")
        raise typer.Exit(0)


app = typer.Typer(
    cls=VoraGroup,
    name="vora",
    help="The operator toolkit for a Vora install: config, context, sessions, plugins, devices, doctor.",
    epilog=EPILOG,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@app.callback()
def root(
    ctx: typer.Context,
    state_dir: Annotated[
        str | None, typer.Option("--state-dir", metavar="DIR", help="State dir (default: ~/.vora; env VORA_STATE_DIR).")
    ] = None,
    config: Annotated[
        str | None, typer.Option("--config", metavar="FILE", help="Config file (default: <state-dir>/vora.json; env VORA_CONFIG_PATH).")
    ] = None,
    profile: Annotated[
        str | None, typer.Option("--profile", metavar="NAME", help="Use the profile NAME: state dir ~/.vora-NAME (env VORA_PROFILE).")
    ] = None,
    dev: Annotated[bool, typer.Option("--dev", help="Same as --profile dev.")] = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Write even into a state dir a newer gateway line wrote (vora doctor says what vora cannot see there).")
    ] = False,
    no_pager: Annotated[bool, typer.Option("--no-pager", help="Print long views whole, never through the pager "
                                           "(default on a terminal: $PAGER, the pager setting, less -FRX).")] = False,
    ascii_only: Annotated[bool, typer.Option("--ascii", help="Draw pictures and symbols in ASCII "
                                             "(automatic when the terminal cannot show them).")] = False,
    json: options.JsonOption = False,
    query: Annotated[str | None, typer.Option("--query", metavar="EXPR", help=QUERY_HELP, is_eager=True,
                                              callback=_query_flag)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP, is_eager=True,
                                        callback=_quiet_flag)] = False,
    version: Annotated[
        bool,
        typer.Option("--version", "-V", help="Print the version and exit (with --json: {\"name\", \"version\"}).", callback=_version_callback, is_eager=True),
    ] = False,
) -> None:
    """The operator toolkit for a Vora install: config, context, sessions, plugins, devices, doctor."""
    try:
        app_state(ctx).start(state_dir=state_dir, config=config, profile=profile, dev=dev, env=os.environ,
                             group=ctx.invoked_subcommand, force=force, no_pager=no_pager, ascii_only=ascii_only)
    except VoraError as error:
        defer_error(ctx, error)  # raised once the command's own --json is read


def root_command() -> click.Command:
    """The root click command, as the docs generators (`vora_cli.cli.docgen`) read it."""
    return click_command(app)


def main(argv: list[str] | None = None) -> int:
    result = app(args=argv, prog_name="vora", standalone_mode=False)
    return int(result) if isinstance(result, int) else 0
