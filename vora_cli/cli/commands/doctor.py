"""`vora doctor`: is this install sound? Read-only unless `--fix` (spec doctor.md)."""

from __future__ import annotations

import sys

from vora_cli.cli.check_options import choose_format, emit_ci, id_list, with_global_args
from vora_cli.cli.declare import command
from vora_cli.cli.fixing import render_outcomes
from vora_cli.cli.output import Output
from vora_cli.core.doctor_names import AREA_OF, FAIL_ON_LEVELS
from vora_cli.core.errors import VoraError
from vora_cli.core.records import replace
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
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
    from vora_cli.core.doctor.model import CheckResult, DoctorReport
    from vora_cli.core.install import Install

EXAMPLES = (
    "vora doctor",
    "vora doctor --json --fail-on warn",
    "vora doctor --format github",
    "vora doctor --format junit > doctor.xml",
    "vora doctor --format sarif > doctor.sarif",
    "vora doctor --only slot-context-engine,slot-memory",
    "vora doctor --fix --dry-run",
    "vora doctor --fix state-dir --yes",
    "vora doctor --list-checks",
)

MARKS = {"pass": "✓", "info": "i", "warn": "!", "error": "✗", "skip": "-"}
STYLES = {"pass": "green", "info": "cyan", "warn": "yellow", "error": "bold red", "skip": "dim"}


# -- rendering ----------------------------------------------------------------------------------

def _check_lines(out: Output, check: CheckResult) -> None:
    # on a terminal a long line folds at word boundaries, under the text it continues
    out.wrapped(f"{MARKS[check.status]} {check.id}: {check.message}", indent="  ", hanging="      ",
                style=STYLES[check.status])
    if check.status in ("warn", "error", "skip"):
        for detail in check.details:
            if detail not in check.message:  # said once: a detail the message already holds is not repeated
                out.wrapped(out.run.with_global_args(detail), indent="      ", hanging="        ")


def _next_steps(out: Output, report: DoctorReport) -> list[CheckResult]:
    """The checks with something to do: a finding and a command that does it."""
    return [c for c in report.checks
            if c.fix is not None and c.status not in ("pass", "skip") and c.fix.command]


def _render_steps(out: Output, checks: list[CheckResult]) -> None:
    """Each finding's step: what to do (words), then each command on a line of its own."""
    from vora_cli.cli.output import stream_is_terminal, terminal_width
    from vora_cli.cli.wrapping import wrap_command

    width = terminal_width() if stream_is_terminal(sys.stdout) else None
    for check in checks:
        fix = check.fix
        assert fix is not None and fix.command is not None
        out.wrapped(f"{check.id}: {fix.description}", indent="  ", hanging="      ")
        commands = [fix.command, *(f"or: {c}" for c in fix.alternatives)]
        for step in commands:
            shown = out.run.with_global_args(step)
            for line in (wrap_command(shown, width, indent="    ") if width else ["    " + shown]):
                out.line(line)


def render_report(out: Output, report: DoctorReport) -> None:
    from vora_cli.core.doctor_names import AREA_OF, LIVE_AREA

    live = any(AREA_OF.get(c.id) == LIVE_AREA for c in report.checks)
    mode = "offline + live gateway" if live else "offline"
    out.line(f"Vora doctor ({mode}): state dir {report.state_dir}, config {report.config_path}")
    area = None
    for check in report.checks:
        if AREA_OF.get(check.id) != area:
            area = AREA_OF.get(check.id)
            out.line()
            out.line(area or "Other")
        _check_lines(out, check)
    out.line()
    out.line(report.summary.text(), "bold")
    steps = _next_steps(out, report)
    if steps:
        out.line()
        out.line("Next steps:")
        _render_steps(out, steps)


# -- the command ---------------------------------------------------------------------------------

