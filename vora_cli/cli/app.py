"""The root `vora` app: global options, the command groups, and the one error boundary."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import click
import typer
from typer.core import TyperGroup

from vora_cli import __version__
from vora_cli.cli.common import AppState
from vora_cli.cli.output import format_error, json_indent, set_global_args, to_json, write_stderr
from vora_cli.core.errors import VoraError

# Help is plain text (rich_markup_mode=None); without this Typer still imports rich to escape
# "[required]" as "\\[required]" in every argument's help line.
typer.core.HAS_RICH = False

EPILOG = (
    "Environment: VORA_HOME, VORA_STATE_DIR, VORA_CONFIG_PATH, VORA_PROFILE, VORA_GATEWAY_TOKEN, "
    "VORA_GATEWAY_PORT, VORA_DEBUG (tracebacks), NO_COLOR. "
    "Exit codes: 0 ok, 1 failed or problems found, 2 usage error, 3 conflict (nothing written, retry)."
)


def _json_requested(args: list[str]) -> bool:
    """`--json` anywhere before `--`, or a command whose whole output is JSON (`context json`)."""
    args = args[: args.index("--")] if "--" in args else args
    if "--json" in args:
        return True
    words = [a for a in args if not a.startswith("-")]
    return any(words[i : i + 2] == ["context", "json"] for i in range(len(words)))


# The command groups, in help order. Each is imported and built only when it is run (or
# listed by --help): building every group's click tree on every start cost ~65 ms.
LAZY_GROUPS = ("config", "context", "sessions", "plugins", "devices", "doctor")
_BUILT: dict[str, click.Command] = {}


def _build_group(name: str) -> click.Command:
    if name not in _BUILT:
        import importlib

        import typer.main

        module = importlib.import_module(f"vora_cli.cli.commands.{name}")
        command = typer.main.get_command(module.app)
        command.name = name
        # Built on its own, a sub-app would get Typer's completion options; vora has its own.
        command.params = [p for p in command.params if p.name not in ("install_completion", "show_completion")]
        _BUILT[name] = command
    return _BUILT[name]


class VoraGroup(TyperGroup):
    """The root group: turns every failure into one message (or JSON error) and an exit code."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*LAZY_GROUPS, *super().list_commands(ctx)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_GROUPS:
            return _build_group(cmd_name)
        return super().get_command(ctx, cmd_name)

    def main(  # type: ignore[override]
        self,
        args: list[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        json_mode = _json_requested(argv)
        try:
            result = super().main(
                args=argv,
                prog_name=prog_name or "vora",
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            code = result if isinstance(result, int) else 0
        except VoraError as error:
            format_error(error, json_mode)
            code = error.exit_code
        except click.UsageError as error:
            code = _usage_error(error, json_mode)
        except click.exceptions.Abort:
            format_error(VoraError("refused", "aborted", None), json_mode)
            code = 1
        except click.ClickException as error:
            format_error(VoraError("usage", error.format_message(), None), json_mode)
            code = error.exit_code
        except KeyboardInterrupt:
            write_stderr("interrupted\n")
            code = 130
        except BrokenPipeError:
            code = 1
        except Exception as error:  # a bug: one line, traceback only with VORA_DEBUG=1
            if os.environ.get("VORA_DEBUG"):
                raise
            format_error(
                VoraError(
                    "internal",
                    f"unexpected error: {type(error).__name__}: {error}",
                    "this is a bug in vora; rerun with VORA_DEBUG=1 to see the traceback",
                ),
                json_mode,
            )
            code = 1
        if standalone_mode:
            sys.stdout.flush()
            sys.exit(code)
        return code


def _usage_error(error: click.UsageError, json_mode: bool) -> int:
    ctx = error.ctx
    command = ctx.command_path if ctx is not None else "vora"
    hint = f"run '{command} --help' for the usage"
    if json_mode:
        sys.stdout.write(to_json({"error": {"code": "usage", "message": error.format_message(), "hint": hint}}, indent=json_indent()) + "\n")
    else:
        format_error(VoraError("usage", error.format_message(), hint), json_mode=False)
    return 2


def _version_callback(value: bool) -> None:
    if value:
        sys.stdout.write(f"vora {__version__}\n")
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
        str | None, typer.Option("--state-dir", help="State dir (default: ~/.vora; env VORA_STATE_DIR).")
    ] = None,
    config: Annotated[
        str | None, typer.Option("--config", help="Config file (default: <state-dir>/vora.json; env VORA_CONFIG_PATH).")
    ] = None,
    profile: Annotated[
        str | None, typer.Option("--profile", help="Use the profile NAME: state dir ~/.vora-NAME (env VORA_PROFILE).")
    ] = None,
    dev: Annotated[bool, typer.Option("--dev", help="Same as --profile dev.")] = False,
    version: Annotated[
        bool,
        typer.Option("--version", "-V", help="Print the version and exit.", callback=_version_callback, is_eager=True),
    ] = False,
) -> None:
    """The operator toolkit for a Vora install: config, context, sessions, plugins, devices, doctor."""
    from vora_cli.core.paths import resolve_paths

    ctx.obj = AppState(paths=resolve_paths(state_dir=state_dir, config=config, profile=profile, dev=dev))
    typed = [("--state-dir", state_dir), ("--config", config), ("--profile", profile)]
    set_global_args([f"{flag} {_shell_quote(value)}" for flag, value in typed if value is not None]
                    + (["--dev"] if dev else []))


def _shell_quote(value: str) -> str:
    """shlex.quote's rule, without importing shlex on every command."""
    if value and all(c.isalnum() or c in "@%+=:,./-_" for c in value):
        return value
    return "'" + value.replace("'", "'\"'\"'") + "'"


def _register() -> None:
    from vora_cli.cli.commands import completion

    completion.register(app)  # one command with a SHELL argument, not a group; LAZY_GROUPS are the rest


_register()


def main(argv: list[str] | None = None) -> int:
    result = app(args=argv, prog_name="vora", standalone_mode=False)
    return int(result) if isinstance(result, int) else 0
