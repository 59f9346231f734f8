"""The gateway's log: where the file is, how a line parses, what a start logged (spec gateway.md); always a
bounded tail, since the gateway's files grow large.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.clock import iso_or_none, parse_iso_ms
from vora_cli.core.gateway.shapes import obj
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PREFERRED_LOG_DIR = Path("/tmp/vora")
LOG_NAME = r"vora-\d{4}-\d{2}-\d{2}\.log"
TAIL_BYTES = 4 * 1024 * 1024  # enough for 5000 ordinary lines; a file can be 500 MB
MAX_LINE = 64 * 1024  # a line longer than this is cut before any pattern looks at it
# The gateway's start lines, compiled where they are used (`re`'s cache keeps them): most runs read
# no log file.
READY = r"ready \((\d+) plugins?(?:: ([^;()]*))?[;,] ?([\d.]+)s\)"
FAILED = r"(?s)(?:\[plugins\] )?(\S+) failed (to load|during register) from (.+?): (.*)"
RESERVED = r"(?:\[plugins\] )?context engine id reserved by core: (\S+) \(plugin=([^,]+), source=(.*)\)"
ALREADY = (r"(?:\[plugins\] )?context engine already registered: (\S+) \((.*?)\) \(plugin=([^,]+), "
           r"source=(.*)\)")


@dataclass(frozen=True)
class LogLine:
    """One line of the gateway's log, split into its fields."""
    time: str | None
    level: str | None
    subsystem: str | None
    message: str

    def to_dict(self) -> dict[str, str | None]:
        # `time` is the gateway's local time with its offset; JSON carries the moment in UTC
        # (docs/exit-codes-and-json.md, "Times"), the human line the text as logged
        return {"loggedAt": iso_or_none(self.time), "level": self.level, "subsystem": self.subsystem,
                "message": self.message}

    @property
    def time_ms(self) -> int | None:
        return parse_iso_ms(self.time)


def _arg_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def parse_log_line(raw: str) -> LogLine:
    """One log line as time, level, subsystem and message (raw text when it is not JSON)."""
    raw = raw.rstrip("\r\n")[:MAX_LINE]
    try:
        doc = nesting.loads(raw) if raw.startswith("{") else None
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        return LogLine(None, None, None, raw)
    meta = obj(doc.get("_meta"))
    time = doc.get("time") if isinstance(doc.get("time"), str) else meta.get("date")
    level = meta.get("logLevelName")
    subsystem = None
    first = 0
    head = doc.get("0")
    if isinstance(head, str) and head.startswith("{"):
        try:
            parsed = nesting.loads(head)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and isinstance(parsed.get("subsystem"), str):
            subsystem, first = parsed["subsystem"], 1
    parts: list[str] = []
    index = first
    while str(index) in doc:
        parts.append(_arg_text(doc[str(index)]))
        index += 1
    return LogLine(
        time if isinstance(time, str) else None,
        level.lower() if isinstance(level, str) else None,
        subsystem,
        " ".join(parts),
    )


def parse_shown_line(raw: str, mask: Callable[[str], str] | None) -> LogLine:
    """`parse_log_line`, every field through `mask` (None: `--reveal`): the decoded message,
    subsystem, level and time are masked again (docs/secrets.md, "From the gateway"). A level
    the gateway writes and a time of digits and `-:.+TZ` hold nothing to hide; other texts are
    masked once each (`_masked_field`)."""
    line = parse_log_line(raw)
    if mask is None:
        return line
    message = mask(line.message)
    subsystem = line.subsystem if line.subsystem is None else _masked_field(mask, line.subsystem)
    level = line.level if line.level is None or line.level in _LEVELS else _masked_field(mask, line.level)
    time = line.time if line.time is None or not line.time.strip(_TIME_CHARS) else _masked_field(mask, line.time)
    if (message, subsystem, level, time) == (line.message, line.subsystem, line.level, line.time):
        return line
    return LogLine(time, level, subsystem, message)


_LEVELS = frozenset({"silly", "trace", "debug", "info", "warn", "error", "fatal"})  # tslog's, lower-cased
_TIME_CHARS = "0123456789-:.+TZtz "


@lru_cache(maxsize=256)
def _masked_field(mask: Callable[[str], str], text: str) -> str:
    return mask(text)


def format_log_line(line: LogLine) -> str:
    """`<time> <LEVEL> [<subsystem>] <message>`, leaving out what the line does not have."""
    parts = [p for p in (line.time, line.level.upper() if line.level else None) if p]
    if line.subsystem:
        parts.append(f"[{line.subsystem}]")
    parts.append(line.message)
    return " ".join(parts)


# -- where the file is ------------------------------------------------------------------------------

@dataclass(frozen=True)
class LogSearch:
    """Where the log reader looked: the file found (None: none), the folder it looked in, and the
    folders it would not read, each with the reason (another user's, writable by others, a link)."""

    path: Path | None
    folder: Path | None
    skipped: tuple[str, ...] = ()


