"""The audit's data: severities on the engine's statuses (`critical` onto `error`), findings, and the report
(docs/security.md, "How it is built").
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from vora_cli.core.doctor.ci_formats import Tool
from vora_cli.core.doctor.model import (
    ERROR,
    INFO,
    PASS,
    SKIP,
    WARN,
    CheckResult,
    DoctorReport,
    Evidence,
    Fix,
    Install,
    Location,
)
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CRITICAL = "critical"  # the engine's `error`; INFO and WARN are the same words in both
SEVERITIES = ("critical", "warn", "info")  # worst first
STATUS_OF = {CRITICAL: ERROR, WARN: WARN, INFO: INFO}
SEVERITY_OF = {ERROR: CRITICAL, WARN: WARN, INFO: INFO}
RANK = {CRITICAL: 3, WARN: 2, INFO: 1}

TOOL = Tool(
    name="vora security audit",
    docs="docs/security.md, Checks",
    labels={ERROR: CRITICAL},
    # GitHub code scanning: >= 9.0 critical, 4.0-6.9 medium, 0.1-3.9 low
    security_severity={ERROR: "9.0", WARN: "5.0", INFO: "2.0"},
)


@dataclass(frozen=True)
class Finding(Location):
    """One thing an attacker could use, where it is, and what to do about it."""

    title: str = ""
    detail: str = ""
    gateway: tuple[str, ...] = ()  # the gateway's checkIds for the same finding (`*`: a number it picks)

    @property
    def severity(self) -> str:
        return SEVERITY_OF.get(self.status or INFO, INFO)


def finding(severity: str, title: str, detail: str = "", remediation: str | None = None, *, file: Path | str,
            line: int | None = None, col: int | None = None, key: str | None = None,
            gateway: Sequence[str] = ()) -> Finding:
    message = f"{title}: {detail}" if detail else title
    return Finding(str(file), line, col, message, STATUS_OF[severity], key, remediation, title, detail,
                   tuple(gateway))


def unreadable(file: Path | str, why: str) -> Finding:
    """A file a check needs and could not read (a FIFO, a device, no permission): said, never waited on."""
    return finding(INFO, "a file the audit checks cannot be read", why,
                   "look at what is at that path: the audit reads regular files only", file=file)


def worst(findings: Sequence[Finding]) -> str:
    return max((f.severity for f in findings), key=lambda s: RANK[s])


def check_result(check_id: str, findings: Sequence[Finding], ok: str, *, evidence: Evidence | None = None,
                 fix: Fix | None = None) -> CheckResult:
    """`pass` with `ok` when nothing was found, else the worst finding first (the check's own place)."""
    evidence = evidence or Evidence()
    if not findings:
        return CheckResult(check_id, PASS, ok, evidence=evidence)
    ordered = sorted(findings, key=lambda f: -RANK[f.severity])
    head = ordered[0]
    more = f" (and {len(ordered) - 1} more)" if len(ordered) > 1 else ""
    return CheckResult(check_id, STATUS_OF[head.severity], head.title + more, evidence=evidence, fix=fix,
                       locations=tuple(ordered))


def skipped(check_id: str, why: str = "the config does not parse (see vora doctor's config-syntax)") -> CheckResult:
    return CheckResult(check_id, SKIP, f"skipped: {why}")


def findings_of(check: CheckResult) -> tuple[Finding, ...]:
    return tuple(loc for loc in check.locations if isinstance(loc, Finding))


def finding_dict(check: CheckResult, f: Finding) -> dict[str, Any]:
    fix = check.fix.id if check.fix is not None and check.fix.automatic else None
    return {"id": check.id, "severity": f.severity, "title": f.title, "detail": f.detail, "remediation": f.next,
            "file": f.file, "key": f.key, "line": f.line, "col": f.col, "gateway": list(f.gateway), "fix": fix}


@dataclass(frozen=True)
class SecurityReport:
    """The checks that ran (as the engine's `DoctorReport`), judged at `fail_on` (a severity)."""

    report: DoctorReport
    fail_on: str = CRITICAL
    areas: dict[str, str] = field(default_factory=dict)

    @property
    def findings(self) -> tuple[tuple[CheckResult, Finding], ...]:
        return tuple((c, f) for c in self.report.checks for f in findings_of(c))

    @property
    def summary(self) -> dict[str, int]:
        counts = dict.fromkeys(SEVERITIES, 0)
        for _check, f in self.findings:
            counts[f.severity] += 1
        return counts

    def summary_text(self) -> str:
        n = self.summary
        passed = sum(1 for c in self.report.checks if c.status == PASS)
        skipped_ = sum(1 for c in self.report.checks if c.status == SKIP)
        text = f"{n[CRITICAL]} critical, {n[WARN]} warn, {n[INFO]} info; {passed} checks passed"
        return text + (f", {skipped_} skipped" if skipped_ else "")

    @property
    def failed(self) -> bool:
        """A finding at or above `fail_on`: what the exit code says."""
        return self.report.failed(STATUS_OF[self.fail_on])

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": not self.failed,
            "stateDir": str(self.report.state_dir),
            "configPath": str(self.report.config_path),
            "failOn": self.fail_on,
            "summary": self.summary,
            "findings": [finding_dict(c, f) for c, f in self.findings],
            "checks": [self._check_dict(c) for c in self.report.checks],
        }

    def _check_dict(self, check: CheckResult) -> dict[str, Any]:
        found = findings_of(check)
        status = check.status if check.status in (PASS, SKIP) else "finding"
        return {"id": check.id, "area": self.areas.get(check.id, "Other"), "status": status,
                "severity": worst(found) if found else None, "message": check.message, "findings": len(found),
                "fix": check.fix.to_dict() if check.fix is not None else None}


def as_dict(value: Any) -> dict[str, Any]:
    """A config section, or `{}` when it is missing or not an object (a schema problem is the
    doctor's to report; the audit reads what the gateway would)."""
    return value if isinstance(value, dict) else {}


def _indexed(node: Any, path: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """`path` with each id that names an array's item as the gateway lists it (`accounts.0` of an
    `accounts` written as an array) turned into that item's index."""
    out: list[str | int] = []
    for seg in path:
        if isinstance(node, list) and isinstance(seg, str) and seg.isascii() and seg.isdigit() \
                and len(seg) <= 20 and int(seg) < len(node):
            seg = int(seg)
        out.append(seg)
        node = node[seg] if isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node) \
            else node.get(seg) if isinstance(node, dict) and isinstance(seg, str) else None
    return tuple(out)


def at(install: Install, *path: str | int) -> dict[str, Any]:
    """`file`, `line`, `col` and `key` of a config path, for a finding about that key."""
    from vora_cli.core.config.owners import key_position
    from vora_cli.core.json5.path_syntax import format_config_path

    if install.config is None:
        return {"file": install.paths.config_path, "key": format_config_path(path)}
    path = _indexed(install.config.value, path)
    key = format_config_path(path)
    file, line, col = key_position(install.config, path)
    return {"file": file, "line": line, "col": col, "key": key}
