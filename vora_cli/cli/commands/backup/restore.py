"""`vora backup restore ARCHIVE`: verified, staged, landed all or nothing under the writers' locks;
never over a differing file without --force, never while the gateway runs without --force."""

from __future__ import annotations

from pathlib import Path

from vora_cli.cli.commands.backup._shared import keys_of, working
from vora_cli.cli.declare import command
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.backup._options import IdentityOption, PassphraseFileOption, PassphraseOption
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption
    from vora_cli.cli.output import Output
    from vora_cli.core.backup.restore import RestoreReport

@command("restore", examples=(
    "vora backup restore ARCHIVE --dry-run",
    "vora backup restore ARCHIVE --to /tmp/inspect",
    "vora backup restore ARCHIVE --force",
))
def backup_restore(
    state: AppState,
    archive: Annotated[Path, typer.Argument(help="The .tar.gz to restore (vora's or the gateway's).")],
    to: Annotated[Path | None, typer.Option(
        "--to", metavar="DIR", help="Restore the state dir into DIR (a new folder) instead of where it came from.")]
    = None,
    dry_run: DryRunOption = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace files that differ (backed up first), even while the gateway runs.")] = False,
    allow_other_paths: Annotated[bool, typer.Option(
        "--allow-other-paths",
        help="Also restore assets to paths this install's rules do not name (trust the archive's paths).")] = False,
    identity: IdentityOption = None,
    passphrase: PassphraseOption = False,
    passphrase_file: PassphraseFileOption = None,
    json: JsonOption = False,
) -> int:
    """Restore a backup archive: into the paths it came from, or the state dir into --to DIR.

    The archive is verified first. Without --to, an asset goes back only to a path this install
    names (its state dir, config, credentials, workspaces, ...); the others are listed as left
    out unless --allow-other-paths. Files that differ from the archive are not replaced without
    --force (and then a pre-restore backup of each is written first); nothing is written while
    the gateway runs unless --force. Every file lands or none does; an interrupted restore is
    finished or rolled back by the next one (or vora doctor --fix). --dry-run lists every file it
    would create, replace or leave.
    """
    from vora_cli.core.backup.restore import restore_archive

    out = state.output(json)
    keys = keys_of(identity, passphrase, passphrase_file)
    with working(out, f"Checking {archive.name} ...", None if dry_run else "Staging the files") as progress:
        report = restore_archive(state.install, archive, to=to, dry_run=dry_run, force=force, keys=keys,
                                 progress=progress, other_paths=allow_other_paths)
    for recovered in report.recovered:
        if recovered.outcome != "in-progress":
            out.note(f"an interrupted restore of {recovered.archive} was {recovered.outcome.replace('-', ' ')} first")
        for path in recovered.left:
            out.warn(f"{path} changed since the interrupted restore; left as it is")
    unnamed = [s for s in report.skipped if s.reason == "not-named"]
    if unnamed:
        out.warn(f"{plural(len(unnamed), 'asset')} left out: no rule of this install names their paths "
                 f"({unnamed[0].source_path}); if the config that names them was restored now, run the restore "
                 "again, or pass --allow-other-paths if you trust the archive's paths")
    for left in report.pre_restore_left:
        out.warn(f"the pre-restore backup lacks {left.source_path}: {left.detail}")
    if report.gateway is not None and not dry_run:
        out.warn(f"the gateway is running ({report.gateway.detail}); restored anyway (--force): restart it")
    if report.pre_restore_backup is not None:
        out.note(f"Wrote {report.pre_restore_backup} (what was replaced, as it was)")
    return out.emit(report.to_dict(), lambda o: render_restore(o, report))


def render_restore(out: Output, report: RestoreReport) -> None:
    what = "every hash verified" if report.hashes else "structure verified; this archive carries no hashes"
    out.line(f"{'Restore plan (dry run)' if report.dry_run else 'Restored'}: {report.archive_path} "
             f"({report.format} archive, {what})")
    for target in report.targets:
        moved = "" if target.base == target.asset.source_path else f" -> {target.base}"
        out.line(f"- {target.asset.kind}: {target.asset.source_path}{moved}")
    for left in report.skipped:
        out.line(f"- {left.kind}: {left.source_path} left out ({left.detail})")
    if report.dry_run:
        rows = [[a.path, a.action, a.type, a.detail] for a in report.actions]
        out.table(["path", "action", "type", "why"], rows, keep=3)
        if report.gateway is not None:
            out.line(f"The gateway is running ({report.gateway.detail}): a restore would refuse without --force.")
    else:
        for action in report.actions:
            if action.action in ("create", "replace"):
                out.line(f"{'created' if action.action == 'create' else 'replaced'} {action.type} {action.path}")
    done = ("would create {create}, replace {replace}, leave {same} unchanged" if report.dry_run
            else "created {create}, replaced {replace}, left {same} unchanged")
    out.line(done.format(create=report.count("create"), replace=report.count("replace"), same=report.count("same")))
    if report.pre_restore_backup is not None:
        out.line(f"Pre-restore backup of what was replaced: {report.pre_restore_backup}")
