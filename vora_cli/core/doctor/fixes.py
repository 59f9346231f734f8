"""What `vora doctor --fix` may repair, and how (spec doctor.md, "--fix"): each fix on its own, a chmod or
one `apply_config_edits` call; never a restored backup or a whole file rewritten.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from vora_cli.core.doctor.model import (
    ERROR,
    FIX_CHMOD,
    FIX_CONFIG,
    FIX_RECOVER,
    FIX_REMOVE,
    NEW_SECRET,
    CheckResult,
    ChmodOp,
    DoctorReport,
    Fix,
    hard_link_remedy,
)
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install

FIXABLE = ("config-schema", "config-secrets", "state-dir", "pairing-store", "plugin-references", "plugin-settings",
           "sessions-locks", "backup-restore")
# Fixes that destroy what the operator wrote (a missing plugin's `config`) or rewrite it (legacy
# keys into the gateway's modern form): applied only when named (`--fix plugin-settings`,
# `--fix config-schema`), never by a plain `--fix` (docs/doctor.md).
ONLY_WHEN_NAMED = ("config-schema", "plugin-settings")

APPLIED = "applied"
SKIPPED = "skipped"
FAILED = "failed"
DRY_RUN = "dry-run"


@dataclass(frozen=True)
class FixOutcome:
    """What one fix of `vora doctor --fix` did."""
    id: str
    status: str  # applied | skipped | failed | dry-run
    message: str
    preview: str  # the diff (config) or the chmod operations, as shown before asking
    backup: str | None = None  # the first of `backups` (a config fix that wrote one file has one)
    backups: tuple[str, ...] = ()  # one per file the fix wrote, in the order `message` names the files

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "status": self.status, "message": self.message, "preview": self.preview,
                "backup": self.backup, "backups": list(self.backups)}


def failed_fixes(outcomes: Sequence[FixOutcome] | None) -> tuple[FixOutcome, ...]:
    """The fixes that were tried and failed (not those skipped, unconfirmed or dry-run)."""
    return tuple(o for o in outcomes or () if o.status == FAILED)


@dataclass(frozen=True)
class FixedReport:
    """A report after `--fix`, and each fix's outcome: it fails when a check is at or above
    `fail_on` *or* a fix failed, so `"ok"` and the exit code say the repair did not happen
    (a `doctor --fix … --yes` whose fix failed must not exit 0 with `"ok": true`)."""

    report: DoctorReport
    outcomes: tuple[FixOutcome, ...]

    def failed(self, fail_on: str | None = None) -> bool:
        return self.report.failed(fail_on) or bool(failed_fixes(self.outcomes))

    def to_dict(self) -> dict[str, Any]:
        return {**self.report.to_dict(), "ok": not self.failed(), "fixes": [o.to_dict() for o in self.outcomes]}


def report_with_failed_fixes(report: DoctorReport, outcomes: Sequence[FixOutcome] | None) -> DoctorReport:
    """`report` with one `error` finding per failed fix (`fix-<id>`), for the CI formats: an
    annotation, a failing test case, a SARIF result, where a CI log shows findings."""
    extra = tuple(CheckResult(f"fix-{o.id}", ERROR, f"fix {o.id} failed: {o.message}") for o in failed_fixes(outcomes))
    if not extra:
        return report
    from vora_cli.core.records import replace

    return replace(report, checks=(*report.checks, *extra))


def select_fixes(report: DoctorReport, ids: Sequence[str], *, fixable: Sequence[str] = FIXABLE,
                 only_when_named: Sequence[str] = ONLY_WHEN_NAMED) -> tuple[list[Fix], list[FixOutcome]]:
    """The fixes to apply (all available ones when `ids` is empty, but those applied only when
    named), and outcomes for ids with none. `fixable`: the ids the command can fix at all."""
    for fix_id in ids:
        if fix_id not in fixable:
            raise VoraError("usage", f"there is no automatic fix for {fix_id!r}",
                            f"fixable check ids: {', '.join(fixable)}")
    available: dict[str, Fix] = {}
    for fix in report.fixes:
        available.setdefault(fix.id, fix)  # two checks may offer the same fix (gateway-token)
    if not ids:
        return [f for f in available.values() if f.id not in only_when_named], []
    chosen = [available[i] for i in dict.fromkeys(ids) if i in available]
    nothing = [FixOutcome(i, SKIPPED, "nothing to fix", "") for i in dict.fromkeys(ids) if i not in available]
    return chosen, nothing


def preview_fix(fix: Fix, install: Install, *, command: str = "doctor --fix") -> str:
    """What the fix would do: the chmod operations, or the unified diff of the config change."""
    if fix.kind == FIX_CHMOD:
        return "".join(op.describe() + "\n" for op in fix.chmod)
    if fix.kind == FIX_REMOVE:
        return "".join(op.describe() + "\n" for op in fix.remove)
    if fix.kind == FIX_RECOVER:
        return "".join(f"finish or roll back the restore recorded in {journal}\n" for journal in fix.journals)
    if fix.kind == FIX_CONFIG:
        from vora_cli.core.config.writing import apply_config_edits
        from vora_cli.core.secrets import redact_text

        # A fresh read: an earlier fix of this run may have changed the config.
        result = apply_config_edits(install.fresh(), _edits(fix), command=command, dry_run=True)
        # The writer's diff hides `secretKey: value` lines; a removed one-line object
        # (`"old": { apiKey: "…" }`) needs the inline redaction too.
        return redact_text("".join(f.diff for f in result.files))
    raise VoraError("internal", f"fix {fix.id} cannot be applied automatically", None)


def _edits(fix: Fix) -> list[Any]:
    from vora_cli.core.config.planning import ConfigEdit

    edits = [ConfigEdit(path, delete=True) for path in fix.unset]
    return edits + [ConfigEdit(path, new_secret() if value == NEW_SECRET else value) for path, value in fix.set]


def new_secret() -> str:
    """A strong random token: 32 bytes from the OS's CSPRNG, URL-safe (43 characters)."""
    import secrets

    return secrets.token_urlsafe(32)


