"""`vora config`: read and edit vora.json without losing a comment (spec config.md)."""

COMMANDS = ("file", "get", "set", "unset", "patch", "validate", "schema", "edit")  # modules, in help order
