"""Commands vora prints for the operator to run: every argument quoted for a POSIX shell.

A hint or next step is copied and pasted: a path with a space, a config path with brackets or
an id with `$` must come out as one argument (`vora plugins install -l '/src/my engine'`).
"""

from __future__ import annotations

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")


def shell_quote(value: object) -> str:
    """`value` as one shell word: shlex.quote's rule, without importing shlex on every command."""
    text = str(value)
    if text and all(c in _SAFE for c in text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def command_line(*words: object) -> str:
    """`vora`'s own words joined, each quoted when it needs to be: command_line("vora", "plugins", ...)."""
    return " ".join(shell_quote(word) for word in words)
