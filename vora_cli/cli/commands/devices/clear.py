"""`vora devices clear`: remove every paired device."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import report_written
from vora_cli.cli.declare import command
from vora_cli.core.errors import VoraError

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

    if not dry_run and not yes:  # the question says what it will do: how many of each
        preview = clear_store(state.install, pending=pending, dry_run=True)
        devices, requests = len(preview.removed_devices), len(preview.rejected_requests)
        what = (f"{devices} paired device{'' if devices == 1 else 's'} (their tokens stop working)"
                + (f" and reject {requests} pending request{'' if requests == 1 else 's'}" if pending else ""))
        if not state.output(json).confirm(f"Remove {what}?", yes=yes):
            raise VoraError("refused", "nothing cleared", "nothing was written")
    result = clear_store(state.install, pending=pending, dry_run=dry_run)

    def human(out: Output) -> None:
        verb = "Would remove" if result.report.dry_run else "Removed"
        out.line(f"{verb} {len(result.removed_devices)} paired device(s)"
                 + (f" and {len(result.rejected_requests)} pending request(s)" if pending else ""))
        report_written(out, result.report)

    state.output(json).emit(result.to_dict(), human)
