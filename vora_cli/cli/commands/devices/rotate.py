"""`vora devices rotate`: mint a new token for one role."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import report_written
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.devices._options import DeviceOption, RoleOption
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption
    from vora_cli.cli.output import Output


@command("rotate", examples=("vora devices rotate --device 96ce6dad --role operator --scope operator.read",))
def devices_rotate(
    state: AppState,
    device: DeviceOption,
    role: RoleOption,
    scope: Annotated[
        list[str] | None, typer.Option("--scope", metavar="SCOPE", help="A scope for the new token (repeat); default: the current token's.")
    ] = None,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Mint a new token for one role and print it once (the only command that prints a token)."""
    from vora_cli.core.devices.operations import rotate_token

    result = rotate_token(state.install, device, role, scope, dry_run=dry_run)

    def human(out: Output) -> None:
        scopes = ", ".join(result.scopes) or "-"
        if result.token is None:
            out.line(f"Would rotate the {result.role} token of {result.name} ({result.device_id[:12]}); scopes {scopes}")
            report_written(out, result.report)
            return
        # stdout holds the token alone, so TOKEN=$(vora devices rotate ...) works; the rest is stderr.
        out.line(result.token)
        out.note(f"New {result.role} token of {result.name} ({result.device_id[:12]}), scopes {scopes}")
        out.note("Shown once: it is not printed again by any vora command")
        out.note(f"Wrote {', '.join(result.report.written)}; the old token stops working; this {result.takes_effect}")

    state.output(json).emit(result.to_dict(), human)
