"""`vora settings set|unset`: change the settings file (checked first; nothing written on a bad value)."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.commands.settings.show import KeyArgument, shown
from vora_cli.cli.common import JsonOption, install_of, output
from vora_cli.cli.output import Output


def settings_set(
    ctx: typer.Context,
    key: KeyArgument,
    value: Annotated[str, typer.Argument(metavar="VALUE", help="The value; a list is comma-separated (a,b).",
                                         show_default=False)],
    json: JsonOption = False,
) -> None:
    """Set one setting in your settings file (its type is checked; nothing is written when it is wrong)."""
    from vora_cli.core.settings.edit import set_setting

    change = set_setting(install_of(ctx).settings, key, value)

    def human(o: Output) -> None:
        if change.changed:
            o.line(f"{key} = {shown(key, change.new)} (was {shown(key, change.old)})")
            o.note(f"Wrote {change.file}" + _kept(change.backup))
        else:
            o.line(f"{key} is already {shown(key, change.new)}; nothing written")

    output(ctx, json).emit(change.to_dict(), human)


def settings_unset(ctx: typer.Context, key: KeyArgument, json: JsonOption = False) -> None:
    """Remove one setting from your settings file (the built-in default applies again)."""
    from vora_cli.core.settings.edit import unset_setting

    change = unset_setting(install_of(ctx).settings, key)

    def human(o: Output) -> None:
        if change.changed:
            o.line(f"{key} unset (was {shown(key, change.old)})")
            o.note(f"Wrote {change.file}" + _kept(change.backup))
        else:
            o.line(f"{key} is not set in {change.file}; nothing written")

    output(ctx, json).emit(change.to_dict(), human)


def _kept(backup: object) -> str:
    return f" (your hand-written file, comments and all, is kept as {backup})" if backup else ""
