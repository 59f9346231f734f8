"""The context report: status, causes and near-limit flags per file, totals (spec ``context.md`` §
Status per file)."""

from __future__ import annotations

import math
import os
from pathlib import Path

from vora_cli.core.context.budget import ContextWarning, walk_budget
from vora_cli.core.context.caps import Caps
from vora_cli.core.context.files import check_session
from vora_cli.core.records import dataclass
from vora_cli.core.text import estimate_tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    # Only the line analysis of `vora context detail` needs `lines` at run time (loaded there),
    # and the skills report is built by the caller: `vora doctor` loads neither for this.
    from vora_cli.core.context.budget import BudgetStep
    from vora_cli.core.context.lines import LineRange
    from vora_cli.core.context.skills import SkillsReport

NEAR_LIMIT_RATIO = 0.85

STATUS_OK = "OK"
STATUS_TRUNCATED = "TRUNCATED"
STATUS_MISSING = "MISSING"

CAUSE_MAX_FILE = "max/file"
CAUSE_MAX_TOTAL = "max/total"


@dataclass(frozen=True)
class FileReport:
    """One bootstrap file in the context report."""
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
    """The sums of the context report's files."""
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
    """What an agent's bootstrap context holds (`vora context list` / `json`)."""
    workspace: Path
    session: str
    caps: Caps
    files: tuple[FileReport, ...]
    totals: Totals
    skills: SkillsReport | None
    warnings: tuple[ContextWarning, ...]  # in the gateway's log words (JSON: their texts)

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
            "warnings": [w.text for w in self.warnings],
        }


def build_context_report(
    workspace: Path,
    caps: Caps,
    *,
    session: str = "main",
    skills: SkillsReport | None = None,
    with_lines: bool = True,
) -> ContextReport:
    """The report of what the gateway injects from ``workspace`` (spec § Status per file).
    ``with_lines=False`` leaves out the kept/dropped line ranges, for callers that need only
    the numbers (``vora doctor``)."""
    check_session(session)
    workspace = Path(os.path.abspath(workspace))
    warnings: list[ContextWarning] = []
    if not workspace.is_dir():
        warnings.append(ContextWarning("workspace", f"workspace {workspace} does not exist; every bootstrap file is missing"))

    staged: list[tuple[BudgetStep, tuple[LineRange, ...], tuple[LineRange, ...]]] = []
    for step in walk_budget(workspace, caps, session, warnings):
        kept: tuple[LineRange, ...] = ()
        dropped: tuple[LineRange, ...] = ()
        if with_lines and step.missing_reason is None and step.injected_chars < step.raw_chars:
            from vora_cli.core.context.lines import kept_unit_ranges, line_ranges

            kept, dropped = line_ranges(step.text, step.raw_chars, kept_unit_ranges(step))
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
                warnings.append(ContextWarning("skill", f"skill {d.name} ({d.path}) dropped: {d.reason.replace('_', ' ')}"))
    return ContextReport(workspace, session, caps, tuple(files), totals, skills, tuple(warnings))
