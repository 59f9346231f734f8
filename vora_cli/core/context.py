"""What the gateway injects from the workspace bootstrap files, computed offline.

Spec: the context spec (``spec/context.md``). Every number here must equal the gateway's, so lengths are
UTF-16 code units (the gateway is JavaScript), "trailing whitespace" is what
``String.prototype.trimEnd`` removes, and the trim and budget rules follow the spec step by
step. Files are read one at a time; memory stays proportional to the largest file.

Strings here may hold lone surrogates: the per-file trim slices plainly by UTF-16 unit, as
the gateway does, and can split a pair. Python keeps such a half as one code point, which
still counts as one unit.
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vora_cli.core.errors import VoraError
from vora_cli.core.skills import SkillsReport, expand_user_path

DEFAULT_MAX_CHARS = 20_000
DEFAULT_TOTAL_MAX_CHARS = 150_000
MIN_FILE_BUDGET_CHARS = 64  # spec § Total budget, step 3
MAX_FILE_BYTES = 2 * 1024 * 1024  # spec § Which files: larger counts as missing
HEAD_RATIO = 0.7
TAIL_RATIO = 0.2
NEAR_LIMIT_RATIO = 0.85

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

# What JavaScript's trimEnd removes (WhiteSpace + LineTerminator). Python's str.rstrip()
# differs: it also strips U+001C-U+001F and U+0085 and keeps U+FEFF.
JS_WHITESPACE = (
    "\u0009\u000a\u000b\u000c\u000d\u0020\u00a0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)

STATUS_OK = "OK"
STATUS_TRUNCATED = "TRUNCATED"
STATUS_MISSING = "MISSING"

CAUSE_MAX_FILE = "max/file"
CAUSE_MAX_TOTAL = "max/total"

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


# --- UTF-16 helpers ---------------------------------------------------------------------


def utf16_len(s: str) -> int:
    """Length in UTF-16 code units, as JavaScript's ``String.length``."""
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def utf16_slice(s: str, start: int, stop: int) -> str:
    """``s.slice(start, stop)`` in JavaScript terms (non-negative bounds); may split a pair."""
    if s.isascii():
        return s[start:stop]
    data = s.encode("utf-16-le", "surrogatepass")
    return data[2 * start : 2 * stop].decode("utf-16-le", "surrogatepass")


def js_trim_end(s: str) -> str:
    """``s.trimEnd()``: JavaScript's whitespace set, not Python's."""
    return s.rstrip(JS_WHITESPACE)


def estimate_tokens(chars: int) -> int:
    """The gateway's token estimate: ``ceil(chars / 4)``."""
    return -(-chars // 4)


# --- caps -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Caps:
    max_chars: int
    max_chars_source: str  # "default" | "config" | "flag"
    total_max_chars: int
    total_max_chars_source: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "maxChars": self.max_chars,
            "maxCharsSource": self.max_chars_source,
            "totalMaxChars": self.total_max_chars,
            "totalMaxCharsSource": self.total_max_chars_source,
        }


def _agents_defaults(config: Mapping[str, Any]) -> Mapping[str, Any]:
    agents = config.get("agents") if isinstance(config, Mapping) else None
    defaults = agents.get("defaults") if isinstance(agents, Mapping) else None
    return defaults if isinstance(defaults, Mapping) else {}


def _config_cap(value: Any) -> int | None:
    # Spec § Caps: "a finite number > 0 (floored)". A JSON bool is not a number.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or value <= 0:
        return None
    return math.floor(value)


def resolve_caps(config: Mapping[str, Any], max_chars_flag: int | None, total_flag: int | None) -> Caps:
    """The per-file and total caps, and where each came from (spec § Caps)."""
    defaults = _agents_defaults(config)

    def pick(flag: int | None, flag_name: str, key: str, fallback: int) -> tuple[int, str]:
        if flag is not None:
            if flag <= 0:
                raise VoraError("usage", f"{flag_name} must be a positive whole number, got {flag}")
            return flag, "flag"
        from_config = _config_cap(defaults.get(key))
        if from_config is not None:
            return from_config, "config"
        return fallback, "default"

    max_chars, max_src = pick(max_chars_flag, "--max-chars", "bootstrapMaxChars", DEFAULT_MAX_CHARS)
    total, total_src = pick(
        total_flag, "--total-max-chars", "bootstrapTotalMaxChars", DEFAULT_TOTAL_MAX_CHARS
    )
    return Caps(max_chars, max_src, total, total_src)


