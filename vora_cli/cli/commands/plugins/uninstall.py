"""`vora plugins uninstall ID`."""

from __future__ import annotations

from vora_cli.cli.commands.plugins._render import report_config
from vora_cli.cli.declare import command
from vora_cli.cli.output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption, YesOption


@command("uninstall", examples=("vora plugins uninstall my-engine --dry-run", "vora plugins uninstall my-engine --yes"))
def plugins_uninstall(
    state: AppState,
    plugin_id: Annotated[str, typer.Argument(metavar="ID", help="The plugin id.")],
    keep_files: Annotated[bool, typer.Option("--keep-files", help="Remove the config references, keep the folder.")] = False,
    dry_run: DryRunOption = False,
    yes: YesOption = False,
    json: JsonOption = False,
) -> None:
    """Remove a plugin: every config reference in one write, then its installed folder."""
    from vora_cli.core.plugins.uninstall import plan_uninstall, uninstall_plugin

    install = state.install
    out = state.output(json)
    plan = plan_uninstall(install, plugin_id, keep_files=keep_files)
    if not dry_run:
        from vora_cli.core.userdirs import dir_size
        from vora_cli.core.wording import plural, size_text

        what = f"remove {plural(len(plan.references), 'config reference')}"
        if plan.delete_path:
            size, files = dir_size(plan.delete_path) if plan.delete_path.is_dir() else (0, 1)
            what += f" and delete {plan.delete_path} ({plural(files, 'file')}, {size_text(size)})"
        out.confirm_or_cancel(f"Uninstall {plugin_id}: {what}?", yes=yes)
    result = uninstall_plugin(install, plugin_id, keep_files=keep_files, dry_run=dry_run)
    plan = result.plan
    payload = {**plan.to_dict(), "deleted": result.deleted, "dryRun": dry_run, "config": result.config.to_dict()}

    def human(o: Output) -> None:
        report_config(o, result.config)
        verb = "Would remove" if dry_run else "Removed"
        for ref in plan.references:
            o.line(f"{verb} {ref}")
        for change in plan.slot_changes:
            o.line(str(change))
        if plan.delete_path:
            o.line(f"{'Would delete' if dry_run else 'Deleted'} {plan.delete_path}")
        for kept in plan.kept_paths:
            o.line(f"Kept {kept}")
        for note in plan.notes:
            o.note(note)
        if not dry_run:
            o.line(f"Uninstalled plugin {plugin_id}. Restart the gateway to unload it.")

    out.emit(payload, human)
