"""Every Click and Typer internal vora relies on, in one place: when typer or click change, this is the one
module to read. The rest of `vora_cli.cli` uses their public API only.
"""

from __future__ import annotations

from typing import Any

import click
import typer
import typer.core
from typer.core import TyperCommand, TyperGroup

from vora_cli.cli.invocation import AppState
from vora_cli.cli.output import Run

# Help is plain text (rich_markup_mode=None); without this Typer still imports rich to escape
# "[required]" as "\\[required]" in every argument's help line.
typer.core.HAS_RICH = False


def app_state(ctx: click.Context) -> AppState:
    root = ctx.find_root()
    state = root.obj
    if not isinstance(state, AppState):  # a sub-app invoked on its own (tests of a sub-app)
        state = AppState(Run())
        root.obj = state
    return state


def run_of(ctx: click.Context) -> Run:
    """This run's output state."""
    return app_state(ctx).run


# A failure of the root callback (an invalid --profile), kept in the context until the command's
# own options are parsed: `vora --profile '!!' config file --json` fails as a JSON document.
_DEFERRED = "vora.deferred_error"


def defer_error(ctx: click.Context, error: Exception) -> None:
    """Raise `error` once the command line is parsed (see `VoraCommand.parse_args`)."""
    ctx.meta[_DEFERRED] = error


def _raise_deferred(ctx: click.Context) -> None:
    error = ctx.meta.get(_DEFERRED)
    if error is not None:
        raise error


def _records_json(ctx: click.Context, command: click.Command, args: list[str]) -> None:
    """Record JSON mode when `args` hold one of the command's own `--json` names, for a parse that
    failed: click never ran the option's callback, and the usage error must still be JSON."""
    given = args[: args.index("--")] if "--" in args else args
    for param in command.params:
        if isinstance(param, click.Option) and param.name == "json" and any(o in given for o in param.opts):
            run_of(ctx).json_mode = True


def _records_json_word(ctx: click.Context, args: list[str]) -> None:
    """Record JSON mode when `args` hold the word `--json` (before `--`), for a usage error of a
    group: `vora config nope --json` names no command, so no command's `--json` was parsed, yet
    every command has one and the word asks for the JSON error document (docs/exit-codes-and-json.md)."""
    given = args[: args.index("--")] if "--" in args else args
    if "--json" in given:
        run_of(ctx).json_mode = True


# -- help: folded at word boundaries, examples one per line, summaries whole -----------------------

