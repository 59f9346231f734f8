"""`vora security audit`: what an attacker could use on this install, found offline (docs/security.md)."""

from __future__ import annotations

from vora_cli.cli.check_options import choose_format, emit_ci, id_list, with_global_args
from vora_cli.cli.connect import tell
from vora_cli.cli.declare import command
from vora_cli.cli.fixing import render_outcomes
from vora_cli.cli.output import Output
from vora_cli.core.errors import VoraError
from vora_cli.core.records import replace
from vora_cli.core.security.model import worst
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import (
        DryRunOption,
        FormatOption,
        JsonOption,
        OnlyOption,
        SkipOption,
        TimeoutOption,
        UrlOption,
        YesOption,
    )
    from vora_cli.core.doctor.fixes import FixOutcome
    from vora_cli.core.doctor.model import CheckResult
    from vora_cli.core.security.model import Finding, SecurityReport

EXAMPLES = (
    "vora security audit",
    "vora security audit --fail-on warn --format github",
    "vora security audit --format sarif > security.sarif",
    "vora security audit --only config-files,gateway-auth",
    "vora security audit --fix --dry-run",
    "vora security audit --fix --yes",
    "vora security audit --fix gateway-token",
)
MARKS = {"critical": "✗", "warn": "!", "info": "i"}
STYLES = {"critical": "bold red", "warn": "yellow", "info": "cyan"}


# On a terminal, the paths a grouped check lists beneath it before `… N more` (all with --verbose,
# and piped, for grep)
SHOWN_PATHS = 5


def _where(f: Finding, state_dir: str) -> str:
    """A finding's place, short: relative to the state dir when it is inside it, with its line and key."""
    path = f.file
    if path.startswith(state_dir.rstrip("/") + "/"):
        path = path[len(state_dir.rstrip("/")) + 1:]
    return path + (f":{f.line}" if f.line else "") + (f" ({f.key})" if f.key else "")


def _fix_text(out: Output, check: CheckResult, found: tuple[Finding, ...]) -> str | None:
    """What mends a check's findings: its automatic fix's command, else the remediation they share."""
    if check.fix is not None and check.fix.automatic:
        return out.run.with_global_args(command_line("vora", "security", "audit", "--fix", check.fix.id))
    steps = list(dict.fromkeys(f.next for f in found if f.next))
    return out.run.with_global_args(steps[0]) if len(steps) == 1 else None


def _render(out: Output, audit: SecurityReport, verbose: bool, fixed: bool = False) -> None:
    """One row per check that found something (mark, severity, check, count, what), the paths it
    found beneath it and what fixes them all; each finding in full with --verbose."""
    from vora_cli.core.security.model import findings_of
    from vora_cli.core.wording import plural

    report = audit.report
    state_dir = str(report.state_dir)
    live = any(c.id == "live-gateway" for c in report.checks)
    out.line(f"Vora security audit ({'offline + live gateway' if live else 'offline'}): state dir "
             f"{report.state_dir}, config {report.config_path}")
    shown = [(c, findings_of(c)) for c in report.checks if findings_of(c)]
    width = max((len(c.id) for c, _ in shown), default=0)
    cap = None if verbose or not out.terminal else SHOWN_PATHS
    area = None
    for check, found in shown:
        if audit.areas.get(check.id) != area:
            area = audit.areas.get(check.id)
            out.line()
            out.line(area or "Other", "bold")
        severity = worst(found)
        titles = list(dict.fromkeys(f.title for f in found))
        what = titles[0] if len(titles) == 1 else f"{titles[0]} (and {plural(len(titles) - 1, 'other finding')})"
        out.line(f"  {MARKS[severity]} {severity:<8} {check.id.ljust(width)}  {len(found):>2}  {what}",
                 STYLES[severity], hanging=" " * (16 + width))
        places = [_where(f, state_dir) for f in found]
        column = min(max(len(p) for p in places), 48)
        for n, (f, place) in enumerate(zip(found, places, strict=True)):
            if cap is not None and n == cap:
                out.line(f"      … and {len(found) - cap} more (--verbose lists every one)")
                break
            said = (verbose or len(found) == 1) and f.detail
            if said and f.file in f.detail and not (f.line or f.key):
                out.line(f"      {f.detail}", hanging="        ")  # the detail names the path itself
                said = False
            else:
                title = "" if len(titles) == 1 else f"  {f.title}"
                out.line(f"      {place.ljust(column)}{title}" if title else f"      {place}", hanging="        ")
            if said:
                out.line(f"        {f.detail}", hanging="          ")
            if verbose and f.next and len({g.next for g in found}) > 1:
                out.line(f"        next: {out.run.with_global_args(f.next)}", hanging="          ")
        fix = _fix_text(out, check, found)
        if fix:
            out.line(f"      fix: {fix}", hanging="        ")
    skipped = [c for c in report.checks if c.status == "skip"]
    for check in skipped:
        out.line(f"  - {check.id}: {check.message}")
    out.line()
    out.line(_summary(audit, len(shown)), "bold")
    fixable = [c.fix for c in report.checks if c.fix is not None and c.fix.automatic and c.status != "pass"]
    if fixable and not fixed:  # after --fix, what was done (or would be) follows instead
        from vora_cli.core.security.runner import ONLY_WHEN_NAMED

        plain = [f.id for f in fixable if f.id not in ONLY_WHEN_NAMED]
        if plain:
            out.line(f"Fix them all: {out.run.with_global_args('vora security audit --fix --dry-run')} "
                     f"(then --fix): {', '.join(plain)}")
        for named in fixable:
            if named.id in ONLY_WHEN_NAMED:
                step = out.run.with_global_args(command_line("vora", "security", "audit", "--fix", named.id))
                out.line(f"Only when named: {step} ({named.description})")


