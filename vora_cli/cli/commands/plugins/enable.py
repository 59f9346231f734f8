"""`vora plugins enable ID`."""

from __future__ import annotations

from vora_cli.cli.commands.plugins._render import toggle_plugin
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.commands.plugins._options import IdArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption


@command("enable", examples=("vora plugins enable my-engine",))
def plugins_enable(state: AppState, plugin_id: IdArgument, dry_run: DryRunOption = False,
                   json: JsonOption = False) -> None:
    """Enable a plugin (plugins.entries.<id>.enabled = true)."""
    toggle_plugin(state, plugin_id, True, dry_run, json)
