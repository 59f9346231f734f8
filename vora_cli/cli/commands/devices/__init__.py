"""`vora devices`: approve, reject and manage paired devices on the gateway's own store, offline.

One small module per command; this file only composes them. Core logic lives in
the package `vora_cli/core/devices/` (identity in `identity.py`), imported inside the commands so
`vora --help` stays light.
"""

from __future__ import annotations

from vora_cli.cli.commands.devices import approve, demo, identity, listing, manage, reject
from vora_cli.cli.common import add_command, command_group
from vora_cli.cli.groups import GROUP_HELP

app = command_group(GROUP_HELP["devices"])

add_command(app, "list", listing.devices_list, epilog="Example: vora devices list --pending")
add_command(app, "approve", approve.devices_approve,
            epilog="Examples: vora devices approve --latest; vora devices approve --device 96ce6dad")
add_command(app, "reject", reject.devices_reject, epilog="Example: vora devices reject --device 96ce6dad")
add_command(app, "remove", manage.devices_remove, epilog="Example: vora devices remove 96ce6dad --yes")
add_command(app, "revoke", manage.devices_revoke,
            epilog="Example: vora devices revoke --device 96ce6dad --role operator")
add_command(app, "rotate", manage.devices_rotate,
            epilog="Example: vora devices rotate --device 96ce6dad --role operator --scope operator.read")
add_command(app, "rename", manage.devices_rename, epilog="Example: vora devices rename 96ce6dad 'ops laptop'")
add_command(app, "clear", manage.devices_clear, epilog="Example: vora devices clear --yes --pending")
add_command(app, "identity", identity.devices_identity, epilog="Example: vora devices identity --create")
add_command(app, "demo-request", demo.devices_demo_request, hidden=True,
            epilog="Example: vora --state-dir examples/vora devices demo-request")
