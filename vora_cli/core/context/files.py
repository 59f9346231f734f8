"""Which bootstrap files the gateway looks for, and how each is read (spec ``context.md`` § Which files).

A file that cannot be injected is *missing*, with a reason; files are read one at a time, so
memory stays proportional to the largest file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import is_within

# The ASCII members of JavaScript's trimEnd set (text.JS_WHITESPACE), as byte values.
_ASCII_WHITESPACE = b"\t\n\x0b\x0c\r "
MAX_FILE_BYTES = 2 * 1024 * 1024  # spec § Which files: larger counts as missing

BOOTSTRAP_FILE_NAMES: tuple[str, ...] = (
    "AGENTS.md",
    "SOUL.md",
    "TOOLS.md",
    "IDENTITY.md",
    "USER.md",
    "HEARTBEAT.md",
    "BOOTSTRAP.md",
)
MEMORY_FILE_NAMES: tuple[str, ...] = ("MEMORY.md", "memory.md")
MINIMAL_SESSION_FILE_NAMES = frozenset({"AGENTS.md", "TOOLS.md", "SOUL.md", "IDENTITY.md", "USER.md"})
SESSIONS: tuple[str, ...] = ("main", "subagent", "cron")

# Why a file counts as missing (spec § Which files).
MISSING_ABSENT = "absent"
MISSING_TOO_LARGE = "too_large"
MISSING_SYMLINK_OUTSIDE = "symlink_outside_workspace"
MISSING_HARDLINKED = "hardlinked"
MISSING_UNREADABLE = "unreadable"

MISSING_REASON_TEXT = {
    MISSING_ABSENT: "does not exist",
    MISSING_TOO_LARGE: "larger than 2 MiB",
    MISSING_SYMLINK_OUTSIDE: "symlink to a target outside the workspace",
    MISSING_HARDLINKED: "has more than one hard link",
    MISSING_UNREADABLE: "cannot be read",
}


def check_session(session: str) -> None:
    """A session kind is one of SESSIONS (`--kind`: its help, completion and this check share it)."""
    if session not in SESSIONS:
        raise VoraError("usage", f"invalid --kind {session!r}",
                        f"use --kind {', '.join(SESSIONS[:-1])} or {SESSIONS[-1]}")


def bootstrap_file_names(workspace: Path, session: str = "main") -> list[str]:
    """The bootstrap files the gateway looks for, in injection order (spec § Which files)."""
    check_session(session)
    if session != "main":
        return [n for n in BOOTSTRAP_FILE_NAMES if n in MINIMAL_SESSION_FILE_NAMES]
    names = list(BOOTSTRAP_FILE_NAMES)
    for candidate in MEMORY_FILE_NAMES:
        if os.path.lexists(workspace / candidate):
            names.append(candidate)
            break
    return names


def read_bootstrap_file(workspace: Path, name: str) -> tuple[str | None, str | None]:
    """``(text, None)`` for a readable file, ``(None, reason)`` when it counts as missing.

    The text comes without its trailing ASCII whitespace (spec § Per-file trim, which every
    caller applies), dropped from the bytes: they cannot end a UTF-8 sequence, so the decoded
    rest is the same."""
    path = workspace / name
    try:
        lst = os.lstat(path)
    except (FileNotFoundError, UnicodeEncodeError):  # a lone surrogate in the name: no such file can exist
        return None, MISSING_ABSENT
    except OSError:
        return None, MISSING_UNREADABLE
    if stat.S_ISLNK(lst.st_mode):
        try:
            target = os.path.realpath(path, strict=True)
        except FileNotFoundError:
            return None, MISSING_ABSENT
        except OSError:
            return None, MISSING_UNREADABLE
        if not is_within(target, os.path.realpath(workspace)):
            return None, MISSING_SYMLINK_OUTSIDE
    try:
        # O_NONBLOCK: opening a FIFO planted in the workspace must not hang (it counts as
        # unreadable); for a regular file the flag changes nothing.
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode):
                return None, MISSING_UNREADABLE
            if st.st_size > MAX_FILE_BYTES:
                return None, MISSING_TOO_LARGE
            if st.st_nlink > 1:
                return None, MISSING_HARDLINKED
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None, MISSING_UNREADABLE
    if len(data) > MAX_FILE_BYTES:
        return None, MISSING_TOO_LARGE
    # Invalid UTF-8 becomes U+FFFD. Python's "replace" follows the same maximal-subpart rule as
    # the WHATWG decoder the gateway uses (checked against Node on random byte strings).
    tail = data[-64:]
    kept = tail.rstrip(_ASCII_WHITESPACE)
    # Nearly always the whitespace ends within the last 64 bytes; else rstrip all (C speed).
    end = len(data) - len(tail) + len(kept) if kept else len(data.rstrip(_ASCII_WHITESPACE))
    return str(memoryview(data)[:end], "utf-8", "replace"), None
