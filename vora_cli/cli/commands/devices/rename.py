"""`vora devices rename`: set a device's operator label."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import emit_device
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.devices._options import DeviceArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption


@command("rename", examples=("vora devices rename 96ce6dad 'ops laptop'",))
def devices_rename(state: AppState, device: DeviceArgument,
                   label: Annotated[str, typer.Argument(help="The operator label to show for this device.")],
                   dry_run: DryRunOption = False, json: JsonOption = False) -> None:
    """Set a device's operator label (shown by 'list' instead of its displayName)."""
    from vora_cli.core.devices.operations import rename_device

    emit_device(state, json, rename_device(state.install, device, label, dry_run=dry_run))
