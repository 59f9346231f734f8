"""`vora settings unset`: remove one setting (the built-in default applies again)."""

from __future__ import annotations

from vora_cli.cli.commands.settings._shared import kept_text, shown
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.commands.settings._options import KeyArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output


@command("unset", examples=("vora settings unset profile",))
def settings_unset(state: AppState, key: KeyArgument, json: JsonOption = False) -> None:
    """Remove one setting from your settings file (the built-in default applies again)."""
    from vora_cli.core.settings.edit import unset_setting

    change = unset_setting(state.install.settings, key)

    def human(o: Output) -> None:
        if change.changed:
            o.line(f"{key} unset (was {shown(key, change.old)})")
            o.note(f"Wrote {change.file}" + kept_text(change.backup))
        else:
            o.line(f"{key} is not set in {change.file}; nothing written")

    state.output(json).emit(change.to_dict(), human)
