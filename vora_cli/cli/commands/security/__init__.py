"""`vora security`: what an attacker could use on this install, found offline (docs/security.md)."""

COMMANDS = ("audit",)  # modules, in help order
