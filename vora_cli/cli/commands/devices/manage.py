"""`vora devices remove|revoke|rotate|rename|clear`: changes to paired devices."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from vora_cli.cli.commands.devices._shared import report_written
from vora_cli.cli.common import DryRunOption, JsonOption, YesOption, install_of, output
from vora_cli.core.errors import VoraError

if TYPE_CHECKING:
    from vora_cli.cli.output import Output
    from vora_cli.core.devices.operations import DeviceResult

DeviceArg = Annotated[str, typer.Argument(help="Device id, or a unique prefix of 8+ hex digits.")]
DeviceOpt = Annotated[str, typer.Option("--device", metavar="ID", help="Device id, or a unique prefix of 8+ hex digits.")]
RoleOpt = Annotated[str, typer.Option("--role", metavar="ROLE", help="The token's role, e.g. operator or node.")]


def _emit_device(ctx: typer.Context, json: bool, result: DeviceResult) -> None:

    def human(out: Output) -> None:
        verb = "would " + result.action if result.report.dry_run else result.action
        out.line(f"{result.name} ({result.device_id[:12]}): {verb}: {result.detail}")
        if result.changed or result.report.dry_run:
            report_written(out, result.report)

    output(ctx, json).emit(result.to_dict(), human)


def devices_remove(ctx: typer.Context, device: DeviceArg, yes: YesOption = False, dry_run: DryRunOption = False,
                   json: JsonOption = False) -> None:
    """Unpair a device: its record and tokens are deleted (it must pair again)."""
    from vora_cli.core.devices.lookup import find_paired_device
    from vora_cli.core.devices.operations import remove_device

    if not yes and not dry_run:
        find_paired_device(install_of(ctx), device)  # an unknown id is an error, not a question
    if not dry_run and not output(ctx, json).confirm(f"Unpair device {device}?", yes=yes):
        raise VoraError("refused", "not removed", "nothing was written")
    _emit_device(ctx, json, remove_device(install_of(ctx), device, dry_run=dry_run))


def devices_revoke(ctx: typer.Context, device: DeviceOpt, role: RoleOpt, dry_run: DryRunOption = False,
                   json: JsonOption = False) -> None:
    """Revoke one role's token (the device stays paired; 'rotate' issues a new token)."""
    from vora_cli.core.devices.operations import revoke_token

    _emit_device(ctx, json, revoke_token(install_of(ctx), device, role, dry_run=dry_run))


def devices_rename(ctx: typer.Context, device: DeviceArg,
                   label: Annotated[str, typer.Argument(help="The operator label to show for this device.")],
                   dry_run: DryRunOption = False, json: JsonOption = False) -> None:
    """Set a device's operator label (shown by 'list' instead of its displayName)."""
    from vora_cli.core.devices.operations import rename_device

    _emit_device(ctx, json, rename_device(install_of(ctx), device, label, dry_run=dry_run))


def devices_rotate(
    ctx: typer.Context,
    device: DeviceOpt,
    role: RoleOpt,
    scope: Annotated[
        list[str] | None, typer.Option("--scope", metavar="SCOPE", help="A scope for the new token (repeat); default: the current token's.")
    ] = None,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Mint a new token for one role and print it once (the only command that prints a token)."""
    from vora_cli.core.devices.operations import rotate_token

    result = rotate_token(install_of(ctx), device, role, scope, dry_run=dry_run)

    def human(out: Output) -> None:
        scopes = ", ".join(result.scopes) or "-"
        if result.token is None:
            out.line(f"Would rotate the {result.role} token of {result.name} ({result.device_id[:12]}); scopes {scopes}")
            report_written(out, result.report)
            return
        # stdout holds the token alone, so TOKEN=$(vora devices rotate ...) works; the rest is stderr.
        out.line(result.token)
        out.note(f"new {result.role} token of {result.name} ({result.device_id[:12]}), scopes {scopes}")
        out.note("shown once: it is not printed again by any vora command")
        out.note(f"wrote {', '.join(result.report.written)}; the old token stops working; this {result.takes_effect}")

    output(ctx, json).emit(result.to_dict(), human)


def devices_clear(
    ctx: typer.Context,
    yes: YesOption = False,
    pending: Annotated[bool, typer.Option("--pending", help="Also reject every pending request.")] = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Remove every paired device (with --pending, also reject every pending request)."""
    from vora_cli.core.devices.operations import clear_store

    what = "every paired device" + (" and every pending request" if pending else "")
    if not dry_run and not output(ctx, json).confirm(f"Remove {what}?", yes=yes):
        raise VoraError("refused", "nothing cleared", "nothing was written")
    result = clear_store(install_of(ctx), pending=pending, dry_run=dry_run)

    def human(out: Output) -> None:
        verb = "Would remove" if result.report.dry_run else "Removed"
        out.line(f"{verb} {len(result.removed_devices)} paired device(s)"
                 + (f" and {len(result.rejected_requests)} pending request(s)" if pending else ""))
        report_written(out, result.report)

    output(ctx, json).emit(result.to_dict(), human)
