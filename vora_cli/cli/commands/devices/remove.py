"""`vora devices remove`: unpair a device."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import emit_device
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.commands.devices._options import DeviceArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption, YesOption


@command("remove", examples=("vora devices remove 96ce6dad --yes",))
def devices_remove(state: AppState, device: DeviceArgument, yes: YesOption = False, dry_run: DryRunOption = False,
                   json: JsonOption = False) -> None:
    """Unpair a device: its record and tokens are deleted (it must pair again)."""
    from vora_cli.core.devices.operations import remove_device

    if not yes and not dry_run:
        # an unknown id is an error, not a question; the question names the device it is about
        planned = remove_device(state.install, device, dry_run=True)
        state.output(json).confirm_or_cancel(
            f"Unpair device {planned.name} ({planned.device_id[:12]})? Its tokens stop working; it must pair again",
            yes=yes)
    emit_device(state, json, remove_device(state.install, device, dry_run=dry_run))
