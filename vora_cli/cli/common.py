"""How the Typer app is put together from the declared commands (`cli/declare.py`): each `@command`
function becomes a click command whose callback calls it with the run's `AppState`, the same function
the fast dispatch calls (docs/architecture.md, "One declaration, two ways in").
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import click
import typer

from vora_cli.cli import options
from vora_cli.cli.clickcompat import (
    JsonOnlyCommand,
    VoraCommand,
    VoraSubgroup,
    app_state,
    build_command,
    with_examples,
)
from vora_cli.cli.declare import CommandInfo, declared_commands
from vora_cli.cli.groups import GROUP_HELP


def build_group(name: str) -> click.Command:
    """The click command of the group `name` (`vora config`, `vora doctor`)."""
    module = importlib.import_module(f"vora_cli.cli.commands.{name}")
    if hasattr(module, "__path__"):
        modules = [importlib.import_module(f"{module.__name__}.{m}") for m in module.COMMANDS]
        group = typer.Typer(cls=VoraSubgroup, help=GROUP_HELP[name], no_args_is_help=True)
        for member in modules:
            add_commands(group, member)
        if len(group.registered_commands) == 1:
            group.callback()(_no_group_options)  # stays a group: more commands may join it
    else:  # one command (`vora doctor`, `vora completion`): its docstring is the help
        group = typer.Typer(cls=VoraSubgroup, help=GROUP_HELP.get(name), no_args_is_help=False)
        add_commands(group, module)
    return build_command(group, name)


def _no_group_options() -> None:
    """The group itself takes no options; its command does the work."""


def add_commands(group: typer.Typer, module: Any) -> None:
    """Register every function `module` declares with `@command`, in the order written."""
    for value in list(vars(module).values()):
        if inspect.isfunction(value) and value.__module__ == module.__name__:
            for info in declared_commands(value):
                add_command(group, value, info)


def add_command(group: typer.Typer, function: Callable[..., Any], info: CommandInfo) -> None:
    """Register `function` as `info.name` of `group`."""
    cls = with_examples(JsonOnlyCommand if info.json_only else VoraCommand, info.examples,
                        f"{function.__module__}:{function.__qualname__}" if info.hot else None)
    group.command(info.name, cls=cls, epilog=info.epilog, help=info.help, hidden=info.hidden)(typer_callback(function))


def _group_options(module: str) -> dict[str, Any]:
    """What `cli/commands/<group>/_options.py` declares: the options a group's commands share."""
    package = module.rpartition(".")[0]
    if not package:
        return {}
    try:
        return vars(importlib.import_module(f"{package}._options"))
    except ModuleNotFoundError as error:
        if error.name != f"{package}._options":
            raise
        return {}


def typer_callback(function: Callable[..., Any]) -> Callable[..., Any]:
    """What typer calls for `function`: the same parameters, the first (the run's `AppState`)
    replaced by typer's context, the annotations resolved (`cli/declare.py`): in the
    module's namespace, its group's `_options.py` and `cli/options.py`."""
    signature = inspect.signature(function)
    _state, *declared = signature.parameters.values()
    namespace = {**vars(options), **_group_options(function.__module__), **function.__globals__}
    parameters = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)]
    for parameter in declared:
        annotation = parameter.annotation
        if isinstance(annotation, str):
            annotation = eval(annotation, namespace)  # the declaration's own text, as typing.get_type_hints does
        parameters.append(parameter.replace(annotation=annotation))

    def callback(ctx: typer.Context, **values: Any) -> Any:
        state = app_state(ctx)
        state.run.command = ctx.command_path.partition(" ")[2] or ctx.command_path
        state.run.check_query()
        return function(state, **values)

    callback.__name__ = function.__name__
    callback.__qualname__ = function.__qualname__
    callback.__module__ = function.__module__
    callback.__doc__ = function.__doc__
    callback.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    callback.__annotations__ = {p.name: p.annotation for p in parameters}
    return callback
