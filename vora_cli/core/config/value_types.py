"""The closed set `vora config set --type` takes, declared once: the command's help, its
validation (`operations.parse_cli_value`) and shell completion (`cli/docgen/tree.py`) read it.
Alone in a module so the command's help costs no import of the config code."""

VALUE_TYPES = ("string", "number", "integer", "boolean", "json")
