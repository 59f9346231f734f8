"""Where a store entry's transcript is (spec sessions.md, "Transcripts": path rules and
archive names), the real directories cached (one `lstat` per transcript, not one per path
component)."""

from __future__ import annotations

import functools
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path

from vora_cli.core.paths import names_a_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# The gateway's `/^[a-z0-9][a-z0-9._-]{0,127}$/i`, both cases spelled out (as `NAME_RE` in core/text.py:
# IGNORECASE also took U+0130, U+0131, U+017F, U+212A, and `$` a final newline; JavaScript takes neither).
SAFE_SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\Z")

_ARCHIVE = re.compile(
    r"(?:\.jsonl\.(?:deleted|reset|bak)\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{3})?Z|^sessions\.json\.bak\.\d+)$"
)
_CHECKPOINT = r"\.checkpoint\.[0-9a-f-]{8,}\.jsonl$"


def is_archive_name(name: str) -> bool:
    return _ARCHIVE.search(name) is not None


def is_checkpoint_name(name: str) -> bool:
    return re.search(_CHECKPOINT, name, re.IGNORECASE) is not None


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


@functools.lru_cache(maxsize=256)
def _real_dir(path: str) -> str:
    return os.path.realpath(path)


def _realpath(path: str) -> tuple[str, os.stat_result | None]:
    """`os.path.realpath`, with the directory part cached (a store's transcripts share one
    directory, so listing 1,000 sessions costs one `lstat` each, not one per path component),
    and the `lstat` of `path` when it is not a symlink: then also its `stat`."""
    try:
        info: os.stat_result | None = os.lstat(path)
    except (OSError, ValueError):
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        return os.path.realpath(path), None
    head, tail = os.path.split(path)
    return os.path.join(_real_dir(head), tail), info


def _resolve_session_file(value: str, sessions_dir: str, state_dir: str) -> tuple[str | None, os.stat_result | None]:
    """(the transcript `sessionFile` names, its `stat` when already known), or (None, None)."""
    if not value.strip() or not names_a_file(value):
        return None, None
    real_dir = _real_dir(sessions_dir)
    if not os.path.isabs(value):
        joined = os.path.normpath(os.path.join(sessions_dir, value))
        real, info = _realpath(joined)
        return (joined, info) if _inside(real, real_dir) else (None, None)
    clean = os.path.normpath(value)
    real, info = _realpath(clean)
    # the lstat was of the normalised path: it is the named file's only when nothing was removed
    # (`link/..` resolves through the link on disk, not in normpath), and the path is then
    # spelled as `Path` spells it, its `..` kept
    path, known = (value, info) if clean == value else (str(Path(value)), None)
    if _inside(real, real_dir):
        return path, known
    agents_root = _real_dir(os.path.join(state_dir, "agents"))
    if _inside(real, agents_root):
        rel = Path(os.path.relpath(real, agents_root)).parts
        if len(rel) == 3 and rel[1] == "sessions":
            return path, known
    return None, None


def located_transcript(entry: Mapping[str, Any], sessions_dir: str, state_dir: str) -> tuple[str | None, int | None]:
    """(`transcript_path` as a string, `file_size` of it), with one system call per entry where one does
    (the `lstat` that resolving the path took is its `stat` when it is not a symlink)."""
    session_file = entry.get("sessionFile")
    if isinstance(session_file, str):
        resolved, info = _resolve_session_file(session_file, sessions_dir, state_dir)
        if resolved is not None:
            if info is None:
                return resolved, file_size(resolved)
            return resolved, info.st_size if stat.S_ISREG(info.st_mode) else None
    session_id = entry.get("sessionId")
    if isinstance(session_id, str) and SAFE_SESSION_ID.match(session_id):
        path = os.path.join(sessions_dir, f"{session_id}.jsonl")
        return path, file_size(path)
    return None, None


def transcript_path(entry: Mapping[str, Any], sessions_dir: Path, state_dir: Path) -> Path | None:
    """The entry's transcript: `sessionFile` when it resolves within the sessions dir (or an
    agent's own sessions dir), else `<sessionsDir>/<sessionId>.jsonl`; None without a safe id."""
    found = located_transcript(entry, str(sessions_dir), str(state_dir))[0]
    return Path(found) if found is not None else None


def file_size(path: Path | str | None) -> int | None:
    """`stat` size of a regular file, None when missing (a transcript is never opened here)."""
    if path is None:
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None