# --- which workspace --------------------------------------------------------------------


@dataclass(frozen=True)
class WorkspaceChoice:
    path: Path
    agent_id: str
    # "flag" | "agent" (agents.list[i].workspace) | "defaults" (agents.defaults.workspace)
    # | "default" (~/.vora/workspace[-<profile>]) | "state-dir" (<stateDir>/workspace-<id>)
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "agentId": self.agent_id, "source": self.source}


def _normalize_agent_id(value: str) -> str:
    return value.strip().lower()


def _string_setting(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise VoraError("invalid", f"{where} must be a string path", f"fix {where} in the config file")
    return value.strip() or None


def resolve_workspace(
    config: Mapping[str, Any],
    *,
    agent_id: str | None,
    workspace_flag: str | None,
    home: Path,
    state_dir: Path,
    profile: str | None,
    config_dir: Path,
) -> WorkspaceChoice:
    """The workspace directory the gateway would use (spec § Which workspace).

    Path values expand ``~`` to ``home``. A relative path in the config is relative to
    ``config_dir`` (the directory of the config file): our decision, since the gateway's
    working directory is unknown offline. A relative ``--workspace`` is relative to the
    current directory, like any path flag. An ``--agent`` that the config does not define is
    an error (``not_found``) rather than a guess.
    """
    agents = config.get("agents") if isinstance(config, Mapping) else None
    raw_list = agents.get("list") if isinstance(agents, Mapping) else None
    entries: list[Mapping[str, Any]] = (
        [e for e in raw_list if isinstance(e, Mapping)] if isinstance(raw_list, list) else []
    )
    ids = [_normalize_agent_id(e["id"]) if isinstance(e.get("id"), str) else "" for e in entries]

    if entries:
        default_index = next((i for i, e in enumerate(entries) if e.get("default") is True), 0)
        if not ids[default_index]:
            ids[default_index] = "main"
        default_id = ids[default_index]
    else:
        default_id = "main"
    chosen = _normalize_agent_id(agent_id) if agent_id is not None else default_id

    if workspace_flag is not None:
        flag_path = expand_user_path(workspace_flag, home=home, base_dir=Path.cwd())
        return WorkspaceChoice(flag_path, chosen, "flag")

    entry_index: int | None = None
    if chosen in ids:
        entry_index = ids.index(chosen)
    elif chosen != default_id:
        known = ", ".join(i for i in ids if i) or "main"
        raise VoraError(
            "not_found",
            f"no agent {chosen!r} in agents.list",
            f"known agents: {known}; or pass --workspace DIR",
        )

    if entry_index is not None:
        own = _string_setting(entries[entry_index].get("workspace"), f"agents.list[{entry_index}].workspace")
        if own:
            return WorkspaceChoice(expand_user_path(own, home=home, base_dir=config_dir), chosen, "agent")

    defaults_ws = _string_setting(_agents_defaults(config).get("workspace"), "agents.defaults.workspace")
    if chosen == default_id:
        if defaults_ws:
            return WorkspaceChoice(
                expand_user_path(defaults_ws, home=home, base_dir=config_dir), chosen, "defaults"
            )
        prof = (profile or "").strip().lower()
        folder = "workspace" if prof in ("", "default") else f"workspace-{prof}"
        return WorkspaceChoice(home / ".vora" / folder, chosen, "default")
    if defaults_ws:
        base = expand_user_path(defaults_ws, home=home, base_dir=config_dir)
        return WorkspaceChoice(base / chosen, chosen, "defaults")
    return WorkspaceChoice(state_dir / f"workspace-{chosen}", chosen, "state-dir")


# --- which files ------------------------------------------------------------------------


def _check_session(session: str) -> None:
    if session not in SESSIONS:
        raise VoraError("usage", f"unknown session kind {session!r}", "use one of: main, subagent, cron")


def bootstrap_file_names(workspace: Path, session: str = "main") -> list[str]:
    """The bootstrap files the gateway looks for, in injection order (spec § Which files)."""
    _check_session(session)
    if session != "main":
        return [n for n in BOOTSTRAP_FILE_NAMES if n in MINIMAL_SESSION_FILE_NAMES]
    names = list(BOOTSTRAP_FILE_NAMES)
    for candidate in MEMORY_FILE_NAMES:
        if os.path.lexists(workspace / candidate):
            names.append(candidate)
            break
    return names


def _is_within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def read_bootstrap_file(workspace: Path, name: str) -> tuple[str | None, str | None]:
    """``(text, None)`` for a readable file, ``(None, reason)`` when it counts as missing."""
    path = workspace / name
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
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
        if not _is_within(target, os.path.realpath(workspace)):
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
    return data.decode("utf-8", "replace"), None


# --- per-file trim and budget clamp -----------------------------------------------------


@dataclass(frozen=True)
class TrimResult:
    content: str
    truncated: bool
    limit: int
    original_chars: int  # N: length of the text without trailing whitespace
    head_chars: int  # 0 when not truncated
    tail_chars: int  # units of the original kept at the end (all of it when tail is 0)


def truncation_marker(name: str, head: int, tail: int, total: int) -> str:
    return f"\n[...truncated, read {name} for full content...]\n…(truncated {name}: kept {head}+{tail} chars of {total})…\n"


def trim_bootstrap_text(text: str, name: str, limit: int) -> TrimResult:
    """Spec § Per-file trim: drop trailing whitespace, then keep 70% head and 20% tail."""
    t = js_trim_end(text)
    data = None if t.isascii() else t.encode("utf-16-le", "surrogatepass")
    n = len(t) if data is None else len(data) // 2
    if n <= limit:
        return TrimResult(t, False, limit, n, 0, 0)
    head = math.floor(limit * HEAD_RATIO)
    tail = math.floor(limit * TAIL_RATIO)
    # JavaScript's t.slice(-0) is the whole string, and so is Python's t[-0:]: a limit under 5
    # makes tail 0 and keeps everything after the marker. Kept on purpose: it is the gateway's.
    tail_start = n - tail if tail > 0 else 0
    if data is None:
        head_text, tail_text = t[:head], t[tail_start:]
    else:
        head_text = data[: 2 * head].decode("utf-16-le", "surrogatepass")
        tail_text = data[2 * tail_start :].decode("utf-16-le", "surrogatepass")
    content = head_text + "\n" + truncation_marker(name, head, tail, n) + "\n" + tail_text
    return TrimResult(content, True, limit, n, head, n - tail_start)


def clamp_to_budget(content: str, budget: int) -> tuple[str, int]:
    """Spec § Total budget, step 6. Returns the text and how many of its units came from
    ``content`` (the rest is the appended ``…``)."""
    if budget <= 0:
        return "", 0
    length = utf16_len(content)
    if length <= budget:
        return content, length
    keep = budget if budget <= 3 else budget - 1
    prefix = utf16_slice(content, 0, keep)
    # Never split a real surrogate pair: when the cut lands inside an astral character the
    # slice ends with its high half; cut one unit earlier. A lone half left by the per-file
    # trim is not a pair and stays.
    if prefix and 0xD800 <= ord(prefix[-1]) <= 0xDBFF and ord(content[len(prefix) - 1]) > 0xFFFF:
        prefix = prefix[:-1]
    kept = utf16_len(prefix)
    if budget <= 3:
        return prefix, kept
    return prefix + "…", kept


def missing_marker(path: Path) -> str:
    return f"[MISSING] Expected at: {path}"


# --- the walk ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    name: str
    path: Path
    missing_reason: str | None
    text: str  # trailing-whitespace-trimmed file text ("" when missing)
    raw_chars: int
    injected: str | None  # None: not injected
    injected_chars: int
    trim: TrimResult | None
    kept_units: int  # units of the trimmed content that survived the clamp


def _walk(workspace: Path, caps: Caps, session: str, warnings: list[str] | None = None) -> Iterator[_Step]:
    """Apply spec § Total budget file by file; one file in memory at a time."""
    remaining = caps.total_max_chars
    stopped = False
    for name in bootstrap_file_names(workspace, session):
        path = workspace / name
        text, reason = read_bootstrap_file(workspace, name)
        if stopped or remaining <= 0:
            stopped = True
            t = js_trim_end(text) if text is not None else ""
            yield _Step(name, path, reason, t, utf16_len(t), None, 0, None, 0)
            continue
        if reason is not None:
            marker = missing_marker(path)
            # Spec: "cut to remaining units if longer".
            if utf16_len(marker) > remaining:
                marker = utf16_slice(marker, 0, remaining)
            remaining -= utf16_len(marker)
            yield _Step(name, path, reason, "", 0, marker, utf16_len(marker), None, 0)
            continue
        assert text is not None
        if remaining < MIN_FILE_BUDGET_CHARS:
            if warnings is not None:
                warnings.append(
                    f"remaining bootstrap budget is {remaining} chars (<{MIN_FILE_BUDGET_CHARS}); "
                    f"skipping {name} and later files"
                )
            stopped = True
            t = js_trim_end(text)
            yield _Step(name, path, None, t, utf16_len(t), None, 0, None, 0)
            continue
        file_max = max(1, min(caps.max_chars, remaining))
        t = js_trim_end(text)
        del text
        trim = trim_bootstrap_text(t, name, file_max)
        if not trim.content:
            yield _Step(name, path, None, "", 0, None, 0, trim, 0)
            continue
        injected, kept_units = clamp_to_budget(trim.content, remaining)
        injected_chars = utf16_len(injected)
        if warnings is not None and (trim.truncated or injected_chars < utf16_len(trim.content)):
            warnings.append(
                f"workspace bootstrap file {name} is {trim.original_chars} chars "
                f"(limit {trim.limit}); truncating in injected context"
            )
        remaining = max(0, remaining - injected_chars)
        yield _Step(name, path, None, t, trim.original_chars, injected, injected_chars, trim, kept_units)


# --- the report -------------------------------------------------------------------------


@dataclass(frozen=True)
class LineRange:
    start: int  # 1-based, inclusive
    end: int
    headings: tuple[str, ...] = ()

    def to_dict(self, with_headings: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {"start": self.start, "end": self.end}
        if with_headings:
            d["headings"] = list(self.headings)
        return d


@dataclass(frozen=True)
class FileReport:
    name: str
    path: Path
    status: str
    missing_reason: str | None
    raw_chars: int
    # For a missing file this is the length of the "[MISSING] …" text (spec § Status).
    injected_chars: int
    injected: bool
    causes: tuple[str, ...]
    near_limit: bool
    kept_lines: tuple[LineRange, ...]
    dropped_lines: tuple[LineRange, ...]

    @property
    def raw_tokens(self) -> int:
        return estimate_tokens(self.raw_chars)

    @property
    def injected_tokens(self) -> int:
        return estimate_tokens(self.injected_chars)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": str(self.path),
            "status": self.status,
            "missingReason": self.missing_reason,
            "rawChars": self.raw_chars,
            "injectedChars": self.injected_chars,
            "rawTokensEstimate": self.raw_tokens,
            "injectedTokensEstimate": self.injected_tokens,
            "injected": self.injected,
            "causes": list(self.causes),
            "nearLimit": self.near_limit,
            "keptLines": [r.to_dict(with_headings=False) for r in self.kept_lines],
            "droppedLines": [r.to_dict() for r in self.dropped_lines],
        }


@dataclass(frozen=True)
class Totals:
    raw_chars: int
    injected_chars: int
    truncated_files: int
    truncated_raw_chars: int
    truncated_injected_chars: int
    near_limit: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "rawChars": self.raw_chars,
            "injectedChars": self.injected_chars,
            "rawTokensEstimate": estimate_tokens(self.raw_chars),
            "injectedTokensEstimate": estimate_tokens(self.injected_chars),
            "truncatedFiles": self.truncated_files,
            "truncatedRawChars": self.truncated_raw_chars,
            "truncatedInjectedChars": self.truncated_injected_chars,
            "nearLimit": self.near_limit,
        }


