"""The per-file trim, the budget clamp and the walk over the files (spec ``context.md`` §§ Per-file
trim, Total budget), and the text that walk injects.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from pathlib import Path

from vora_cli.core.context.caps import Caps
from vora_cli.core.context.files import bootstrap_file_names, read_bootstrap_file
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass
from vora_cli.core.text import js_trim_end, utf16_len, utf16_slice

MIN_FILE_BUDGET_CHARS = 64  # spec § Total budget, step 3
HEAD_RATIO = 0.7
TAIL_RATIO = 0.2


@dataclass(frozen=True)
class TrimResult:
    """A bootstrap file's text cut to its cap, as the gateway cuts it."""
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
class BudgetStep:
    """One bootstrap file on its way through the per-file and total caps."""
    name: str
    path: Path
    missing_reason: str | None
    text: str  # trailing-whitespace-trimmed file text ("" when missing)
    raw_chars: int
    injected: str | None  # None: not injected
    injected_chars: int
    trim: TrimResult | None
    kept_units: int  # units of the trimmed content that survived the clamp


@dataclass(frozen=True)
class ContextWarning:
    """What the gateway would log about the report (its words), and what it is about: `budget`
    (a file cut or left out, which the report's rows show), `workspace`, `skill`."""

    kind: str
    text: str


def walk_budget(workspace: Path, caps: Caps, session: str,
                warnings: list[ContextWarning] | None = None) -> Iterator[BudgetStep]:
    """Apply spec § Total budget file by file; one file in memory at a time."""
    remaining = caps.total_max_chars
    stopped = False
    for name in bootstrap_file_names(workspace, session):
        path = workspace / name
        text, reason = read_bootstrap_file(workspace, name)
        if stopped or remaining <= 0:
            stopped = True
            t = js_trim_end(text) if text is not None else ""
            yield BudgetStep(name, path, reason, t, utf16_len(t), None, 0, None, 0)
            continue
        if reason is not None:
            marker = missing_marker(path)
            # Spec: "cut to remaining units if longer".
            if utf16_len(marker) > remaining:
                marker = utf16_slice(marker, 0, remaining)
            remaining -= utf16_len(marker)
            yield BudgetStep(name, path, reason, "", 0, marker, utf16_len(marker), None, 0)
            continue
        assert text is not None
        if remaining < MIN_FILE_BUDGET_CHARS:
            if warnings is not None:
                warnings.append(ContextWarning(
                    "budget", f"remaining bootstrap budget is {remaining} chars (<{MIN_FILE_BUDGET_CHARS}); "
                    f"skipping {name} and later files"
                ))
            stopped = True
            t = js_trim_end(text)
            yield BudgetStep(name, path, None, t, utf16_len(t), None, 0, None, 0)
            continue
        file_max = max(1, min(caps.max_chars, remaining))
        t = js_trim_end(text)
        del text
        trim = trim_bootstrap_text(t, name, file_max)
        if not trim.content:
            yield BudgetStep(name, path, None, "", 0, None, 0, trim, 0)
            continue
        injected, kept_units = clamp_to_budget(trim.content, remaining)
        injected_chars = utf16_len(injected)
        if warnings is not None and (trim.truncated or injected_chars < utf16_len(trim.content)):
            warnings.append(ContextWarning(
                "budget", f"workspace bootstrap file {name} is {trim.original_chars} chars "
                f"(limit {trim.limit}); truncating in injected context"
            ))
        remaining = max(0, remaining - injected_chars)
        yield BudgetStep(name, path, None, t, trim.original_chars, injected, injected_chars, trim, kept_units)


def injected_text(workspace: Path, caps: Caps, *, session: str = "main", name: str | None = None) -> str:
    """Exactly the text the gateway injects: for one file, or for all of them (each under a
    ``## NAME`` line and a blank line, files separated by a blank line: our framing, the spec
    fixes only each file's text)."""
    workspace = Path(os.path.abspath(workspace))
    names = bootstrap_file_names(workspace, session)
    if name is not None and name not in names:
        raise VoraError(
            "not_found",
            f"{name} is not a bootstrap file for a {session} session",
            "one of: " + ", ".join(names),
        )
    parts: list[str] = []
    for step in walk_budget(workspace, caps, session):
        if name is not None:
            if step.name == name:
                return step.injected or ""
            continue
        if step.injected:
            parts.append(f"## {step.name}\n\n{step.injected}\n")
    return "\n".join(parts)