def _summary(audit: SecurityReport, checks: int) -> str:
    """The findings counted by check (one chmod mends a check's 6 files) and by finding."""
    from vora_cli.core.security.model import SEVERITIES, findings_of
    from vora_cli.core.wording import plural

    by_severity = dict.fromkeys(SEVERITIES, 0)
    for check in audit.report.checks:
        found = findings_of(check)
        if found:
            by_severity[worst(found)] = by_severity.get(worst(found), 0) + 1
    passed = sum(1 for c in audit.report.checks if c.status == "pass")
    counts = ", ".join(f"{n} {s}" for s, n in by_severity.items() if n)
    total = sum(audit.summary.values())
    text = (f"{plural(checks, 'check')} found something ({counts}; {plural(total, 'finding')}); "
            if checks else "Nothing found; ")
    skipped = sum(1 for c in audit.report.checks if c.status == "skip")
    return text + f"{plural(passed, 'check')} passed" + (f", {skipped} skipped" if skipped else "")


def _left_alone(audit: SecurityReport, outcomes: list[FixOutcome], asked: Sequence[str]) -> list[FixOutcome]:
    """The fixes' outcomes, each followed by what it left of its check's findings (skipped, with the
    next step: a file with other names, a symlink out of the state dir, another user's file; the
    exit code is the findings' own, by --fail-on). A fix never says "applied" or "nothing to fix"
    beside a finding it would not touch. `asked`: the fix ids named, else every fix `--fix` applies."""
    from vora_cli.core.doctor.fixes import APPLIED, SKIPPED, FixOutcome
    from vora_cli.core.security.model import findings_of
    from vora_cli.core.shell import command_line
    from vora_cli.core.wording import plural

    checks = {c.id: c for c in audit.report.checks}
    done = {o.id: o for o in outcomes}
    out = [o for o in outcomes if o.id not in asked]
    for fix_id in asked:
        outcome, check = done.get(fix_id), checks.get(fix_id)
        # a finding the fix mends names the fix as its next step (even where this run has nothing
        # for it to change); any other next step is the operator's
        ours = command_line("vora", "security", "audit", "--fix", fix_id)
        left = [f for f in findings_of(check) if f.next and f.next != ours] if check is not None else []
        if outcome is not None and not (left and outcome.message == "nothing to fix"):
            out.append(outcome)
        if left and (outcome is None or outcome.status in (APPLIED, SKIPPED)):
            first = left[0]
            more = f" (and {plural(len(left) - 1, 'other finding')})" if len(left) > 1 else ""
            out.append(FixOutcome(fix_id, SKIPPED, f"left alone: {first.file}{more}: {first.next}", ""))
    return out