class HelpFormatter(click.HelpFormatter):
    """click's formatter, folding at spaces only: click's breaks `--fix-id` or `slot-memory` at
    the hyphen and a long path inside it (docs/terminal.md, "Line wrapping")."""

    def write_text(self, text: str) -> None:
        from vora_cli.cli.wrapping import wrap_paragraphs

        indent = " " * self.current_indent
        for line in wrap_paragraphs(text, self.width, indent=indent):
            self.write(line.rstrip() + "\n")

    def write_dl(self, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        from vora_cli.cli.wrapping import wrap_paragraphs

        rows = list(rows)
        first_col = min(max((len(first) for first, _ in rows), default=0), col_max) + col_spacing
        for first, second in rows:
            self.write(f"{'':>{self.current_indent}}{first}")
            if not second:
                self.write("\n")
                continue
            if len(first) <= first_col - col_spacing:
                self.write(" " * (first_col - len(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            lines = wrap_paragraphs(second, max(self.width - first_col - self.current_indent, 10))
            self.write(f"{lines[0]}\n")
            for line in lines[1:]:
                self.write((f"{'':>{first_col + self.current_indent}}{line}" if line else "") + "\n")

    def write_examples(self, examples: tuple[str, ...]) -> None:
        """`Examples:`, then each example on its own line; one too long for the width is folded
        between its words with a trailing ` \\`, never inside one (it still runs when pasted)."""
        from vora_cli.cli.wrapping import wrap_command

        self.write_paragraph()
        with self.indentation():
            self.write(f"{'':>{self.current_indent}}{'Example' if len(examples) == 1 else 'Examples'}:\n")
            with self.indentation():
                for example in examples:
                    for line in wrap_command(example, self.width, indent=" " * self.current_indent):
                        self.write(line + "\n")


class Context(click.Context):
    formatter_class = HelpFormatter


def summary(command: click.Command) -> str:
    """What a command does in one sentence, whole (never cut with `...`): its `short_help`, else
    its help's first sentence (the words up to the first that ends in a full stop)."""
    if command.short_help:
        return " ".join(command.short_help.split())
    words = (command.help or "").split("\n\n")[0].split()
    if words and words[0] == "\b":
        words = words[1:]
    for i, word in enumerate(words):
        if word.endswith(".") and not word.endswith("..."):
            return " ".join(words[: i + 1])
    return " ".join(words)


def with_examples(cls: type[VoraCommand], examples: tuple[str, ...], body: str | None = None) -> type[VoraCommand]:
    """`cls` carrying `examples` and `body` (typer builds a command from its class and fixed arguments only)."""
    if not examples and body is None:
        return cls
    return type(cls.__name__, (cls,), {"examples": examples, "body": body})


QUIET_HELP = "Print no notes (Wrote ..., next steps) on stderr; warnings and errors still show."


def _quiet_callback(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        run_of(ctx).quiet = True


def quiet_option() -> click.Option:
    """`--quiet`/`-q`, on every command and on the root: declared once, here, not per command."""
    return click.Option(["--quiet", "-q"], is_flag=True, default=False, expose_value=False, is_eager=True,
                        callback=_quiet_callback, help=QUIET_HELP)


QUERY_HELP = ("Print only what the JMESPath EXPR selects from the --json document (implies --json): "
              "--query 'checks[?status==`warn`].id'.")


def _query_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        run = run_of(ctx)
        run.query = value
        run.json_mode = True


def query_option() -> click.Option:
    """`--query EXPR`, on every command (they all have `--json`) and on the root: eager, so even a
    usage error of the same line comes out as the JSON error document, as for `--json`."""
    return click.Option(["--query"], metavar="EXPR", default=None, expose_value=False, is_eager=True,
                        callback=_query_callback, help=QUERY_HELP)


class VoraCommand(TyperCommand):
    """A vora command: its `--json` decides the error format even when its arguments do not parse;
    every command has `--quiet`; its examples are printed one per line after its help."""

    context_class = Context
    examples: tuple[str, ...] = ()
    body: str | None = None  # "module:function" of a hot command: what the fast dispatch calls (`cli/declare.py`)
    json_only = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.params.append(quiet_option())
        self.params.append(query_option())

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        if self.examples and isinstance(formatter, HelpFormatter):
            formatter.write_examples(self.examples)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = list(args)  # click's parser consumes the list it is handed
        try:
            rest = super().parse_args(ctx, args)
        except click.UsageError:
            _records_json(ctx, self, given)
            raise
        _raise_deferred(ctx)
        return rest


class JsonOnlyCommand(VoraCommand):
    """A command whose whole output is JSON (`vora context json`): errors are JSON too."""

    json_only = True

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        run_of(ctx).json_mode = True
        return super().parse_args(ctx, args)


# Words typed as a command that are options of vora (`vora version`, as `git version` or `kubectl
# version` would have it): the did-you-mean names the option, not the nearest command.
OPTION_WORDS = {"version": "--version", "help": "--help"}


class VoraSubgroup(TyperGroup):
    """A vora command group: a mistyped command name gets a did-you-mean (exit 2); its commands
    are listed with their whole summaries."""

    context_class = Context

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        listed = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                listed.append((name, summary(command)))
        if listed:
            with formatter.section("Commands"):
                formatter.write_dl(listed)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args:  # no command follows whose --json to wait for (and not the group's help)
            _raise_deferred(ctx)
        given = list(args)  # click's parser consumes the list it is handed
        try:
            return super().parse_args(ctx, args)
        except click.UsageError:
            _records_json(ctx, self, given)
            _records_json_word(ctx, given)
            raise

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            _records_json_word(ctx, args)
            name = args[0] if args else ""
            if not name or name.startswith("-") or self.get_command(ctx, name) is not None:
                raise
            option = OPTION_WORDS.get(name.lower())
            if option is not None and (option != "--version" or ctx.parent is None):
                raise click.UsageError(f"No such command {name!r}; did you mean '{ctx.command_path} {option}'?",
                                       ctx) from None
            suggestion = closest_command(self, ctx, name)
            if suggestion is None:
                raise
            raise click.UsageError(f"No such command {name!r}; did you mean {suggestion!r}?", ctx) from None


def closest_command(group: click.Group, ctx: click.Context, name: str) -> str | None:
    """The visible command of `group` nearest to the mistyped `name`, if one is near enough."""
    from vora_cli.core.wording import closest

    visible = []
    for candidate in group.list_commands(ctx):
        command = group.get_command(ctx, candidate)
        if command is not None and not command.hidden:
            visible.append(candidate)
    return closest(name, visible)


def click_command(app: typer.Typer) -> click.Command:
    """The click command typer builds from `app`."""
    import typer.main

    return typer.main.get_command(app)


def build_command(app: typer.Typer, name: str) -> click.Command:
    """The click command typer builds from `app`, named `name`, without typer's completion options."""
    command = click_command(app)
    command.name = name
    # Built on its own, a sub-app would get Typer's completion options; vora has its own.
    command.params = [p for p in command.params if p.name not in ("install_completion", "show_completion")]
    return command
