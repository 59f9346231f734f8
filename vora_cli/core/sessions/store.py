"""The session store `sessions.json`, session keys and kinds (spec sessions.md, "The store",
"Session keys and kinds").

Read-only: the store is opened for reading, never locked, never written.
"""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Callable, Mapping
from io import BufferedReader
from pathlib import Path

from vora_cli.core.agents import StoreTarget
from vora_cli.core.errors import VoraError
from vora_cli.core.nesting import TooDeep
from vora_cli.core.records import dataclass
from vora_cli.core.sessions.jsfmt import is_finite_number, js_round, loads, to_fixed, well_formed
from vora_cli.core.sessions.locate import is_archive_name as is_archive_name
from vora_cli.core.sessions.locate import is_checkpoint_name as is_checkpoint_name
from vora_cli.core.sessions.locate import transcript_path as transcript_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")

Entry = dict[str, "Any"]

GLOBAL_KEYS = ("global", "unknown")
KINDS = ("global", "unknown", "subagent", "cron", "acp", "group", "main", "direct")
DEFAULT_MAIN_KEY = "main"


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
    return read_store_entries(target)


def read_store_entries(target: StoreTarget, keep: Callable[[Entry], Entry] | None = None) -> Store | StoreError:
    """`read_store`, with each entry passed through `keep` as it is read: memory holds what
    `keep` returns, not the parsed store."""
    read = _read_each(target, (lambda _key, entry: keep(entry)) if keep is not None else (lambda _key, entry: entry))
    if isinstance(read, StoreError):
        return read
    exists, entries = read
    return Store(target, exists, entries)


def read_store_rows(target: StoreTarget, make: Callable[[str, Entry], T]) -> dict[str, T] | StoreError:
    """What `make(key, entry)` makes of each entry of the store, in file order (a list makes its
    rows as the entries are read: memory holds the rows, not the parsed store); absent is empty."""
    read = _read_each(target, make)
    return read if isinstance(read, StoreError) else read[1]


def _read_each(target: StoreTarget, make: Callable[[str, Entry], T]) -> tuple[bool, dict[str, T]] | StoreError:
    """(whether the store exists, `make(key, entry)` of each entry that is an object); the last of
    a duplicate key wins, in the place of the first (as json.loads)."""
    from vora_cli.core.sessions.storefile import StartOver, members

    opened = _open_store(target)
    if isinstance(opened, Store):
        return False, {}
    if isinstance(opened, StoreError):
        return opened
    with opened as handle:
        made: dict[str, Any] = {}
        refused: Exception | None = None  # what `make` raised, raised once the whole file has read well
        try:
            for key, value in members(handle):
                if refused is not None:
                    continue
                try:
                    made[key] = make(key, value) if isinstance(value, dict) else _NOT_AN_OBJECT
                except Exception as error:  # a store that turns out not to parse is skipped first
                    refused = error  # (a path no file system holds raises UnicodeEncodeError)
        except StartOver:
            handle.seek(0)
            whole = _read_whole(target, handle.read())
            if isinstance(whole, StoreError):
                return whole
            return True, {k: make(k, v) for k, v in whole.entries.items()}
    if refused is not None:
        raise refused
    return True, {k: v for k, v in made.items() if v is not _NOT_AN_OBJECT}


_NOT_AN_OBJECT: Any = object()  # an entry that is not an object: left out, even after an object under its key


def read_store_candidates(target: StoreTarget, lowered_keys: set[str],
                          session_id: str | None = None) -> Store | StoreError | None:
    """The entries the key rules can pick: keys equal to one of `lowered_keys` lower-cased, and
    with `session_id` every entry whose `sessionId` may be it; read from the gateway's own layout
    without parsing the others. None when the file is in another layout (read it whole)."""
    import json

    from vora_cli.core.sessions.storefile import scan_layout

    opened = _open_store(target)
    if not isinstance(opened, BufferedReader):
        return opened
    try:
        needle: bytes | None = json.dumps(session_id, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        needle = None  # a lone surrogate: only an escape can spell it, and a backslash is looked for

    def maybe(buf: bytes, start: int, end: int) -> bool:
        """Whether the entry's text could hold `"sessionId": <session_id>`: it holds the string
        as JSON writes it, or a backslash (an escape could spell it otherwise)."""
        if session_id is None:
            return False
        return (needle is not None and buf.find(needle, start, end) != -1) or buf.find(b"\\", start, end) != -1

    with opened as handle:
        found = scan_layout(handle, lambda key: key.lower() in lowered_keys, maybe)
    if found is None:
        return None
    return Store(target, True, {k: v for k, v in found.items() if isinstance(v, dict)})


def _open_store(target: StoreTarget) -> BufferedReader | Store | StoreError:
    """The store opened for reading, or what to answer without reading it (absent: empty)."""
    from vora_cli.core.sessions.storefile import STORE_MAX_BYTES

    try:
        info = os.stat(target.path)
        if stat.S_ISDIR(info.st_mode):
            return StoreError(target.path, "is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            return StoreError(target.path, "is not a regular file")  # a FIFO would block
        if info.st_size > STORE_MAX_BYTES:
            return StoreError(target.path, f"is {info.st_size:,} bytes: over {STORE_MAX_BYTES:,}, the largest "
                                           "store the gateway can load (it reads such a file as empty)")
        return open(target.path, "rb")
    except FileNotFoundError:
        return Store(target, False, {})
    except IsADirectoryError:
        return StoreError(target.path, "is a directory, not a file")
    except OSError as error:
        return StoreError(target.path, f"cannot read: {error.strerror}")


def _read_whole(target: StoreTarget, data: bytes) -> Store | StoreError:
    """The whole-file parse: every error with its message and JSON position."""
    import json

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


@functools.lru_cache(maxsize=4)  # a row asks for its key's agent, then its kind: one parse
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
    """`Math.min(999, Math.round(used / window * 100))`, as the gateway shows it: a ratio past what
    a float holds is Infinity there, so 999 here too (never a float infinity rounded)."""
    if used is None or window is None:
        return None
    ratio = used / window * 100
    return 999 if ratio >= 999 else js_round(ratio)


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


def entry_string(entry: Mapping[str, Any], name: str) -> str | None:
    """`entry_value` when it is a string (empty too), else None."""
    value = entry.get(name)
    if isinstance(value, str):
        return value if value.isascii() else well_formed(value)  # ASCII holds no surrogate: one call less
    return None


def effective_model_name(entry: Mapping[str, Any]) -> str | None:
    """The model of `effective_model` alone (a list's table shows no provider)."""
    return entry_text(entry, "modelOverride") or entry_text(entry, "model")


def effective_model(entry: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(model, provider) of the last run; the overrides win when set."""
    return (effective_model_name(entry),
            entry_text(entry, "providerOverride") or entry_text(entry, "modelProvider"))


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
    if value is None:
        return "unknown"
    if type(value) is int and 10_000 <= value < 2**40:
        # `toFixed(0)` of value / 1000 in integers: a tie (…500) is exact in binary and rounds
        # up; any other quotient is 0.001 or more from a tie, far above the division's error
        return f"{(value + 500) // 1000}k"
    return to_fixed(value / 1000, 0 if value >= 10_000 else 1) + "k"


def context_text(used: int | float | None, window: int | float | None, percent: int | None) -> str:
    """`14.3k/32k (45%)`, unknown parts as `unknown` / `?`."""
    return f"{kilo(used)}/{kilo(window) if window is not None else '?'} ({percent if percent is not None else '?'}%)"