@dataclass(frozen=True)
class ContextReport:
    workspace: Path
    session: str
    caps: Caps
    files: tuple[FileReport, ...]
    totals: Totals
    skills: SkillsReport | None
    warnings: tuple[str, ...]

    @property
    def truncated(self) -> tuple[FileReport, ...]:
        return tuple(f for f in self.files if f.status == STATUS_TRUNCATED)

    def to_dict(self) -> dict[str, Any]:
        return {
            "workspace": str(self.workspace),
            "session": self.session,
            "caps": self.caps.to_dict(),
            "files": [f.to_dict() for f in self.files],
            "totals": self.totals.to_dict(),
            "skills": self.skills.to_dict() if self.skills is not None else None,
            "warnings": list(self.warnings),
        }


# A fence or an ATX heading at a line start (CommonMark allows up to 3 spaces of indent).
# A fence or an ATX heading at a line start (CommonMark allows up to 3 spaces of indent).
# Searching from a newline lets the regex engine jump between "\n" characters.
_FENCE_OR_HEADING = re.compile(r"\n {0,3}(?:(```|~~~)|#{1,6}(?:[ \t]|(?=\n)|\Z))")


def _index_of_unit(t: str, n: int, unit: int) -> int:
    """The Python index of the character holding UTF-16 unit ``unit`` of ``t`` (``n`` units).

    Costs O(distance to the nearer end): the cut points lie near the start (head) or the end
    (tail), so a 2 MB file is not re-encoded for each one.
    """
    if unit <= n - unit:
        k = unit  # t[:k] has >= unit units; step back until it has <= unit
        units = utf16_len(t[:k])
        while units > unit:
            k -= 1
            units -= 2 if ord(t[k]) > 0xFFFF else 1
        return k
    back = n - unit  # the suffix from the wanted character holds >= back units
    k = len(t) - back
    units = utf16_len(t[k:])
    while units - (2 if ord(t[k]) > 0xFFFF else 1) >= back:
        units -= 2 if ord(t[k]) > 0xFFFF else 1
        k += 1
    return k


