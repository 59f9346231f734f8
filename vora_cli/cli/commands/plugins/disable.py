"""`vora plugins disable ID`."""

from __future__ import annotations

from vora_cli.cli.commands.plugins._render import toggle_plugin
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.commands.plugins._options import IdArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption


@command("disable", examples=("vora plugins disable my-engine --dry-run",))
def plugins_disable(state: AppState, plugin_id: IdArgument, dry_run: DryRunOption = False,
                    json: JsonOption = False) -> None:
    """Disable a plugin (plugins.entries.<id>.enabled = false; this wins even over a slot)."""
    toggle_plugin(state, plugin_id, False, dry_run, json)
