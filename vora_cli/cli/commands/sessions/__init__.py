"""`vora sessions`: what each chat holds and what compaction kept, read offline from the files.

Core logic lives in `vora_cli/core/sessions/`, imported inside the commands so `vora --help` stays light.
"""

COMMANDS = ("list", "show")  # modules, in help order