def untrusted_dir_reason(path: Path, uid: int | None = None) -> str | None:
    """Why the gateway would not trust `path` as its temp/log folder, None when it would, and
    "" when it does not exist (openclaw 2026.4.12, `infra/tmp-openclaw-dir`: lstat, a directory
    and not a symlink, owned by this user, no group/other write bit)."""
    uid = (os.getuid() if hasattr(os, "getuid") else None) if uid is None else uid
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot be inspected ({exc.strerror})"
    if stat.S_ISLNK(st.st_mode):
        return f"is a symlink (to {os.readlink(path)})"
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    if uid is not None and st.st_uid != uid:
        return f"is owned by uid {st.st_uid}, not by you (uid {uid}): another user could write its log files"
    if st.st_mode & 0o022:
        return (f"is writable by {'group and others' if st.st_mode & 0o022 == 0o022 else 'group' if st.st_mode & 0o020 else 'others'} "
                f"(mode {st.st_mode & 0o7777:04o}): anyone could have written its log files")
    return None


def node_tmpdir(env: Mapping[str, str] | None = None) -> Path:
    """Node's `os.tmpdir()` on POSIX, under which the gateway makes its folders: `TMPDIR`, `TMP`,
    `TEMP`, else `/tmp`, a trailing slash dropped (`env`: the process's own by default, a fact
    like `HOME`). Not Python's `tempfile.gettempdir()`, which skips a missing folder for the next
    candidate and is a costly import."""
    env = os.environ if env is None else env
    value = env.get("TMPDIR") or env.get("TMP") or env.get("TEMP") or "/tmp"
    return Path(value[:-1] if len(value) > 1 and value.endswith("/") else value)


def user_tmp_folder(env: Mapping[str, str] | None = None) -> Path:
    """The gateway's per-user temp folder, `<tmpdir>/vora-<uid>` (its logs' fallback, its lock's
    folder), joined as Node's `path.join` does: `..` and repeated slashes collapsed by their text
    (so `TMPDIR=/a/link/..` is `/a`, wherever the link points)."""
    import posixpath

    uid = os.getuid() if hasattr(os, "getuid") else None
    joined = posixpath.normpath(f"{node_tmpdir(env)}/{f'vora-{uid}' if uid is not None else 'vora'}")
    return Path(joined[1:] if joined.startswith("//") else joined)  # normpath keeps a leading "//"


def log_dirs(preferred: Path | None = None, fallback: Path | None = None) -> LogSearch:
    """The folder the gateway logs to, by its own rule: /tmp/vora when it is this user's and
    nobody else can write it, else `<tmpdir>/vora-<uid>` under the same rule. vora only reads:
    where the gateway would tighten or give up, vora skips the folder and says why. `folder` is
    None when no candidate can be trusted; a missing one is where the gateway will write."""
    preferred = PREFERRED_LOG_DIR if preferred is None else preferred
    if fallback is None:
        fallback = user_tmp_folder()
    skipped: list[str] = []
    first = untrusted_dir_reason(preferred)
    if first is None:
        return LogSearch(None, preferred)
    if first:
        skipped.append(f"{preferred} {first}")
    second = untrusted_dir_reason(fallback)
    if second is None:
        return LogSearch(None, fallback, tuple(skipped))
    if second:
        skipped.append(f"{fallback} {second}")
        return LogSearch(None, None, tuple(skipped))
    # neither exists yet: the gateway will create /tmp/vora (or the fallback, when /tmp/vora is not usable)
    return LogSearch(None, fallback if first else preferred, tuple(skipped))


def newest_log_file(folder: Path) -> Path | None:
    try:
        candidates = [p for p in folder.iterdir() if re.fullmatch(LOG_NAME, p.name) and p.is_file()]
    except OSError:
        return None
    return max(candidates, key=lambda p: p.stat().st_mtime, default=None)


def find_log_file(configured: str | None, home: Path, base: Path, preferred: Path | None = None,
                  fallback: Path | None = None) -> LogSearch:
    """`logging.file` only when that file exists (the gateway ignores it), else the newest daily
    file in the folder `log_dirs` trusts."""
    if configured:
        from vora_cli.core.paths import expand_path

        path = expand_path(configured, home, base, key="logging.file")
        if path.is_file():
            return LogSearch(path, path.parent)
    found = log_dirs(preferred, fallback)
    newest = newest_log_file(found.folder) if found.folder is not None else None
    return LogSearch(newest, found.folder, found.skipped)


def tail_lines(path: Path, limit: int, max_bytes: int = TAIL_BYTES) -> tuple[list[str], int]:
    """The last `limit` lines of `path` (reading at most `max_bytes`), and the file size."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        start = max(0, size - max_bytes)
        handle.seek(start)
        data = handle.read(size - start)
    lines = data.decode("utf-8", errors="replace").splitlines()
    if start > 0 and lines:
        lines = lines[1:]  # the first line is cut
    return [line for line in lines if line.strip()][-limit:] if limit > 0 else [], size


def read_from(path: Path, offset: int, max_bytes: int = TAIL_BYTES) -> tuple[list[str], int, bool]:
    """New complete lines since `offset`; `reset` when the file shrank (rotated or truncated)."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        reset = size < offset
        start = 0 if reset else offset
        start = max(start, size - max_bytes)
        handle.seek(start)
        data = handle.read(size - start)
    end = data.rfind(b"\n") + 1  # keep a half-written last line for the next read
    lines = data[:end].decode("utf-8", errors="replace").splitlines()
    return [line for line in lines if line.strip()], start + end, reset


