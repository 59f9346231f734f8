"""`@command`: how a vora command is declared, once, beside its body; its docstring is its help
(docs/architecture.md, "Where a new command goes"). This module imports nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    F = TypeVar("F", bound=Callable[..., Any])


class CommandInfo:
    """How a function is registered: its name and what `--help` shows beyond the docstring.

    `hot`: the fast dispatch answers it (an everyday command, docs/architecture.md); `json_only`:
    its whole output is JSON, errors too (`vora context json`)."""

    __slots__ = ("epilog", "examples", "help", "hidden", "hot", "json_only", "name")

    def __init__(self, name: str, *, examples: tuple[str, ...], epilog: str | None, help: str | None,
                 hidden: bool, hot: bool, json_only: bool) -> None:
        self.name = name
        self.examples = examples
        self.epilog = epilog
        self.help = help
        self.hidden = hidden
        self.hot = hot
        self.json_only = json_only


COMMANDS_ATTRIBUTE = "vora_commands"


def command(name: str, *, examples: tuple[str, ...] = (), epilog: str | None = None, help: str | None = None,
            hidden: bool = False, hot: bool = False, json_only: bool = False) -> Callable[[F], F]:
    """Declare the decorated function as the command `name` of its group.

    Stacked, one function is several commands (an alias: `inspect` and `info`), in the order written."""
    info = CommandInfo(name, examples=tuple(examples), epilog=epilog, help=help, hidden=hidden, hot=hot,
                       json_only=json_only)

    def mark(function: F) -> F:
        declared: list[CommandInfo] = getattr(function, COMMANDS_ATTRIBUTE, [])
        setattr(function, COMMANDS_ATTRIBUTE, [info, *declared])  # decorators apply bottom-up
        return function

    return mark


def declared_commands(function: object) -> list[CommandInfo]:
    """What `@command` declared on `function` (nothing for a helper)."""
    found: list[CommandInfo] = getattr(function, COMMANDS_ATTRIBUTE, [])
    return found
