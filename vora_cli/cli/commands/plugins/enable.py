"""`vora plugins enable ID` and `vora plugins disable ID`."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.commands.plugins._render import report_config
from vora_cli.cli.common import DryRunOption, JsonOption, install_of, output
from vora_cli.cli.output import Output

IdArgument = Annotated[str, typer.Argument(metavar="ID", help="The plugin id.")]


def _toggle(ctx: typer.Context, plugin_id: str, enabled: bool, dry_run: bool, json: bool) -> None:
    from vora_cli.core.plugins.selection import set_plugin_enabled

    out = output(ctx, json)
    result = set_plugin_enabled(install_of(ctx), plugin_id, enabled, dry_run=dry_run)
    for warning in result.warnings:
        out.warn(warning)

    def human(o: Output) -> None:
        report_config(o, result.config)
        word = "enabled" if enabled else "disabled"
        if not result.config.changed:
            o.line(f"{plugin_id} is already {word} in plugins.entries")
        else:
            o.line(f"{'Would set' if result.config.dry_run else 'Set'} plugins.entries[\"{plugin_id}\"].enabled = "
                   f"{'true' if enabled else 'false'}")
            o.line("Restart the gateway to apply it.")

    out.emit(result.to_dict(), human)


def plugins_enable(ctx: typer.Context, plugin_id: IdArgument, dry_run: DryRunOption = False,
                   json: JsonOption = False) -> None:
    """Enable a plugin (plugins.entries.<id>.enabled = true)."""
    _toggle(ctx, plugin_id, True, dry_run, json)


def plugins_disable(ctx: typer.Context, plugin_id: IdArgument, dry_run: DryRunOption = False,
                    json: JsonOption = False) -> None:
    """Disable a plugin (plugins.entries.<id>.enabled = false; this wins even over a slot)."""
    _toggle(ctx, plugin_id, False, dry_run, json)
