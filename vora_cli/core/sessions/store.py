"""The session store `sessions.json`, session keys and kinds (spec sessions.md, "The store",
"Session keys and kinds").

Read-only: the store is opened for reading, never locked, never written.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vora_cli.core.agents import StoreTarget
from vora_cli.core.errors import VoraError
from vora_cli.core.nesting import TooDeep
from vora_cli.core.sessions.jsfmt import is_finite_number, js_round, loads, well_formed

Entry = dict[str, Any]

SAFE_SESSION_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,127}$", re.IGNORECASE)
GLOBAL_KEYS = ("global", "unknown")
KINDS = ("global", "unknown", "subagent", "cron", "acp", "group", "main", "direct")
DEFAULT_MAIN_KEY = "main"
# The gateway reads sessions.json as one JavaScript string, and V8's longest is 2**29 - 24
# characters (node 24: buffer.constants.MAX_STRING_LENGTH): a bigger store it reads as empty.
# vora refuses one unread, so a huge store never fills memory (docs/sessions.md).
STORE_MAX_BYTES = 536_870_887


def main_key(config: Mapping[str, Any]) -> str:
    """Config `session.mainKey`, lower-cased, default `main`."""
    session = config.get("session")
    value = session.get("mainKey") if isinstance(session, Mapping) else None
    if isinstance(value, str) and value.strip():
        return value.strip().lower()
    return DEFAULT_MAIN_KEY


@dataclass(frozen=True)
class Store:
    """One store: its entries in file order (entries that are not objects are left out)."""

    target: StoreTarget
    exists: bool
    entries: dict[str, Entry]

    @property
    def path(self) -> Path:
        return self.target.path


@dataclass(frozen=True)
class StoreError:
    """Why a store could not be read, with the JSON position when there is one."""

    path: Path
    message: str
    line: int | None = None
    col: int | None = None

    @property
    def location(self) -> str:
        if self.line is None:
            return str(self.path)
        return f"{self.path}:{self.line}:{self.col}"

    def to_error(self) -> VoraError:
        return VoraError("store_unreadable", f"{self.location}: {self.message}",
                         "the gateway rewrites sessions.json whole; check the file or restore sessions.json.bak.N")


def read_store(target: StoreTarget) -> Store | StoreError:
    """Read a store; absent is empty, anything that is not a JSON object is a `StoreError`."""
    import json

    try:
        info = os.stat(target.path)
        if not stat.S_ISREG(info.st_mode) and not os.path.isdir(target.path):
            return StoreError(target.path, "is not a regular file")  # a FIFO would block
        if stat.S_ISREG(info.st_mode) and info.st_size > STORE_MAX_BYTES:
            # never read whole (a 1.5 GB store took 1.9 GB of memory: issue 22, class 9)
            return StoreError(target.path, f"is {info.st_size:,} bytes: over {STORE_MAX_BYTES:,}, the largest "
                                           "store the gateway can load (it reads such a file as empty)")
        with open(target.path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return Store(target, False, {})
    except IsADirectoryError:
        return StoreError(target.path, "is a directory, not a file")
    except OSError as error:
        return StoreError(target.path, f"cannot read: {error.strerror}")
    try:
        value = loads(data)
    except UnicodeDecodeError:
        try:
            value = loads(data.decode("utf-8", "replace"))
        except json.JSONDecodeError as error:
            return StoreError(target.path, f"not valid JSON: {error.msg}", error.lineno, error.colno)
        except ValueError as error:
            return StoreError(target.path, f"not valid JSON: {error}")
    except json.JSONDecodeError as error:
        what = error.msg if isinstance(error, TooDeep) else f"not valid JSON: {error.msg}"
        return StoreError(target.path, what, error.lineno, error.colno)
    except (ValueError, RecursionError) as error:
        return StoreError(target.path, f"not valid JSON: {error}")
    if not isinstance(value, dict):
        return StoreError(target.path, "the top level is not an object")
    return Store(target, True, {k: v for k, v in value.items() if isinstance(v, dict)})


def updated_at(entry: Mapping[str, Any]) -> int | float:
    value = entry.get("updatedAt")
    return value if is_finite_number(value) else 0


def find_key(entries: Mapping[str, Entry], key: str) -> str | None:
    """The stored key for `key`: exact, then lower-cased, then any key equal to it lower-cased
    (the most recent `updatedAt` wins)."""
    if key in entries:
        return key
    lowered = key.lower()
    if lowered in entries:
        return lowered
    matches = [k for k in entries if k.lower() == lowered]
    if not matches:
        return None
    return max(matches, key=lambda k: updated_at(entries[k]))


# --- keys and kinds ----------------------------------------------------------------------


def parse_key(key: str) -> tuple[str, str] | None:
    """`(agentId, rest)` of `agent:<agentId>:<rest>`, or None when the key does not parse."""
    parts = [p for p in key.lower().split(":") if p]
    if len(parts) < 3 or parts[0] != "agent":
        return None
    return parts[1], ":".join(parts[2:])


def session_kind(key: str, entry: Mapping[str, Any], main_key: str) -> str:
    """The first rule of the spec's kind list that matches."""
    lowered = key.lower()
    if key in GLOBAL_KEYS:
        return key
    parsed = parse_key(key)
    rest = parsed[1] if parsed else None
    if lowered.startswith("subagent:") or (rest or "").startswith("subagent:"):
        return "subagent"
    if (rest or "").startswith("cron:"):
        return "cron"
    if lowered.startswith("acp:") or (rest or "").startswith("acp:"):
        return "acp"
    if entry.get("chatType") in ("group", "channel") or ":group:" in lowered or ":channel:" in lowered:
        return "group"
    if rest is not None and rest == main_key:
        return "main"
    return "direct"