def apply_fix(fix: Fix, install: Install, preview: str, *, command: str = "doctor --fix") -> FixOutcome:
    """Apply one fix; a failure is an outcome (the other fixes still run). `command` names the
    change in the config audit log."""
    try:
        if fix.kind == FIX_CHMOD:
            return _apply_chmod(fix, preview)
        if fix.kind == FIX_REMOVE:
            return _apply_remove(fix, preview, install.now_ms)
        if fix.kind == FIX_RECOVER:
            return _apply_recover(fix, preview)
        if fix.kind == FIX_CONFIG:
            from vora_cli.core.config.writing import apply_config_edits

            result = apply_config_edits(install.fresh(), _edits(fix), command=command, dry_run=False)
            backups = tuple(f.backup for f in result.files if f.backup)
            what = ", ".join(c.path for c in result.changes) or "nothing"
            files = ", ".join(f.path for f in result.files)
            verb = "wrote" if fix.set else "removed"
            where = "to" if fix.set else "from"
            return FixOutcome(fix.id, APPLIED, f"{verb} {what} {where} {files}", preview,
                              backups[0] if backups else None, backups)
    except VoraError as error:
        return FixOutcome(fix.id, FAILED, error.message + (f" ({error.hint})" if error.hint else ""), preview)
    except OSError as error:
        return FixOutcome(fix.id, FAILED, f"{error.filename}: {error.strerror}", preview)
    return FixOutcome(fix.id, FAILED, f"fix {fix.id} cannot be applied automatically", preview)


def _apply_chmod(fix: Fix, preview: str) -> FixOutcome:
    # A mode change rewrites no content, so it does not go through the file writer; it is
    # checked against the mode the preview showed, so a file changed meanwhile is left alone.
    done: list[str] = []
    for op in fix.chmod:
        path = Path(op.path)
        if op.nofollow:
            if _chmod_nofollow(op):
                done.append(f"{path}: {op.old_mode:04o} -> {op.new_mode:04o}")
            continue
        st = os.stat(path)
        _refuse_other_names(path, st, op)
        current = stat.S_IMODE(st.st_mode)
        if current == op.new_mode:
            continue
        if current != op.old_mode:
            raise VoraError("conflict", f"{path} changed mode since the check ({op.old_mode:04o} -> {current:04o})",
                            "run vora doctor again")
        os.chmod(path, op.new_mode)
        done.append(f"{path}: {op.old_mode:04o} -> {op.new_mode:04o}")
    if not done:
        return FixOutcome(fix.id, SKIPPED, "already fixed", preview)
    return FixOutcome(fix.id, APPLIED, "; ".join(done), preview)


