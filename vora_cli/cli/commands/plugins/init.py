"""`vora plugins init DIR --id ID [--kind …]`."""

from __future__ import annotations

from pathlib import Path

from vora_cli.cli.declare import command
from vora_cli.cli.output import Output
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption


@command("init", examples=("vora plugins init ./my-engine --id my-engine --kind context-engine",))
def plugins_init(
    state: AppState,
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="The new plugin folder.")],
    plugin_id: Annotated[str, typer.Option("--id", metavar="ID", help="The plugin id, e.g. my-engine or @acme/my-engine.")],
    kind: Annotated[str, typer.Option("--kind", metavar="KIND", help="context-engine or memory.")] = "context-engine",
    json: JsonOption = False,
) -> None:
    """Scaffold a plugin folder (manifest, package.json, an entry file) ready for 'install -l'."""
    from vora_cli.core.plugins.scaffold import scaffold_plugin

    result = scaffold_plugin(directory.absolute(), plugin_id, kind)
    payload = result.to_dict()

    def human(o: Output) -> None:
        o.line(f"Created {result.kind} plugin {result.plugin_id} in {result.root}")
        for f in result.files:
            o.note(f"Wrote {f}")
        o.note(f"Next: {command_line('vora', 'plugins', 'install', '-l', directory, '--use')}   (then restart the gateway)")

    state.output(json).emit(payload, human)
