"""`vora devices remove`: unpair a device."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import emit_device
from vora_cli.cli.declare import command
from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.commands.devices._options import DeviceArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption, YesOption


@command("remove", examples=("vora devices remove 96ce6dad --yes",))
def devices_remove(state: AppState, device: DeviceArgument, yes: YesOption = False, dry_run: DryRunOption = False,
                   json: JsonOption = False) -> None:
    """Unpair a device: its record and tokens are deleted (it must pair again)."""
    from vora_cli.core.devices.lookup import find_paired_device
    from vora_cli.core.devices.operations import remove_device

    if not yes and not dry_run:
        find_paired_device(state.install, device)  # an unknown id is an error, not a question
    if not dry_run and not state.output(json).confirm(
            f"Unpair device {device} (its tokens stop working; it must pair again)?", yes=yes):
        raise VoraError("refused", "not removed", "nothing was written")
    emit_device(state, json, remove_device(state.install, device, dry_run=dry_run))
