"""`vora context`: what the gateway injects from the workspace files, computed offline."""

COMMANDS = ("list", "detail", "json", "preview")  # modules, in help order
