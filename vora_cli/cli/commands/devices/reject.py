"""`vora devices reject`: drop a pairing request."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import report_written, require_one_selector
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption
    from vora_cli.cli.output import Output

@command("reject", examples=("vora devices reject --device 96ce6dad",))
def devices_reject(
    state: AppState,
    request_id: Annotated[str | None, typer.Argument(
        metavar="[REQUEST_ID]", help="The request id, or its first 8+ characters (see 'vora devices list').")] = None,
    device: Annotated[
        str | None, typer.Option("--device", metavar="ID", help="Reject the newest live request of this device (id or 8+ hex prefix).")
    ] = None,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Reject a pairing request (the device may ask again)."""
    from vora_cli.core.devices.lookup import Selection
    from vora_cli.core.devices.operations import reject_request

    require_one_selector(request_id, device, False, allow_latest=False)
    result = reject_request(state.install, Selection(request_id=request_id, device=device),
                            dry_run=dry_run)

    def human(out: Output) -> None:
        verb = "Would reject" if result.report.dry_run else "Rejected"
        extra = " (it had already expired)" if result.was_expired else ""
        out.line(f"{verb} request {result.request_id} of {result.name} ({result.device_id[:12]}){extra}")
        report_written(out, result.report)

    state.output(json).emit(result.to_dict(), human)
