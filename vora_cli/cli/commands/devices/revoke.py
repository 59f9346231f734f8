"""`vora devices revoke`: revoke one role's token."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import emit_device
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.commands.devices._options import DeviceOption, RoleOption
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption


@command("revoke", examples=("vora devices revoke --device 96ce6dad --role operator",))
def devices_revoke(state: AppState, device: DeviceOption, role: RoleOption, dry_run: DryRunOption = False,
                   json: JsonOption = False) -> None:
    """Revoke one role's token (the device stays paired; 'rotate' issues a new token)."""
    from vora_cli.core.devices.operations import revoke_token

    emit_device(state, json, revoke_token(state.install, device, role, dry_run=dry_run))
