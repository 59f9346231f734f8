"""`vora plugins update [ID | --all]`."""

from __future__ import annotations

from vora_cli.cli.commands.plugins._render import progress_for, risky_code_question
from vora_cli.cli.declare import command
from vora_cli.cli.output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption


@command("update", examples=("vora plugins update lossless-claw", "vora plugins update --all --dry-run"))
def plugins_update(
    state: AppState,
    plugin_id: Annotated[str | None, typer.Argument(metavar="[ID]", help="The plugin id.")] = None,
    all_plugins: Annotated[bool, typer.Option("--all", help="Every npm-installed plugin.")] = False,
    allow_risky_code: Annotated[bool, typer.Option(
        "--allow-risky-code", help="Install a new version even when the gateway's code scan finds dangerous patterns.")] = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> int:
    """Re-fetch npm-installed plugins and install newer versions (path and archive installs are skipped)."""
    from vora_cli.core.plugins.update import update_plugins

    out = state.output(json)
    with progress_for(out) as progress:
        items = update_plugins(state.install, plugin_id, all_plugins=all_plugins, dry_run=dry_run,
                               progress=progress.step if progress else None,
                               on_extract=progress.extract if progress else None,
                               risky=(allow_risky_code, risky_code_question(out, progress)))
    for item in items:
        for warning in item.warnings:
            out.warn(warning)

    def human(o: Output) -> None:
        if not items:
            o.line("No installed plugins to update.")
        for item in items:
            o.line(str(item))
        if any(i.status == "updated" for i in items):
            o.line("Restart the gateway to load the new versions.")

    failed = any(i.status == "failed" for i in items)  # --all: one failure is the run's failure
    return out.emit({"ok": not failed, "dryRun": dry_run, "plugins": [i.to_dict() for i in items]}, human,
                    failed=failed)
