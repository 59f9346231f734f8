"""`vora devices`: approve, reject and manage paired devices on the gateway's own store, offline.

One small module per command; this file only composes them. Core logic lives in
`vora_cli/core/devices.py` and `vora_cli/core/identity.py`, imported inside the commands so
`vora --help` stays light.
"""

from __future__ import annotations

import typer

from vora_cli.cli.commands.devices import approve, demo, identity, listing, manage, reject

app = typer.Typer(
    help="Approve, reject and manage paired devices on the gateway's pairing store (works offline). "
         "vora itself connects (vora gateway, vora logs) with operator.read only, so a loopback gateway pairs it "
         "silently; another client sharing this state dir's identity that asks for more scopes then needs one "
         "approval (vora devices approve --latest).",
    no_args_is_help=True,
)

app.command("list", epilog="Example: vora devices list --pending")(listing.devices_list)
app.command("approve", epilog="Examples: vora devices approve --latest; vora devices approve --device 96ce6dad")(
    approve.devices_approve
)
app.command("reject", epilog="Example: vora devices reject --device 96ce6dad")(reject.devices_reject)
app.command("remove", epilog="Example: vora devices remove 96ce6dad --yes")(manage.devices_remove)
app.command("revoke", epilog="Example: vora devices revoke --device 96ce6dad --role operator")(manage.devices_revoke)
app.command(
    "rotate", epilog="Example: vora devices rotate --device 96ce6dad --role operator --scope operator.read"
)(manage.devices_rotate)
app.command("rename", epilog="Example: vora devices rename 96ce6dad 'ops laptop'")(manage.devices_rename)
app.command("clear", epilog="Example: vora devices clear --yes --pending")(manage.devices_clear)
app.command("identity", epilog="Example: vora devices identity --create")(identity.devices_identity)
app.command("demo-request", hidden=True, epilog="Example: vora --state-dir examples/vora devices demo-request")(
    demo.devices_demo_request
)