def key_agent(key: str, store_agent: str) -> str:
    parsed = parse_key(key)
    return parsed[0] if parsed else store_agent


# --- numbers an entry holds ---------------------------------------------------------------


def fresh_total(entry: Mapping[str, Any]) -> int | float | None:
    """Context used by the last run, or None when unknown (stale or not a finite number >= 0)."""
    total = entry.get("totalTokens")
    if not is_finite_number(total) or total < 0 or entry.get("totalTokensFresh") is False:
        return None
    return total


def _positive(value: Any) -> int | float | None:
    return value if is_finite_number(value) and value > 0 else None


def defaults_context_tokens(config: Mapping[str, Any]) -> int | float | None:
    agents = config.get("agents")
    defaults = agents.get("defaults") if isinstance(agents, Mapping) else None
    return _positive(defaults.get("contextTokens")) if isinstance(defaults, Mapping) else None


def context_window(entry: Mapping[str, Any], config: Mapping[str, Any]) -> int | float | None:
    """`contextTokens` for list/show: the entry's, else `agents.defaults.contextTokens`."""
    own = _positive(entry.get("contextTokens"))
    return own if own is not None else defaults_context_tokens(config)


def context_percent(used: int | float | None, window: int | float | None) -> int | None:
    if used is None or window is None:
        return None
    return min(999, js_round(used / window * 100))


def compaction_count(entry: Mapping[str, Any]) -> int | float:
    value = entry.get("compactionCount")
    return value if is_finite_number(value) else 0


def report_source(entry: Mapping[str, Any]) -> str | None:
    report = entry.get("systemPromptReport")
    if not isinstance(report, dict):
        return None
    source = report.get("source")
    return source if isinstance(source, str) else None


def entry_text(entry: Mapping[str, Any], name: str) -> str | None:
    """A text field of an entry as shown: a lone surrogate the gateway wrote becomes U+FFFD
    (spec sessions.md, "Reading rules"); not a string (or empty) is None."""
    value = entry.get(name)
    return well_formed(value) if isinstance(value, str) and value else None


def entry_value(entry: Mapping[str, Any], name: str) -> Any:
    """A field as stored, for JSON, with a string shown as `entry_text` shows it."""
    value = entry.get(name)
    return well_formed(value) if isinstance(value, str) else value


