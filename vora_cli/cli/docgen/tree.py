"""The command tree as data, read from the app itself (for shell completion and the CLI reference).

The one hand-written table is `VALUE_HINTS`: which values an argument or option takes when the app
cannot say it; a hint whose command exists but whose parameter does not is a test failure.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any

import click

from vora_cli.cli.clickcompat import summary
from vora_cli.cli.docgen.dispatch_table import hot_entry
from vora_cli.core.records import dataclass, field

# Value kinds, shared by the three shell scripts:
#   "file" / "dir"          file or directory names
#   "choice:a b c"          these words
#   "list:a b c"            a comma list of these words (`--only a,b`): each item completes
#   "dyn:KIND"              `vora __complete KIND PREFIX` (vora_cli/complete.py), read at TAB time;
#                           KIND: plugins, devices, pending-devices, requests, config-paths, profiles,
#                           sessions
#   ""                      nothing to offer

_PLUGIN_ID_COMMANDS = ("enable", "disable", "use", "uninstall", "inspect", "info", "update")

# (command path, parameter) -> value kind. A parameter is "#N" (the N-th positional argument,
# from 0) or an option name. Choice types (click.Choice, enums) need no entry: they are read
# from the app.
VALUE_HINTS: dict[tuple[str, str], str] = {
    ("vora", "--state-dir"): "dir",
    ("vora", "--config"): "file",
    ("vora", "--profile"): "dyn:profiles",
    ("vora config get", "#0"): "dyn:config-paths",
    ("vora config set", "#0"): "dyn:config-paths",
    ("vora config unset", "#0"): "dyn:config-paths",
    ("vora config patch", "#0"): "file",
    **{(f"vora context {name}", "--workspace"): "dir" for name in ("list", "detail", "json", "preview")},
    **{(f"vora plugins {name}", "#0"): "dyn:plugins" for name in _PLUGIN_ID_COMMANDS},
    ("vora plugins install", "#0"): "file",
    ("vora plugins init", "#0"): "dir",
    ("vora devices approve", "#0"): "dyn:requests",
    ("vora devices reject", "#0"): "dyn:requests",
    ("vora devices approve", "--device"): "dyn:pending-devices",
    ("vora devices reject", "--device"): "dyn:pending-devices",
    ("vora devices revoke", "--device"): "dyn:devices",
    ("vora devices rotate", "--device"): "dyn:devices",
    ("vora devices remove", "#0"): "dyn:devices",
    ("vora sessions show", "#0"): "dyn:sessions",
    **{(f"vora context {name}", "--session"): "dyn:sessions" for name in ("list", "detail", "json")},
    ("vora devices rename", "#0"): "dyn:devices",
}


# Examples in an epilog are separated by `; ` before the next `vora`, or by line breaks.


@dataclass(frozen=True)
class OptionSpec:
    """One option of a command, as the reference and the man page show it."""
    names: tuple[str, ...]  # e.g. ("--yes", "-y"); secondary names of a --x/--no-x flag included
    help: str
    takes_value: bool
    metavar: str
    default: str | None  # as text, None when there is nothing worth showing
    envvar: tuple[str, ...]
    required: bool
    multiple: bool
    value: str  # value kind (see above)


@dataclass(frozen=True)
class ArgumentSpec:
    """One positional argument of a command, as the reference and the man page show it."""
    name: str
    metavar: str
    help: str
    required: bool
    variadic: bool
    default: str | None
    envvar: tuple[str, ...]
    value: str


@dataclass(frozen=True)
class CommandSpec:
    """One command of the app (a group or a leaf), with its options, arguments and subcommands."""
    path: str  # "vora config set"
    name: str
    help: str
    short_help: str  # one sentence, whole
    epilog: str  # prose after the help
    examples: tuple[str, ...]  # whole command lines
    usage: str
    options: tuple[OptionSpec, ...]
    arguments: tuple[ArgumentSpec, ...]
    subcommands: tuple[CommandSpec, ...] = field(default=())
    # the fast dispatch's entry (`docgen/dispatch_table.py`): the root's, and each hot command's
    dispatch: dict[str, Any] | None = field(default=None, compare=False, hash=False)

    def walk(self) -> Iterator[CommandSpec]:
        yield self
        for sub in self.subcommands:
            yield from sub.walk()

    def find(self, path: str) -> CommandSpec | None:
        return next((c for c in self.walk() if c.path == path), None)



def _default_text(param: click.Parameter) -> str | None:
    default = param.default
    if default is None or callable(default):  # none given, or a factory
        return None
    if isinstance(param, click.Option) and param.is_flag and default is False:
        return None
    if isinstance(default, enum.Enum):
        default = default.value
    if isinstance(default, list | tuple):
        return " ".join(str(d) for d in default) if default else None
    return str(default).lower() if isinstance(default, bool) else str(default)


def _envvars(param: click.Parameter) -> tuple[str, ...]:
    env = param.envvar
    if not env:
        return ()
    return (env,) if isinstance(env, str) else tuple(env)


def closed_value_hints() -> dict[tuple[str, str], str]:
    """The closed sets core owns, as choices: a parameter that takes a comma list (`--only a,b`)
    or a name click cannot check (`context preview MEMORY.md`) is a `str` to click, so its
    choices come from here, read from the same constants the commands check against."""
    from vora_cli.cli.check_options import FORMATS
    from vora_cli.core.config.value_types import VALUE_TYPES
    from vora_cli.core.context.files import BOOTSTRAP_FILE_NAMES, MEMORY_FILE_NAMES, SESSIONS
    from vora_cli.core.doctor.fixes import FIXABLE
    from vora_cli.core.doctor_names import FAIL_ON_LEVELS, SELECTABLE_IDS
    from vora_cli.core.plugins.manifest import KINDS
    from vora_cli.core.plugins.settings import SLOT_NAMES
    from vora_cli.core.security import runner as security
    from vora_cli.core.settings.resolve import SETTINGS

    checks = "list:" + " ".join(SELECTABLE_IDS)
    hints = {
        ("vora doctor", "--only"): checks,
        ("vora doctor", "--skip"): checks,
        ("vora doctor", "--fix-id"): "list:" + " ".join(FIXABLE),
        ("vora doctor", "#0"): "choice:" + " ".join(FIXABLE),
        ("vora doctor", "--fail-on"): "choice:" + " ".join(FAIL_ON_LEVELS),
        ("vora config set", "--type"): "choice:" + " ".join(VALUE_TYPES),
        ("vora plugins init", "--kind"): "choice:" + " ".join(KINDS),
        ("vora plugins use", "--slot"): "choice:" + " ".join(SLOT_NAMES),
        ("vora doctor", "--format"): "choice:" + " ".join(FORMATS),
        ("vora security audit", "--only"): "list:" + " ".join(security.SELECTABLE_IDS),
        ("vora security audit", "--skip"): "list:" + " ".join(security.SELECTABLE_IDS),
        ("vora security audit", "#0"): "choice:" + " ".join(security.FIXABLE),
        ("vora security audit", "--fail-on"): "choice:" + " ".join(security.FAIL_ON),
        ("vora security audit", "--format"): "choice:" + " ".join(FORMATS),
        ("vora context preview", "#0"): "choice:" + " ".join((*BOOTSTRAP_FILE_NAMES, *MEMORY_FILE_NAMES)),
    }
    hints |= {(f"vora context {name}", "--kind"): "choice:" + " ".join(SESSIONS)
              for name in ("list", "detail", "json", "preview")}
    hints |= {(f"vora settings {name}", "#0"): "choice:" + " ".join(SETTINGS) for name in ("get", "set", "unset")}
    hints |= query_field_hints()
    from vora_cli.core.gateway.methods import CHANNEL_METHODS, METHODS

    hints[("vora gateway call", "#0")] = "choice:" + " ".join((*METHODS, *CHANNEL_METHODS))
    return hints


def query_field_hints() -> dict[tuple[str, str], str]:
    """After `--query`, the fields of that command's JSON document (recorded from real runs,
    `cli/json_fields.py`; `--query`, docs/exit-codes-and-json.md)."""
    from vora_cli.cli.json_fields import FIELDS

    return {(f"vora {command}", "--query"): "choice:" + " ".join(fields) for command, fields in FIELDS.items() if fields}


def _value_kind(path: str, key: str, param: click.Parameter) -> str:
    hint = VALUE_HINTS.get((path, key)) or closed_value_hints().get((path, key))
    if hint is not None:
        return hint
    kind = param.type
    if isinstance(kind, click.Choice):
        return "choice:" + " ".join(str(c) for c in kind.choices)
    if isinstance(kind, click.Path):
        return "dir" if kind.dir_okay and not kind.file_okay else "file"
    if isinstance(kind, click.File):
        return "file"
    return ""


def _first_line(text: str) -> str:
    return text.strip().split("\n\n")[0].replace("\n", " ").strip()


def _spec(command: click.Command, ctx: click.Context, path: str) -> CommandSpec:
    options: list[OptionSpec] = []
    arguments: list[ArgumentSpec] = []
    for param in command.get_params(ctx):
        if isinstance(param, click.Option):
            if param.hidden:
                continue
            names = tuple(param.opts) + tuple(param.secondary_opts)
            if param.name == "help":  # click 8.1 builds the help option's names from a set
                names = tuple(sorted(names, key=lambda o: (len(o), o)))
            takes_value = not param.is_flag and not param.count
            main_name = max(param.opts, key=len)
            options.append(OptionSpec(
                names=names,
                help=_first_line(param.help or ""),
                takes_value=takes_value,
                metavar=(param.metavar or param.type.name.upper()) if takes_value else "",
                default=_default_text(param),
                envvar=_envvars(param),
                required=param.required,
                multiple=param.multiple,
                value=_value_kind(path, main_name, param) if takes_value else "",
            ))
        elif isinstance(param, click.Argument):
            index = len(arguments)
            metavar = getattr(param, "metavar", None) or (param.name or "ARG").upper()
            arguments.append(ArgumentSpec(
                name=param.name or f"arg{index}",
                metavar=metavar.strip("[].") or metavar,
                help=_first_line(getattr(param, "help", None) or ""),
                required=param.required,
                variadic=param.nargs == -1,
                default=_default_text(param),
                envvar=_envvars(param),
                value=_value_kind(path, f"#{index}", param),
            ))
    subcommands: list[CommandSpec] = []
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden:
                continue
            sub_ctx = click.Context(sub, info_name=name, parent=ctx)
            subcommands.append(_spec(sub, sub_ctx, f"{path} {name}"))
    help_text = (command.help or "").strip()
    return CommandSpec(
        path=path,
        name=path.split(" ")[-1],
        help=help_text,
        short_help=summary(command),
        epilog=(command.epilog or "").strip(),
        examples=tuple(getattr(command, "examples", ())),
        usage=" ".join(p for p in command.collect_usage_pieces(ctx) if p),  # no empty subcommand metavar
        options=tuple(options),
        arguments=tuple(arguments),
        subcommands=tuple(subcommands),
        dispatch=_dispatch_entry(command, path),
    )


def _dispatch_entry(command: click.Command, path: str) -> dict[str, Any] | None:
    """The fast dispatch's entry: a hot command's (an error when it cannot have one), and the
    root's (None for a root whose options the dispatch cannot parse: an app other than vora's,
    in a test; the generator refuses to write vora's table without one)."""
    if path != "vora":
        return hot_entry(command, path)
    try:
        entry = hot_entry(command, path, root=True)
    except ValueError:
        return None
    if entry is not None:
        entry["help_page"] = root_help_page(command)
    return entry


def root_help_page(root: click.Command) -> str:
    """`vora --help` as click writes it on a terminal of HELP_PAGE_COLUMNS or more (the text before
    click's final new line)."""
    from vora_cli.cli.dispatch import HELP_PAGE_COLUMNS

    ctx = click.Context(root, info_name="vora", terminal_width=HELP_PAGE_COLUMNS - 2, **root.context_settings)
    return root.get_help(ctx)


def command_tree(root: click.Command) -> CommandSpec:
    """The whole `vora` command tree under the root click command (hidden ones left out)."""
    ctx = click.Context(root, info_name="vora", **root.context_settings)
    return _spec(root, ctx, "vora")

