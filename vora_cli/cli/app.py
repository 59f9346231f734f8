"""The root `vora` app: global options, the command groups, and the one error boundary."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Annotated, Any

import click
import typer

from vora_cli import __version__
from vora_cli.cli.clickcompat import (
    QUIET_HELP,
    AppState,
    VoraSubgroup,
    app_state,
    build_command,
    click_command,
    defer_error,
    run_of,
    summary,
)
from vora_cli.cli.common import JsonOption, add_command
from vora_cli.cli.global_options import hoist_global_options
from vora_cli.cli.groups import GROUP_HELP, GROUP_NAMES
from vora_cli.cli.output import Run, format_error, prepare_streams, write_stdout
from vora_cli.core.errors import VoraError
from vora_cli.core.shell import shell_quote

EPILOG = (
    "Environment: VORA_HOME, VORA_STATE_DIR, VORA_CONFIG_PATH, VORA_PROFILE, VORA_GATEWAY_TOKEN, "
    "VORA_GATEWAY_PORT, VORA_GATEWAY_URL, VORA_GATEWAY_PASSWORD, VORA_DEBUG (tracebacks), NO_COLOR. "
    "Exit codes: 0 ok, 1 failed or problems found, 2 usage error, 3 conflict (nothing written, retry)."
)


# The command groups, in help order (`cli/groups.py`). Each is imported and built only when it is
# run (or listed by --help): building every group's click tree on every start cost ~65 ms.
LAZY_GROUPS = GROUP_NAMES
_BUILT: dict[str, click.Command] = {}


def _listed_command(name: str) -> click.Command:
    """What the root help lists for `name`: the built group if it is built, else a stand-in
    carrying its help from `GROUP_HELP` (same one-line help, no import)."""
    if name in _BUILT or name not in GROUP_HELP:
        return _build_group(name)
    return click.Command(name, help=GROUP_HELP[name])


def _build_group(name: str) -> click.Command:
    if name not in _BUILT:
        import importlib

        module = importlib.import_module(f"vora_cli.cli.commands.{name}")
        _BUILT[name] = build_command(module.app, name)
    return _BUILT[name]


# -- the exception table: what reaches the boundary, as the error an operator reads --------------

# errno -> the next step for an operator; anything else gets the general one.
_IO_HINTS = {
    "ENOTDIR": "a file stands where vora needs a folder: move it away, or point vora elsewhere",
    "EISDIR": "a folder stands where vora needs a file: move it away, or point vora elsewhere",
    "EACCES": "you may not read or write there: check its owner and mode, or run as its owner",
    "EPERM": "the operating system does not allow this there: check its owner, mode and flags",
    "EROFS": "that file system is read-only: point vora at a writable folder",
    "ENAMETOOLONG": "the name is too long for the file system: choose a shorter name or path",
    "ENOSPC": "the disk is full: free some space and run the command again",
    "EDQUOT": "your disk quota is used up: free some space and run the command again",
    "ENOENT": "the file or folder does not exist: check the path",
}
_IO_HINT = "check that the path exists, is the kind vora expects (file or folder) and that you may use it"


def _blocking_file(path: str) -> str | None:
    """For ENOTDIR: the nearest ancestor of `path` that exists and is not a folder."""
    parent = os.path.dirname(path)
    while parent and parent != os.path.dirname(parent):
        if os.path.lexists(parent):
            return parent if not os.path.isdir(parent) else None
        parent = os.path.dirname(parent)
    return None


def _io_error(error: BaseException) -> VoraError:
    """An OS refusal (ENOTDIR, EACCES, ENAMETOOLONG, EISDIR, ENOSPC, ...): the file and the OS reason."""
    import errno

    assert isinstance(error, OSError)
    names = [os.fsdecode(f) if isinstance(f, bytes) else str(f)
             for f in (error.filename, error.filename2) if f is not None]
    reason = error.strerror or type(error).__name__
    message = f"{' -> '.join(names)}: {reason}" if names else reason
    code = errno.errorcode.get(error.errno or 0, "")
    if code == "ENOTDIR" and names:
        blocking = _blocking_file(names[0])
        if blocking is not None:
            message = f"{blocking}: {reason} (needed as a folder for {names[0]})"
    return VoraError("io_error", message, _IO_HINTS.get(code, _IO_HINT))


def _unencodable_name(error: BaseException) -> VoraError:
    """A path or name holding a lone surrogate (from a JSON5 `"\\ud800"`) reached the OS, which
    cannot take it: no such file can exist, so this is bad input, not a bug (issue 12, point 9)."""
    assert isinstance(error, UnicodeEncodeError)
    bad = error.object[error.start : error.end]
    shown = "".join(f"\\u{ord(c):04x}" for c in bad) if isinstance(bad, str) else repr(bad)
    return VoraError("invalid", f"a file name or path holds {shown}, which no file system can store",
                     "fix that path in the config or on the command line (vora config get shows it escaped)")


def _external_error(error: BaseException) -> VoraError:
    """A subprocess vora ran (npm, $EDITOR) failed or hung."""
    import subprocess

    assert isinstance(error, subprocess.SubprocessError)
    cmd = getattr(error, "cmd", None)
    program = (cmd if isinstance(cmd, str) else " ".join(str(c) for c in cmd)) if cmd else "a command"
    if isinstance(error, subprocess.CalledProcessError):
        message = f"'{program}' failed with exit code {error.returncode}"
    elif isinstance(error, subprocess.TimeoutExpired):
        message = f"'{program}' did not finish in {error.timeout:g} s"
    else:
        message = f"'{program}' failed: {error}"
    return VoraError("external", message, "run the command by hand to see its own output")


def _internal_error(error: BaseException) -> VoraError:
    return VoraError(
        "internal",
        f"unexpected error: {type(error).__name__}: {error}",
        "this is a bug in vora; rerun with VORA_DEBUG=1 to see the traceback",
    )


def _error_table() -> list[tuple[type[BaseException], Callable[[BaseException], VoraError]]]:
    """Exception type -> the VoraError it is shown as; the first matching row wins.

    Everything not listed is a bug (`internal`). `VoraError`, click's usage errors, Ctrl-C and a
    closed pipe have their own branches in `VoraGroup.main` (they are not errors of vora's).
    """
    import subprocess

    return [
        (OSError, _io_error),
        (UnicodeEncodeError, _unencodable_name),
        (subprocess.SubprocessError, _external_error),
    ]


def as_vora_error(error: BaseException) -> VoraError:
    """The error an operator reads for an exception that reached the boundary."""
    if isinstance(error, VoraError):
        return error
    for kind, convert in _error_table():
        if isinstance(error, kind):
            return convert(error)
    return _internal_error(error)


class VoraGroup(VoraSubgroup):
    """The root group: turns every failure into one message (or JSON error) and an exit code."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, hoist_global_options(self, ctx, args))

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*LAZY_GROUPS, *super().list_commands(ctx)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_GROUPS:
            return _build_group(cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # click's own, listing lazy groups by their stand-ins (see GROUP_HELP)
        commands = []
        for name in self.list_commands(ctx):
            command = _listed_command(name) if name in LAZY_GROUPS else super().get_command(ctx, name)
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
        except BrokenPipeError:
            code = 1
        except Exception as error:  # the table; a bug is one line, traceback only with VORA_DEBUG=1
            vora_error = as_vora_error(error)
            if vora_error.code == "internal" and os.environ.get("VORA_DEBUG"):
                raise
            format_error(run, vora_error)
            code = vora_error.exit_code
        if standalone_mode:
            sys.stdout.flush()
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
    if isinstance(error, click.NoSuchOption) and error.possibilities:
        # one sentence, as for a mistyped command: "No such option: --fial-on; did you mean --fail-on?"
        guesses = list(error.possibilities)  # click's order: the closest first
        said = guesses[0] if len(guesses) == 1 else f"{', '.join(guesses[:-1])} or {guesses[-1]}"
        message = f"No such option: {name}; did you mean {said}?"
    format_error(run, VoraError("usage", message, hint))
    return 2


def _looks_negative(name: str) -> bool:
    """`-5`, `-0.5`, `-.5`: a number, not an option (click names only the first character of a
    short-option cluster: `-1.5` is reported as `-1`, `-.5` as `-.`)."""
    return len(name) >= 2 and name[0] == "-" and name[1] in "0123456789."


def _quiet_flag(ctx: typer.Context, value: bool) -> bool:
    if value:
        run_of(ctx).quiet = True
    return value


def version_document() -> dict[str, str]:
    """`vora --version --json`: what scripts probe (the one version, `vora_cli.__version__`)."""
    return {"name": "vora", "version": __version__}


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
    json: JsonOption = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP, is_eager=True,
                                        callback=_quiet_flag)] = False,
    version: Annotated[
        bool,
        typer.Option("--version", "-V", help="Print the version and exit (with --json: {\"name\", \"version\"}).", callback=_version_callback, is_eager=True),
    ] = False,
) -> None:
    """The operator toolkit for a Vora install: config, context, sessions, plugins, devices, doctor."""
    from vora_cli.core.install import Install
    from vora_cli.core.paths import validate_profile

    state = app_state(ctx)
    # The run's one install (nothing is read yet: paths, config and settings on first use), on the
    # settings the run's output already uses.
    state.install = Install(state_dir=state_dir, config=config, profile=profile, dev=dev, env=os.environ,
                            settings=state.run.settings)
    typed = [("--state-dir", state_dir), ("--config", config), ("--profile", profile)]
    state.run.global_args = ([f"{flag} {shell_quote(value)}" for flag, value in typed if value is not None]
                             + (["--dev"] if dev else []))
    try:
        if dev and profile is not None:
            raise VoraError("usage", "--dev and --profile cannot be used together", "--dev is --profile dev; pick one")
        if profile is not None:
            validate_profile(profile)
        if ctx.invoked_subcommand != "settings":
            # A settings file that does not parse fails every command but `vora settings` (which
            # repairs it), the same whether or not a flag settles the values it holds
            # (docs/settings.md, "A bad settings file"); `--help` and `--version` never get here.
            state.install.settings.check()
    except VoraError as error:
        defer_error(ctx, error)  # raised once the command's own --json is read


def _register() -> None:
    from vora_cli.cli.commands import completion

    # One command with a SHELL argument, not a group; LAZY_GROUPS are the rest.
    add_command(app, "completion", completion.completion, examples=completion.EXAMPLES)


_register()


def root_command() -> click.Command:
    """The root click command, as the docs generators (`vora_cli.cli.docgen`) read it."""
    return click_command(app)


def main(argv: list[str] | None = None) -> int:
    result = app(args=argv, prog_name="vora", standalone_mode=False)
    return int(result) if isinstance(result, int) else 0
