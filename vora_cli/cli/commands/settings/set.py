"""`vora settings set`: change one setting (checked first; nothing written on a bad value)."""

from __future__ import annotations

from vora_cli.cli.commands.settings._shared import kept_text, shown
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.settings._options import KeyArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output


@command("set", examples=(
    "vora settings set color never",
    "vora settings set doctor.skip skills,pairing-store",
    "vora settings set lock_timeout 30",
))
def settings_set(
    state: AppState,
    key: KeyArgument,
    value: Annotated[str, typer.Argument(metavar="VALUE", help="The value; a list is comma-separated (a,b).",
                                         show_default=False)],
    json: JsonOption = False,
) -> None:
    """Set one setting in your settings file (its type is checked; nothing is written when it is wrong)."""
    from vora_cli.core.settings.edit import set_setting

    change = set_setting(state.install.settings, key, value)

    def human(o: Output) -> None:
        if change.changed:
            o.line(f"{key} = {shown(key, change.new)} (was {shown(key, change.old)})")
            o.note(f"Wrote {change.file}" + kept_text(change.backup))
        else:
            o.line(f"{key} is already {shown(key, change.new)}; nothing written")

    state.output(json).emit(change.to_dict(), human)