@command("audit", examples=EXAMPLES)
def security_audit(
    state: AppState,
    fix_targets: Annotated[
        list[str] | None,
        typer.Argument(metavar="[ID]...", help="With --fix: only these fixes (gateway-token only when named).",
                       show_default=False),
    ] = None,
    json: JsonOption = False,
    format: FormatOption = None,
    only: OnlyOption = None,
    skip: SkipOption = None,
    fail_on: Annotated[
        str, typer.Option("--fail-on", metavar="critical|warn|info",
                          help="Exit 1 when a finding is at this severity or worse.")
    ] = "critical",
    fix: Annotated[bool, typer.Option(
        "--fix", help="Apply the safe fixes: file modes (folders 0700, files 0600); gateway-token only when named.")
    ] = False,
    yes: YesOption = False,
    dry_run: DryRunOption = False,
    live: Annotated[bool, typer.Option(
        "--live", help="Also ask the running gateway (read-only): does it let a client in without a credential?")
    ] = False,
    url: UrlOption = None,
    timeout: TimeoutOption = None,
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="Every finding in full: each path, what is wrong with it and its next step.")] = False,
) -> int:
    """Audit this install for what an attacker could use (offline; --fix changes only what is safe).

    Checks files that hold secrets (owner, mode, symlinks; transcripts that hold a secret), the
    gateway's exposure from the config, secrets stored as plain text, plugins (allow list, npm
    pins, entries, a static code scan) and channel and tool policies. Exit 1 when a finding is
    at or above --fail-on (default critical), or a fix failed. --only and --skip repeat or take
    a comma list. Secrets are never printed; --fix gateway-token says where the new token went.
    """
    from vora_cli.core.security.runner import FAIL_ON, FIXABLE, ONLY_WHEN_NAMED, run_security_audit

    if fail_on not in FAIL_ON:
        raise VoraError("usage", f"invalid --fail-on {fail_on!r}", f"use one of: {', '.join(FAIL_ON)}")
    if fix_targets and not fix:
        raise VoraError("usage", f"unexpected argument {fix_targets[0]!r}",
                        f"to apply only that fix: {command_line('vora', 'security', 'audit', '--fix', *fix_targets)}")
    chosen = choose_format(format, json)
    install = state.install
    out = state.output(chosen == "json")
    only_ids, skip_ids, fix_ids = id_list(only), id_list(skip), id_list(fix_targets)
    audit = run_security_audit(install, only=only_ids, skip=skip_ids, fail_on=fail_on)
    outcomes: list[FixOutcome] | None = None
    if fix or dry_run:
        from vora_cli.cli.fixing import run_fixes

        applied, outcomes = run_fixes(out, audit.report, install, fix_ids, yes=yes, dry_run=dry_run,
                                      json=chosen != "text", fixable=FIXABLE, only_when_named=ONLY_WHEN_NAMED,
                                      command="security audit --fix")
        if applied:
            audit = run_security_audit(install.fresh(), only=only_ids, skip=skip_ids, fail_on=fail_on)
        if not dry_run:
            asked = fix_ids or [i for i in FIXABLE if i not in ONLY_WHEN_NAMED]
            outcomes = _left_alone(audit, outcomes, asked)
        if any(o.id == "gateway-token" and o.status == "applied" for o in outcomes):
            out.note("Restart the gateway for the new token; clients need it too: "
                     "vora config get gateway.auth.token --reveal")
    if live:
        from vora_cli.core.security.live import run_live

        found = run_live(install, audit, url=url, timeout=timeout, only=only_ids, skip=skip_ids)
        tell(out, found.warnings, found.notes)
        audit = found.audit
    audit = replace(audit, report=replace(audit.report, checks=with_global_args(out.run, audit.report.checks)))
    from vora_cli.core.doctor.fixes import failed_fixes, report_with_failed_fixes

    failed_fix = bool(failed_fixes(outcomes))
    if chosen not in ("text", "json"):
        from vora_cli.core.security.model import STATUS_OF, TOOL

        shown = replace(audit, report=report_with_failed_fixes(audit.report, outcomes))
        return emit_ci(out.run, chosen, shown.report, STATUS_OF[audit.fail_on], audit.areas, tool=TOOL,
                       summary=shown.summary_text()) or (1 if failed_fix else 0)
    final, done = audit, outcomes
    payload = audit.to_dict() if done is None else {**audit.to_dict(), "ok": not (audit.failed or failed_fix),
                                                     "fixes": [o.to_dict() for o in done]}

    def human(o: Output) -> None:
        _render(o, final, verbose, fixed=done is not None)
        if done is not None:
            render_outcomes(o, done, {c.fix.id: c.fix.description for c in final.report.checks if c.fix})

    return out.emit(payload, human, failed=final.failed or failed_fix)


