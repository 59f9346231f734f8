"""`vora plugins use ID [--slot contextEngine|context-engine|memory]`."""

from __future__ import annotations

from vora_cli.cli.commands.plugins._render import report_config
from vora_cli.cli.declare import command
from vora_cli.cli.output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption


@command("use", examples=("vora plugins use my-engine", "vora plugins use my-memory --slot memory"))
def plugins_use(
    state: AppState,
    plugin_id: Annotated[str, typer.Argument(metavar="ID", help="The plugin id.")],
    slot: Annotated[str | None, typer.Option(
        "--slot", metavar="SLOT", help="contextEngine (or context-engine) or memory (default: from the plugin's kind).")] = None,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Select a plugin for its slot and show old -> new."""
    from vora_cli.core.plugins.selection import use_plugin

    result = use_plugin(state.install, plugin_id, slot, dry_run=dry_run)

    def human(o: Output) -> None:
        report_config(o, result.config)
        change = result.change
        if change.old == change.new:  # re-selecting: not `my-engine -> my-engine`
            o.line(f"{change.slot}: {change.new} (already selected; nothing to change)")
        else:
            o.line(("Would change " if result.config.dry_run else "") + str(change))
        if result.config.changed and not result.config.dry_run:
            o.line("Restart the gateway to apply it.")

    state.output(json).emit(result.to_dict(), human)
