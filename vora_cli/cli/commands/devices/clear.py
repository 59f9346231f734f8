"""`vora devices clear`: remove every paired device."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import report_written
from vora_cli.cli.declare import command
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption, YesOption
    from vora_cli.cli.output import Output


@command("clear", examples=("vora devices clear --yes --pending",))
def devices_clear(
    state: AppState,
    yes: YesOption = False,
    pending: Annotated[bool, typer.Option("--pending", help="Also reject every pending request.")] = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Remove every paired device (with --pending, also reject every pending request)."""
    from vora_cli.core.devices.operations import clear_store

    if not dry_run and not yes:
        # the question gives the counts it is about (a dry run counts them; nothing is written)
        planned = clear_store(state.install, pending=pending, dry_run=True)
        count = len(planned.removed_devices)
        what = plural(count, "paired device") + (" (its tokens stop working)" if count == 1 else
                                                 " (their tokens stop working)") + (
            f" and reject {plural(len(planned.rejected_requests), 'pending request')}" if pending else "")
        state.output(json).confirm_or_cancel(f"Remove {what}?", yes=yes)
    result = clear_store(state.install, pending=pending, dry_run=dry_run)

    def human(out: Output) -> None:
        verb = "Would remove" if result.report.dry_run else "Removed"
        out.line(f"{verb} {plural(len(result.removed_devices), 'paired device')}"
                 + (f" and {plural(len(result.rejected_requests), 'pending request')}" if pending else ""))
        report_written(out, result.report)

    state.output(json).emit(result.to_dict(), human)
