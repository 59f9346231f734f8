"""`vora devices identity`: this host's device identity (never its private key)."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import ago
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption
    from vora_cli.cli.output import Output

@command("identity", examples=("vora devices identity --create",))
def devices_identity(
    state: AppState,
    create: Annotated[bool, typer.Option("--create", help="Create an Ed25519 identity when there is none.")] = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Show this host's device identity: device id and public key (the private key is never shown)."""
    from vora_cli.core.devices.identity import device_identity

    install = state.install
    view = device_identity(install, create=create, dry_run=dry_run)
    now = install.now_ms

    def human(out: Output) -> None:
        if not view.exists:
            out.line(f"dry run: would create an Ed25519 identity at {view.path}")
            return
        if view.created:
            out.note(f"Wrote {view.path} (new Ed25519 identity, mode 0600)")
        out.line(f"device id:  {view.device_id or '(not a device id: not shown)'}")
        out.line(f"public key: {view.public_key}")
        out.line(f"created:    {ago(view.created_at_ms, now)}")
        out.line(f"file:       {view.path}")
        if view.device_id_matches_key is False:
            out.warn("the deviceId in the file is not the sha256 of its public key; the gateway will refuse it")

    state.output(json).emit(view.to_dict(), human)
