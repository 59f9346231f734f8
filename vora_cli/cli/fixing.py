"""`--fix` on a terminal or in a script, for every client of the check engine (`vora doctor`,
`vora security audit`): choose, preview on stderr, confirm once per fix, apply each on its own."""

from __future__ import annotations

from collections.abc import Sequence

from vora_cli.cli.output import Output, stdin_is_interactive, write_stderr
from vora_cli.core.errors import VoraError
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.doctor.fixes import FixOutcome
    from vora_cli.core.doctor.model import DoctorReport
    from vora_cli.core.install import Install


def run_fixes(
    out: Output,
    report: DoctorReport,
    install: Install,
    fix_ids: Sequence[str],
    *,
    yes: bool,
    dry_run: bool,
    json: bool,
    fixable: Sequence[str],
    only_when_named: Sequence[str],
    command: str,
) -> tuple[bool, list[FixOutcome]]:
    """Whether a fix was applied (the caller runs its checks again), and every fix's outcome.
    Without a terminal (or with `--json`) and without `--yes`, nothing is touched: the
    `confirmation_required` error comes first. `command` names the writes in the audit log."""
    from vora_cli.core.doctor.fixes import (
        APPLIED,
        DRY_RUN,
        FAILED,
        SKIPPED,
        FixOutcome,
        apply_fix,
        preview_fix,
        select_fixes,
    )

    fixes, outcomes = select_fixes(report, fix_ids, fixable=fixable, only_when_named=only_when_named)
    if fixes and not (yes or dry_run) and (json or not stdin_is_interactive()):
        # Ask before anything is touched, or not at all (spec README: never prompt without a terminal).
        raise VoraError(
            "confirmation_required",
            f"{plural(len(fixes), 'fix')} {'needs' if len(fixes) == 1 else 'need'} a confirmation and there is no terminal to ask",
            "pass --yes to apply them, or --dry-run to only show them",
        )
    if fixes:  # a dry run is refused where the real run would be
        install.refuse_newer_line_write(command)
    applied_any = False
    for fix in fixes:
        try:
            preview = preview_fix(fix, install, command=command)
        except VoraError as error:
            outcomes.append(FixOutcome(fix.id, FAILED, error.message, ""))
            continue
        if dry_run:  # the plan is printed after the report (`render_outcomes`), where it stays in sight
            outcomes.append(FixOutcome(fix.id, DRY_RUN, "not applied (dry run)", preview))
            continue
        if not json:
            out.note(f"Fix {fix.id}: {fix.description}")
            write_stderr(preview)
        if not out.confirm(f"Apply fix {fix.id}?", yes=yes):
            outcomes.append(FixOutcome(fix.id, SKIPPED, "not confirmed", preview))
            continue
        outcome = apply_fix(fix, install, preview, command=command)
        applied_any = applied_any or outcome.status == APPLIED
        outcomes.append(outcome)
    if not fixes and not outcomes and not json:
        out.note("Nothing to fix.")
    return applied_any, outcomes


def render_outcomes(out: Output, outcomes: Sequence[FixOutcome], descriptions: dict[str, str] | None = None) -> None:
    """Each fix as applied, skipped or failed, after the report (the backup of a config fix); a dry
    run's plan last of all, each fix with what it would do (`descriptions`, by fix id) and its
    preview (the chmods, the config diff), so it is what stays on the screen."""
    from vora_cli.core.doctor.fixes import DRY_RUN

    done = [o for o in outcomes if o.status != DRY_RUN]
    planned = [o for o in outcomes if o.status == DRY_RUN]
    if done:
        out.line()
        out.line("Fixes:")
        for o in done:
            backups = o.backups or ((o.backup,) if o.backup else ())
            backup = f" (backup{'s' if len(backups) > 1 else ''}: {', '.join(backups)})" if backups else ""
            out.line(f"  {o.status}: {o.id}: {o.message}{backup}")
    if planned:
        out.line()
        out.line("Would fix (dry run, nothing changed):", "bold")
        for o in planned:
            what = (descriptions or {}).get(o.id)
            out.line(f"  {o.id}" + (f": {what}" if what else ""))
            if o.preview.startswith("--- "):
                out.diff(o.preview)
            else:
                for line in o.preview.splitlines():
                    out.line(f"    {line}", hanging="      ")
