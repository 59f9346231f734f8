"""The install options (`--state-dir`, `--config`, `--profile`, `--dev`) anywhere on the command line, as
gh and kubectl take their global flags: `vora doctor --state-dir X` is `vora --state-dir X doctor`.
"""

from __future__ import annotations

import click

from vora_cli.cli.clickcompat import run_of
from vora_cli.cli.groups import GLOBAL_FLAGS, GLOBAL_VALUE_OPTIONS


def _own_option(command: click.Command, word: str) -> click.Option | None:
    name = word.split("=", 1)[0]
    return next((p for p in command.params if isinstance(p, click.Option) and name in (*p.opts, *p.secondary_opts)),
                None)


def hoist_global_options(root: click.Group, ctx: click.Context, args: list[str]) -> list[str]:
    """`args` with the install options given after the command (`vora doctor --state-dir X`)
    moved before it, after the ones typed there (the last wins). Walked with each command's own
    options, so an option's value (`--params --config`), everything after `--`, and a command's
    own option of the same name stay where they are.
    """
    globals_ = (*GLOBAL_VALUE_OPTIONS, *GLOBAL_FLAGS)
    if not any(a.split("=", 1)[0] in globals_ for a in args):
        return args
    command: click.Command = root
    head: list[str] = []
    hoisted: list[str] = []
    named_at = 0  # where the command's name is in `head`: the hoisted options go before it
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            head += args[i:]
            break
        option = _own_option(command, word) if word.startswith("-") else None
        if command is not root and option is None and word.split("=", 1)[0] in GLOBAL_VALUE_OPTIONS:
            if "=" in word:
                hoisted.append(word)
                i += 1
                continue
            if i + 1 >= len(args):
                if "--json" in args:  # every command has --json: its error is a JSON document too
                    run_of(ctx).json_mode = True
                raise click.UsageError(f"Option '{word}' requires an argument.", ctx)
            hoisted += args[i:i + 2]
            i += 2
            continue
        if command is not root and option is None and word in GLOBAL_FLAGS:
            hoisted.append(word)
            i += 1
            continue
        head.append(word)
        i += 1
        if option is not None:
            if not (option.is_flag or option.count) and "=" not in word and i < len(args):
                head.append(args[i])  # its value, whatever it looks like
                i += 1
        elif not word.startswith("-") and isinstance(command, click.Group):
            if command is root:
                named_at = len(head) - 1
            command = command.get_command(ctx, word) or command
    if not hoisted:
        return args
    return head[:named_at] + hoisted + head[named_at:]
