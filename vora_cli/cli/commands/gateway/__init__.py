"""`vora gateway`: ask the running gateway what it actually did (spec gateway.md).

Read-only over the network; the only files written are this host's device identity and
device token. Core logic lives in `vora_cli/core/gateway/`, imported inside the commands.
"""

COMMANDS = ("status", "call")  # modules, in help order