@command("doctor", hot=True, examples=EXAMPLES)
def doctor(
    state: AppState,
    fix_targets: Annotated[
        list[str] | None,
        typer.Argument(metavar="[ID]...", help="With --fix: only these fixes (the spec's `--fix [ID …]`).",
                       show_default=False),
    ] = None,
    json: JsonOption = False,
    format: FormatOption = None,
    only: OnlyOption = None,
    skip: SkipOption = None,
    fail_on: Annotated[
        str | None, typer.Option("--fail-on", metavar="|".join(FAIL_ON_LEVELS),
                                 help="Exit 1 at this severity or worse (default error; setting doctor.fail_on).")
    ] = None,
    fix: Annotated[bool, typer.Option("--fix", help="Apply the available fixes (each previewed and confirmed).")] = False,
    fix_id: Annotated[
        list[str] | None,
        typer.Option("--fix-id", metavar="ID", help="Only these fixes (implies --fix; repeat, or a,b)."),
    ] = None,
    yes: YesOption = False,
    dry_run: DryRunOption = False,
    live: Annotated[bool, typer.Option(
        "--live", help="Also ask the running gateway: reachable, auth, version, loaded slot plugins, memory.")] = False,
    url: UrlOption = None,
    timeout: TimeoutOption = None,
    list_checks: Annotated[bool, typer.Option(
        "--list-checks", help="List every check id with its group and what it verifies; run nothing.")] = False,
) -> int:
    """Check a Vora install: config, slots, plugins, workspace, devices (read-only unless --fix).

    --only, --skip and --fix-id repeat (--only a --only b) or take a comma list (--only a,b).
    --fix alone applies every available fix but plugin-settings (it deletes settings: name it);
    --fix ID... (or --fix-id ID) only those. Exit 0 when no check is an error (with
    --fail-on warn: no warning either), else 1. Only --live connects to the gateway (--url and --timeout apply to it).
    """
    from vora_cli.core.doctor.runner import run_doctor

    if list_checks:
        return _list_checks(state.output(json))
    if fix_targets and not fix:
        raise VoraError("usage", f"unexpected argument {fix_targets[0]!r}",
                        f"to apply only that fix: {command_line('vora', 'doctor', '--fix', *fix_targets)}")
    chosen = choose_format(format, json)
    json = chosen == "json"
    install = state.install
    out = state.output(json)
    only_ids, skip_ids, fix_ids = id_list(only), id_list(skip), id_list([*(fix_id or []), *(fix_targets or [])])
    report = run_doctor(install, only=only_ids, skip=skip_ids, fail_on=fail_on)
    fail_on = report.fail_on
    outcomes: list[FixOutcome] | None = None
    if fix or fix_ids or dry_run:
        report, outcomes = _fix(out, report, install, fix_ids, yes=yes, dry_run=dry_run,
                                json=json or chosen != "text", only=only_ids, skip=skip_ids)
    if live:
        from vora_cli.cli.connect import tell
        from vora_cli.core.doctor.live_checks import run_live

        found = run_live(install, report, url=url, timeout=timeout, only=only_ids, skip=skip_ids)
        tell(out, found.warnings, found.notes)
        report = found.report
    report = replace(report, checks=with_global_args(out.run, report.checks))
    if chosen not in ("text", "json"):
        from vora_cli.core.doctor.fixes import report_with_failed_fixes

        return emit_ci(out.run, chosen, report_with_failed_fixes(report, outcomes), fail_on, AREA_OF)
    final = report
    if outcomes is None:
        return out.emit(final.to_dict(), lambda o: render_report(o, final), failed=final.failed(fail_on))
    from vora_cli.core.doctor.fixes import FixedReport

    fixed = FixedReport(final, tuple(outcomes))

    def human(o: Output) -> None:
        render_report(o, final)
        render_outcomes(o, fixed.outcomes, {c.fix.id: c.fix.description for c in final.checks if c.fix})

    return out.emit(fixed.to_dict(), human, failed=fixed.failed(fail_on))


def _list_checks(out: Output) -> int:
    """`--list-checks`: each check under its group, what it verifies, when it runs, whether --fix mends it."""
    from vora_cli.core.doctor.runner import check_catalog

    catalog = check_catalog()

    def human(o: Output) -> None:
        width = max(len(c.id) for c in catalog)
        area = None
        for check in catalog:
            if check.area != area:
                area = check.area
                if check is not catalog[0]:
                    o.line()  # a blank line between areas (a line break inside `line` is shown as \n)
                o.line(area)
            when = {"live": " (with --live)", "log": " (when the log has a ready line)"}.get(check.runs, "")
            fix = {"auto": " [--fix]", "named": " [--fix ID]"}.get(check.fix or "", "")
            o.wrapped(f"{check.id.ljust(width)}  {check.verifies}{when}{fix}", indent="  ",
                      hanging=" " * (width + 4))
        o.line()
        o.wrapped(f"{len(catalog)} checks. Select with --only ID,ID or --skip ID (or the doctor.skip setting); "
                  "[--fix]: --fix mends it, [--fix ID]: only when named.")

    return out.emit({"checks": [c.to_dict() for c in catalog]}, human)


def _fix(
    out: Output,
    report: DoctorReport,
    install: Install,
    fix_ids: list[str],
    *,
    yes: bool,
    dry_run: bool,
    json: bool,
    only: list[str],
    skip: list[str],
) -> tuple[DoctorReport, list[FixOutcome]]:
    from vora_cli.cli.fixing import run_fixes
    from vora_cli.core.doctor.fixes import FIXABLE, ONLY_WHEN_NAMED
    from vora_cli.core.doctor.runner import run_doctor

    applied_any, outcomes = run_fixes(out, report, install, fix_ids, yes=yes, dry_run=dry_run, json=json,
                                      fixable=FIXABLE, only_when_named=ONLY_WHEN_NAMED, command="doctor --fix")
    if applied_any:
        report = run_doctor(install.fresh(), only=only, skip=skip, fail_on=report.fail_on)
    return report, outcomes
