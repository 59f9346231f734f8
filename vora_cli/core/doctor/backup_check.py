"""`backup-restore`: a `vora backup restore` that was killed half way, found by its journal and fixed as
the next restore would fix it (docs/doctor.md). Read-only: the journal's lock is only tried.
"""

from __future__ import annotations

from vora_cli.core.doctor.model import (
    ERROR,
    FIX_COMMAND,
    FIX_RECOVER,
    INFO,
    PASS,
    CheckResult,
    Evidence,
    Fix,
    Install,
)
from vora_cli.core.wording import plural


def check_backup_restore(install: Install) -> CheckResult:
    from vora_cli.core.backup import journal_dir, pending_journals

    interrupted: list[str] = []
    unreadable: list[str] = []
    details: list[str] = []
    live = 0
    journals = pending_journals()
    if journals:  # the restore's own code only when there is one to judge
        from vora_cli.core.backup.recovery import read_journal, running
    for path in journals:
        if running(path):
            live += 1
            continue
        journal = read_journal(path)
        if journal is None:
            unreadable.append(str(path))
            details.append(f"{path}: a restore of an unreadable journal, interrupted")
            continue
        interrupted.append(str(path))
        details.append(f"{path}: a restore of {journal.data.get('archive', '?')}, "
                       f"{plural(len(journal.ops()), 'path')}, interrupted")
    evidence = Evidence(files=(str(journal_dir()),))
    if unreadable:
        # neither the repair nor a restore acts while a journal it cannot read is there (it might
        # be a newer vora's): the operator moves it away first, out of the *.json the repair reads
        from vora_cli.core.shell import command_line

        first = unreadable[0]
        fix = Fix("backup-restore", FIX_COMMAND, "move the journal vora cannot read out of the way (when no restore "
                  "of yours is running), then finish or roll back the rest", command_line("mv", first, first + ".unreadable"))
        return CheckResult("backup-restore", ERROR, f"{plural(len(interrupted) + len(unreadable), 'vora backup restore')} "
                           "interrupted half way", tuple(details), evidence, fix)
    if interrupted:
        fix = Fix("backup-restore", FIX_RECOVER, "finish the interrupted restore, or roll it back (every landed "
                  "file put back as it was, every temp file removed)", "vora doctor --fix backup-restore",
                  alternatives=("vora backup restore ARCHIVE (finishes or rolls it back first)",),
                  journals=tuple(interrupted))
        return CheckResult("backup-restore", ERROR, f"{plural(len(interrupted), 'vora backup restore')} interrupted half way",
                           tuple(details), evidence, fix)
    if live:
        return CheckResult("backup-restore", INFO, f"{plural(live, 'vora backup restore')} running now", (), evidence)
    return CheckResult("backup-restore", PASS, "no interrupted restore", (), evidence)