def _line_ranges(
    t: str, n: int, kept: list[tuple[int, int]]
) -> tuple[tuple[LineRange, ...], tuple[LineRange, ...]]:
    """Kept and dropped line ranges of ``t`` (``n`` UTF-16 units; the unit ranges ``kept``
    survive), with the Markdown headings whose line starts inside a dropped range (headings
    inside code fences do not count)."""
    kept = sorted((a, b) for a, b in kept if b > a)
    dropped: list[tuple[int, int]] = []
    cursor = 0
    for a, b in kept:
        if a > cursor:
            dropped.append((cursor, a))
        cursor = max(cursor, b)
    if cursor < n:
        dropped.append((cursor, n))

    ascii_text = t.isascii()

    def index_of(unit: int) -> int:
        return unit if ascii_text else _index_of_unit(t, n, unit)

    # 1-based line holding the character at index. The positions asked for grow along the
    # text, so each count continues from the last one: one pass over a 2 MB file, not six.
    counted = [0, 0]  # [index counted up to, newlines before it]

    def line_at(index: int) -> int:
        done, lines = counted
        if index >= done:
            lines += t.count("\n", done, index)
        else:
            lines = t.count("\n", 0, index)
        counted[:] = [index, lines]
        return lines + 1

    kept_ranges = tuple(LineRange(line_at(index_of(a)), line_at(index_of(b - 1))) for a, b in kept)
    spans = [(index_of(a), index_of(b - 1) + 1) for a, b in dropped]
    headings: list[list[str]] = [[] for _ in spans]
    if spans:
        in_fence = False
        end_of_scan = spans[-1][1]
        first_line_end = t.find("\n")
        first = _FENCE_OR_HEADING.match("\n" + (t if first_line_end < 0 else t[:first_line_end]))
        found = [(0, first)] if first else []
        # Every later line starts after a "\n" of t itself (no copy of a 2 MB string).
        found_iter = ((m.start() + 1, m) for m in _FENCE_OR_HEADING.finditer(t, 0, end_of_scan))
        for start, m in (*found, *found_iter):
            if start >= end_of_scan:
                break
            if m.group(1):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            for i, (lo, hi) in enumerate(spans):
                if lo <= start < hi:
                    end = t.find("\n", start)
                    headings[i].append(t[start : end if end >= 0 else len(t)].strip())
                    break
    dropped_ranges = tuple(
        LineRange(line_at(lo), line_at(hi - 1), tuple(h)) for (lo, hi), h in zip(spans, headings, strict=True)
    )
    return kept_ranges, dropped_ranges


