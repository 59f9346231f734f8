"""`vora backup`: archives of an install that the gateway reads too, proven by their hashes.

Core logic lives in `vora_cli/core/backup/`, imported inside the commands so `vora --help` stays light.
"""

COMMANDS = ("create", "verify", "restore", "list")  # modules, in help order