# -- what one gateway start logged --------------------------------------------------------------------

@dataclass(frozen=True)
class PluginFailure:
    """A plugin that failed to load or register, as the gateway logged it."""
    id: str
    phase: str  # load | register
    source: str | None
    error: str
    time: str | None

    def to_dict(self) -> dict[str, str | None]:
        return {"id": self.id, "phase": self.phase, "source": self.source, "error": self.error,
                "loggedAt": iso_or_none(self.time)}

    def text(self) -> str:
        where = f" from {self.source}" if self.source else ""
        verb = "failed to load" if self.phase == "load" else "failed during register"
        return f"{self.id} {verb}{where}: {self.error}"


@dataclass(frozen=True)
class StartEvidence:
    """The `ready (…)` line of one gateway start, and the plugin failures logged with it."""

    loaded: tuple[str, ...] | None  # None: no ready line found
    ready_at: str | None
    failed: tuple[PluginFailure, ...]

    @property
    def found(self) -> bool:
        return self.loaded is not None


def parse_ready(message: str) -> tuple[str, ...] | None:
    match = re.search(READY, message[:MAX_LINE]) if message.startswith("ready (") else None
    if match is None:
        return None
    ids = match.group(2) or ""
    return tuple(sorted({p.strip() for p in ids.split(",") if p.strip()}))


def parse_failure(line: LogLine) -> PluginFailure | None:
    message = line.message
    if "failed" in message and line.subsystem in ("plugins", None, "gateway"):
        match = re.match(FAILED, message)
        if match:
            phase = "load" if match.group(2) == "to load" else "register"
            return PluginFailure(match.group(1), phase, match.group(3), match.group(4), line.time)
    if "context engine" in message:
        reserved = re.match(RESERVED, message)
        if reserved:
            return PluginFailure(reserved.group(2), "register", reserved.group(3),
                                 f"context engine id reserved by core: {reserved.group(1)}", line.time)
        already = re.match(ALREADY, message)
        if already:
            return PluginFailure(already.group(3), "register", already.group(4),
                                 f"context engine already registered: {already.group(1)} ({already.group(2)})",
                                 line.time)
    return None


def start_evidence(lines: Iterable[LogLine], since_ms: int | None, until_ms: int | None = None) -> StartEvidence:
    """The first ready line at or after `since_ms` (the newest one when no bound is known),
    and the failures logged from that start on; lines dated after `until_ms` are left out."""
    lines = [line for line in lines if until_ms is None or (line.time_ms or 0) <= until_ms]
    ready_index: int | None = None
    for index, line in enumerate(lines):
        if line.subsystem not in ("gateway", None) or not line.message.startswith("ready ("):
            continue
        if parse_ready(line.message) is None:
            continue
        when = line.time_ms
        if since_ms is None:
            ready_index = index  # keep the newest
        elif when is not None and when >= since_ms:
            ready_index = index
            break
    if ready_index is None:
        return StartEvidence(None, None, ())
    ready = lines[ready_index]
    bound = since_ms
    if bound is None:
        # Without the process start, the failures are those between the previous ready line and this one.
        previous = [i for i in range(ready_index) if parse_ready(lines[i].message) is not None]
        first = previous[-1] + 1 if previous else 0
        window: Sequence[LogLine] = lines[first:]
    else:
        window = [line for line in lines if (line.time_ms or 0) >= bound]
    # The gateway logs a failure again each time it loads its plugin registry anew (openclaw
    # 2026.4.12 does it a few seconds after its start, for the memory runtime): one failure, once.
    once: dict[tuple[str, str, str | None, str], PluginFailure] = {}
    for failure in (parse_failure(line) for line in window):
        if failure is not None:
            once.setdefault((failure.id, failure.phase, failure.source, failure.error), failure)
    failures = tuple(once.values())
    return StartEvidence(parse_ready(ready.message), ready.time, failures)


# Substrings a raw line must hold to matter for `start_evidence` (JSON keeps them verbatim), so
# only those lines are parsed: a ready line holds `ready (`, a failure ` failed ` (to load from,
# during register from) or `context engine `.


def start_evidence_from_raw(raw_lines: Iterable[str], since_ms: int | None, until_ms: int | None = None,
                            mask: Callable[[str], str] | None = None) -> StartEvidence:
    """`start_evidence` of raw log lines, parsing only the lines that can matter, each message
    through `mask` once decoded (`parse_shown_line`: a failure's error is printed)."""
    wanted = [r for r in raw_lines if "ready (" in r or " failed " in r or "context engine " in r]
    return start_evidence((parse_shown_line(r, mask) for r in wanted), since_ms, until_ms)


def configured_log_file(config: Mapping[str, Any]) -> str | None:
    logging = config.get("logging")
    value = logging.get("file") if isinstance(logging, dict) else None
    return value.strip() if isinstance(value, str) and value.strip() else None
