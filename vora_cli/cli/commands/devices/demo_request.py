"""`vora devices demo-request` (hidden): stage a realistic pending request, to see `list`/`approve` live.

Requests expire 5 minutes after they are made, so a checked-in example store cannot hold a
live one. This stages one the way the gateway does, through the same lock and writer; the key
is freshly generated (or, with --device, a paired device's own key, to see a repair/upgrade).
"""

from __future__ import annotations

import uuid

from vora_cli.cli.commands.devices._shared import report_written
from vora_cli.cli.declare import command
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated, Any

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption
    from vora_cli.cli.output import Output

@command("demo-request", hidden=True, examples=("vora --state-dir examples/vora devices demo-request",))
def devices_demo_request(
    state: AppState,
    role: Annotated[str, typer.Option("--role", metavar="ROLE", help="The role the demo device asks for.")] = "operator",
    scope: Annotated[list[str] | None, typer.Option("--scope", metavar="SCOPE", help="A scope it asks for (repeat).")] = None,
    device: Annotated[
        str | None, typer.Option("--device", metavar="ID", help="Ask again as this paired device (repair/upgrade demo).")
    ] = None,
    platform: Annotated[str | None, typer.Option("--platform", help="Claim this platform (metadata-change demo).")] = None,
    other_key: Annotated[
        bool, typer.Option("--other-key", help="With --device: use a new key for that device id (the loud warning).")
    ] = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Stage a demo pairing request in the store (for trying 'list' and 'approve'; expires in 5 minutes)."""
    from vora_cli.core.devices.identity import generate_keypair
    from vora_cli.core.devices.lookup import require_paired
    from vora_cli.core.devices.operations import stage_request
    from vora_cli.core.devices.store import StoreFiles, read_store

    install = state.install
    paths, now = install.paths, install.now_ms
    scopes = scope if scope else ["operator.read"] if role == "operator" else []
    request: dict[str, Any]
    if device is not None:
        snap = read_store(StoreFiles.of(paths))
        device_id = require_paired(snap.paired, device, paths.state_dir)
        known = snap.paired[device_id]
        request = {"requestId": str(uuid.uuid4()), "deviceId": device_id}
        for key in ("publicKey", "displayName", "platform", "deviceFamily", "clientId", "clientMode"):
            if key in known:
                request[key] = known[key]
        if other_key:
            request["publicKey"] = generate_keypair().public_key
    else:
        pair = generate_keypair()
        request = {
            "requestId": str(uuid.uuid4()),
            "deviceId": pair.device_id,
            "publicKey": pair.public_key,
            "displayName": "demo-phone",
            "platform": "ios 18.1",
            "deviceFamily": "iphone",
            "clientId": "vora-ios",
            "clientMode": "ui",
        }
    if platform is not None:
        request["platform"] = platform
    request.update({"role": role, "roles": [role], "scopes": scopes, "remoteIp": "192.168.1.23",
                    "silent": False, "isRepair": False, "ts": now})
    result = stage_request(install, request, dry_run=dry_run)

    def human(out: Output) -> None:
        verb = "Would stage" if result.report.dry_run else "Staged"
        out.line(f"{verb} demo request {result.request_id} of {result.name} ({result.device_id[:12]}); "
                 "it expires in 5 minutes")
        report_written(out, result.report)
        out.note(f"Approve it with: {command_line('vora', 'devices', 'approve', result.request_id)}")

    state.output(json).emit(result.to_dict(), human)
