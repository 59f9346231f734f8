"""`vora settings`: the operator's own preferences, in the user config dir (docs/settings.md).

Core logic is the package `vora_cli/core/settings/`, imported inside the commands so `vora --help` stays light.
"""

COMMANDS = ("list", "get", "set", "unset", "path")  # modules, in help order