def effective_model(entry: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(model, provider) of the last run; the overrides win when set."""
    return (entry_text(entry, "modelOverride") or entry_text(entry, "model"),
            entry_text(entry, "providerOverride") or entry_text(entry, "modelProvider"))


# --- transcripts ---------------------------------------------------------------------------

_ARCHIVE = re.compile(
    r"(?:\.jsonl\.(?:deleted|reset|bak)\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{3})?Z|^sessions\.json\.bak\.\d+)$"
)
_CHECKPOINT = re.compile(r"\.checkpoint\.[0-9a-f-]{8,}\.jsonl$", re.IGNORECASE)


def is_archive_name(name: str) -> bool:
    return _ARCHIVE.search(name) is not None


def is_checkpoint_name(name: str) -> bool:
    return _CHECKPOINT.search(name) is not None


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


@functools.lru_cache(maxsize=256)
def _real_dir(path: str) -> str:
    return os.path.realpath(path)


def _realpath(path: str) -> str:
    """`os.path.realpath`, with the directory part cached: a store's transcripts share one
    directory, so listing 1,000 sessions costs one `lstat` each, not one per path component."""
    if os.path.islink(path):
        return os.path.realpath(path)
    head, tail = os.path.split(path)
    return os.path.join(_real_dir(head), tail)


def _resolve_session_file(value: str, sessions_dir: Path, state_dir: Path) -> Path | None:
    if not value.strip() or "\x00" in value:
        return None
    real_dir = _real_dir(str(sessions_dir))
    if not os.path.isabs(value):
        joined = os.path.normpath(os.path.join(sessions_dir, value))
        return Path(joined) if _inside(_realpath(joined), real_dir) else None
    real = _realpath(os.path.normpath(value))
    if _inside(real, real_dir):
        return Path(value)
    agents_root = _real_dir(str(state_dir / "agents"))
    if _inside(real, agents_root):
        rel = Path(os.path.relpath(real, agents_root)).parts
        if len(rel) == 3 and rel[1] == "sessions":
            return Path(value)
    return None


def transcript_path(entry: Mapping[str, Any], sessions_dir: Path, state_dir: Path) -> Path | None:
    """The entry's transcript: `sessionFile` when it resolves within the sessions dir (or an
    agent's own sessions dir), else `<sessionsDir>/<sessionId>.jsonl`; None without a safe id."""
    session_file = entry.get("sessionFile")
    if isinstance(session_file, str):
        resolved = _resolve_session_file(session_file, sessions_dir, state_dir)
        if resolved is not None:
            return resolved
    session_id = entry.get("sessionId")
    if isinstance(session_id, str) and SAFE_SESSION_ID.match(session_id):
        return sessions_dir / f"{session_id}.jsonl"
    return None


def file_size(path: Path | None) -> int | None:
    """`stat` size of a regular file, None when missing (a transcript is never opened here)."""
    if path is None:
        return None
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def finite_or_none(value: Any) -> Any:
    return value if is_finite_number(value) else None


def age_text(age_ms: int | float | None) -> str:
    """`just now`, `Nm ago`, `Nh ago`, `Nd ago` (each unit rounded half-up from the one below)."""
    if age_ms is None:
        return "unknown"
    seconds = js_round(max(0, age_ms) / 1000)
    minutes = js_round(seconds / 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes}m ago"
    hours = js_round(minutes / 60)
    if hours < 48:
        return f"{hours}h ago"
    return f"{js_round(hours / 24)}d ago"


def kilo(value: int | float | None) -> str:
    """`9.5k` below 10,000, `200k` from 10,000 (`toFixed` rounding)."""
    from vora_cli.core.sessions.jsfmt import to_fixed

    if value is None:
        return "unknown"
    return to_fixed(value / 1000, 0 if value >= 10_000 else 1) + "k"


def context_text(used: int | float | None, window: int | float | None, percent: int | None) -> str:
    """`14.3k/32k (45%)`, unknown parts as `unknown` / `?`."""
    return f"{kilo(used)}/{kilo(window) if window is not None else '?'} ({percent if percent is not None else '?'}%)"