def _kept_units(step: _Step) -> list[tuple[int, int]]:
    """Which unit ranges of the trimmed original text reached the prompt."""
    trim = step.trim
    if step.injected is None or trim is None:
        return []
    if not trim.truncated:
        return [(0, step.kept_units)]
    n = trim.original_chars
    head, tail = trim.head_chars, trim.tail_chars
    full_len = utf16_len(trim.content)
    tail_from = full_len - tail  # where the tail starts inside the trimmed content
    kept_head = min(head, step.kept_units)
    kept_tail = max(0, min(tail, step.kept_units - tail_from))
    return [(0, kept_head), (n - tail, n - tail + kept_tail)]


def build_context_report(
    workspace: Path,
    caps: Caps,
    *,
    session: str = "main",
    skills: SkillsReport | None = None,
    with_lines: bool = True,
) -> ContextReport:
    """The report of what the gateway injects from ``workspace`` (spec § Status per file).

    ``with_lines=False`` leaves out the kept/dropped line ranges of truncated files (the
    costly part on large files), for callers that only need the numbers (``vora doctor``).
    """
    _check_session(session)
    workspace = Path(os.path.abspath(workspace))
    warnings: list[str] = []
    if not workspace.is_dir():
        warnings.append(f"workspace {workspace} does not exist; every bootstrap file is missing")

    staged: list[tuple[_Step, tuple[LineRange, ...], tuple[LineRange, ...]]] = []
    for step in _walk(workspace, caps, session, warnings):
        kept: tuple[LineRange, ...] = ()
        dropped: tuple[LineRange, ...] = ()
        if with_lines and step.missing_reason is None and step.injected_chars < step.raw_chars:
            kept, dropped = _line_ranges(step.text, step.raw_chars, _kept_units(step))
        staged.append((step, kept, dropped))

    present = [s for s, _, _ in staged if s.missing_reason is None]
    raw_total = sum(s.raw_chars for s in present)
    injected_total = sum(s.injected_chars for s in present)
    near_file = math.ceil(caps.max_chars * NEAR_LIMIT_RATIO)
    near_total = math.ceil(caps.total_max_chars * NEAR_LIMIT_RATIO)

    files: list[FileReport] = []
    for step, kept, dropped in staged:
        if step.missing_reason is not None:
            status = STATUS_MISSING
        elif step.injected_chars < step.raw_chars:
            status = STATUS_TRUNCATED
        else:
            status = STATUS_OK
        causes: list[str] = []
        if status == STATUS_TRUNCATED:
            if step.raw_chars > caps.max_chars:
                causes.append(CAUSE_MAX_FILE)
            if injected_total >= caps.total_max_chars:
                causes.append(CAUSE_MAX_TOTAL)
        files.append(
            FileReport(
                name=step.name,
                path=step.path,
                status=status,
                missing_reason=step.missing_reason,
                raw_chars=step.raw_chars,
                injected_chars=step.injected_chars,
                injected=step.injected is not None and step.injected_chars > 0,
                causes=tuple(causes),
                near_limit=step.missing_reason is None and step.raw_chars >= near_file,
                kept_lines=kept,
                dropped_lines=dropped,
            )
        )
    truncated = [f for f in files if f.status == STATUS_TRUNCATED]
    totals = Totals(
        raw_chars=raw_total,
        injected_chars=injected_total,
        truncated_files=len(truncated),
        truncated_raw_chars=sum(f.raw_chars for f in truncated),
        truncated_injected_chars=sum(f.injected_chars for f in truncated),
        near_limit=injected_total >= near_total,
    )
    if skills is not None:
        for d in skills.dropped:
            if d.reason in ("too_large", "unreadable", "no_description"):
                warnings.append(f"skill {d.name} ({d.path}) dropped: {d.reason.replace('_', ' ')}")
    return ContextReport(workspace, session, caps, tuple(files), totals, skills, tuple(warnings))


def injected_text(workspace: Path, caps: Caps, *, session: str = "main", name: str | None = None) -> str:
    """Exactly the text the gateway injects: for one file, or for all of them.

    For all files, each injected file comes under a ``## NAME`` line and a blank line, files
    separated by a blank line (our layout: the spec fixes each file's text, not the framing).
    """
    workspace = Path(os.path.abspath(workspace))
    names = bootstrap_file_names(workspace, session)
    if name is not None and name not in names:
        raise VoraError(
            "not_found",
            f"{name} is not a bootstrap file for a {session} session",
            "one of: " + ", ".join(names),
        )
    parts: list[str] = []
    for step in _walk(workspace, caps, session):
        if name is not None:
            if step.name == name:
                return step.injected or ""
            continue
        if step.injected:
            parts.append(f"## {step.name}\n\n{step.injected}\n")
    return "\n".join(parts)
