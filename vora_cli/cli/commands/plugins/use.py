"""`vora plugins use ID [--slot contextEngine|context-engine|memory]`."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.commands.plugins._render import report_config
from vora_cli.cli.common import DryRunOption, JsonOption, install_of, output
from vora_cli.cli.output import Output


def plugins_use(
    ctx: typer.Context,
    plugin_id: Annotated[str, typer.Argument(metavar="ID", help="The plugin id.")],
    slot: Annotated[str | None, typer.Option(
        "--slot", metavar="SLOT", help="contextEngine (or context-engine) or memory (default: from the plugin's kind).")] = None,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Select a plugin for its slot and show old -> new."""
    from vora_cli.core.plugins.selection import use_plugin

    result = use_plugin(install_of(ctx), plugin_id, slot, dry_run=dry_run)

    def human(o: Output) -> None:
        report_config(o, result.config)
        o.line(str(result.change))
        if result.config.changed and not result.config.dry_run:
            o.line("Restart the gateway to apply it.")

    output(ctx, json).emit(result.to_dict(), human)
