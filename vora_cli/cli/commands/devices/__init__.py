"""`vora devices`: approve, reject and manage paired devices on the gateway's own store, offline.

Core logic lives in the package `vora_cli/core/devices/` (identity in `identity.py`), imported inside
the commands so `vora --help` stays light.
"""

COMMANDS = ("list", "approve", "reject", "remove", "revoke", "rotate", "rename", "clear", "identity",
            "demo_request")  # modules, in help order
