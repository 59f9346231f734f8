"""Commands vora prints for the operator to run: every argument quoted for a POSIX shell.

A hint or next step is copied and pasted: a path with a space, a config path with brackets or
an id with `$` must come out as one argument (`vora plugins install -l '/src/my engine'`).
"""

from __future__ import annotations

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")


def shell_quote(value: object) -> str:
    """`value` as one shell word: shlex.quote's rule, without importing shlex on every command.
    A word holding a character a terminal would act on or could not show (a control character,
    U+2028/2029, a lone surrogate from a non-UTF-8 byte) takes the `$'…'` form instead: still
    one line, and a non-UTF-8 byte comes back as that byte, so the pasted command names the
    real file.
    """
    text = str(value)
    if text and all(c in _SAFE for c in text):
        return text
    if any(_needs_escape(c) for c in text):
        return "$'" + "".join(_escaped(c) for c in text) + "'"
    return "'" + text.replace("'", "'\"'\"'") + "'"


_NAMED = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _needs_escape(c: str) -> bool:
    # A tab is kept as it is inside '…' (POSIX sh reads it back; nothing for a terminal to act on).
    return (c < " " and c != "\t") or "\x7f" <= c < "\xa0" or c in "\u2028\u2029" or "\ud800" <= c <= "\udfff"


def _escaped(c: str) -> str:
    if c in _NAMED:
        return _NAMED[c]
    if not _needs_escape(c):
        return c
    if "\udc80" <= c <= "\udcff":  # a byte that was not UTF-8 (surrogateescape): the byte itself
        return f"\\x{ord(c) - 0xDC00:02x}"
    return f"\\x{ord(c):02x}" if c < "\x80" else f"\\u{ord(c):04x}"


def command_line(*words: object) -> str:
    """`vora`'s own words joined, each quoted when it needs to be: command_line("vora", "plugins", ...)."""
    return " ".join(shell_quote(word) for word in words)
