"""`vora devices`: approve, reject and manage paired devices on the gateway's own store, offline.

One small module per command; this file only composes them. Core logic lives in
the package `vora_cli/core/devices/` (identity in `identity.py`), imported inside the commands so
`vora --help` stays light.
"""

from __future__ import annotations

from vora_cli.cli.commands.devices import approve, demo, identity, listing, manage, reject
from vora_cli.cli.common import add_command, command_group
from vora_cli.cli.groups import GROUP_HELP
from vora_cli.cli.hot import devices as hot

app = command_group(GROUP_HELP["devices"])

add_command(app, "list", listing.devices_list, body=hot.devices_list, examples=("vora devices list --pending",))
add_command(app, "approve", approve.devices_approve, body=hot.devices_approve,
            examples=("vora devices approve --latest", "vora devices approve --device 96ce6dad"))
add_command(app, "reject", reject.devices_reject, examples=("vora devices reject --device 96ce6dad",))
add_command(app, "remove", manage.devices_remove, examples=("vora devices remove 96ce6dad --yes",))
add_command(app, "revoke", manage.devices_revoke,
            examples=("vora devices revoke --device 96ce6dad --role operator",))
add_command(app, "rotate", manage.devices_rotate,
            examples=("vora devices rotate --device 96ce6dad --role operator --scope operator.read",))
add_command(app, "rename", manage.devices_rename, examples=("vora devices rename 96ce6dad 'ops laptop'",))
add_command(app, "clear", manage.devices_clear, examples=("vora devices clear --yes --pending",))
add_command(app, "identity", identity.devices_identity, examples=("vora devices identity --create",))
add_command(app, "demo-request", demo.devices_demo_request, hidden=True,
            examples=("vora --state-dir examples/vora devices demo-request",))