def _refuse_other_names(path: Path, st: os.stat_result, op: ChmodOp) -> None:
    """A mode belongs to the file, not to one of its names: a file with hard links elsewhere
    (`~/public_html/site.json` linked as the config) would change there too. Checked on what is
    about to be changed, so a link made since the check is refused as well (`op.links`: the names
    the check saw, every one of them a path it sets to this mode)."""
    if stat.S_ISREG(st.st_mode) and st.st_nlink > max(op.links, 1):
        raise VoraError("conflict", f"{path} has {plural(st.st_nlink - 1, 'other name')} (hard links): a chmod would "
                        "change them too; left alone", hard_link_remedy(path, op.new_mode))


def _chmod_nofollow(op: ChmodOp) -> bool:
    """chmod the file or dir itself, through a descriptor opened without following a symlink
    (O_NOFOLLOW) and without blocking (a FIFO put there meanwhile): a link swapped in since the
    check is refused, never followed. Only a regular file or a dir is changed. True when changed."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(op.path, flags)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise VoraError("conflict", f"{op.path} is a symlink now: left alone", "run the audit again") from error
        raise
    try:
        st = os.fstat(fd)
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
            raise VoraError("conflict", f"{op.path} is not a regular file or folder now: left alone",
                            "run the audit again")
        _refuse_other_names(Path(op.path), st, op)
        current = stat.S_IMODE(st.st_mode)
        if current == op.new_mode:
            return False
        if current != op.old_mode:
            raise VoraError("conflict", f"{op.path} changed mode since the check ({op.old_mode:04o} -> {current:04o})",
                            "run the audit again")
        os.fchmod(fd, op.new_mode)
        return True
    finally:
        os.close(fd)


def _apply_remove(fix: Fix, preview: str, now: int) -> FixOutcome:
    """Remove stale lock files. Each is judged again first: a lock that was rewritten (another
    mtime or size) or is live now is left alone, so a live lock is never removed."""
    from vora_cli.core.gateway_locks import judge_lock

    done: list[str] = []
    kept: list[str] = []
    for op in fix.remove:
        path = Path(op.path)
        judged = judge_lock(path, now)
        if judged is None:
            continue
        if not judged.stale or (judged.mtime_ns, judged.size) != (op.mtime_ns, op.size):
            kept.append(f"{path}: changed or live since the check, left alone")
            continue
        path.unlink()
        done.append(f"removed {path}")
    if not done:
        return FixOutcome(fix.id, SKIPPED, "; ".join(kept) or "already fixed", preview)
    return FixOutcome(fix.id, APPLIED, "; ".join(done + kept), preview)


def _apply_recover(fix: Fix, preview: str) -> FixOutcome:
    """Finish or roll back each interrupted restore (core/backup/landing.py); one still running
    is left to finish."""
    from vora_cli.core.backup.recovery import recover

    done = []
    for journal in fix.journals:
        if not os.path.exists(journal):
            continue
        outcome = recover(Path(journal))
        if outcome is None:
            continue  # its restore ended meanwhile
        if outcome.stuck:
            more = f" (and {len(outcome.stuck) - 1} more)" if len(outcome.stuck) > 1 else ""
            raise VoraError("io_error", f"cannot remove {outcome.stuck[0]}{more} while repairing {journal}; the "
                            "journal stays", "remove what blocks it, then run the fix again")
        left = f" ({plural(len(outcome.left), 'path')} changed since, left as they are: {'; '.join(outcome.left)})" \
            if outcome.left else ""
        done.append(f"the restore of {outcome.archive} was {outcome.outcome.replace('-', ' ')}{left}")
    if not done:
        return FixOutcome(fix.id, SKIPPED, "already fixed", preview)
    return FixOutcome(fix.id, APPLIED, "; ".join(done), preview)
