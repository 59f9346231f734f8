"""`vora backup create`: one .tar.gz (0600) in the gateway's layout, every file hashed."""

from __future__ import annotations

from vora_cli.cli.commands.backup._shared import bullets, size_text, working
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption
    from vora_cli.cli.output import Output
    from vora_cli.core.backup.create import BackupResult

SHOWN = 20


@command("create", examples=(
    "vora backup create",
    "vora backup create --output ~/Backups/ --json",
    "vora backup create --dry-run",
    "vora backup create --only-config",
))
def backup_create(
    state: AppState,
    output_to: Annotated[str | None, typer.Option(
        "--output", metavar="PATH",
        help="The archive file, or a folder for it (existing, or ending in /). Default: vora's backup dir.")] = None,
    only_config: Annotated[bool, typer.Option("--only-config", help="Only the config file and its $include files.")]
    = False,
    no_workspace: Annotated[bool, typer.Option("--no-workspace", help="Leave the agents' workspaces out.")] = False,
    include_logs: Annotated[bool, typer.Option("--include-logs", help="Also the state dir's logs/ folder.")] = False,
    include_links: Annotated[bool, typer.Option(
        "--include-links", help="Also the source folders of linked plugins (plugins.load.paths).")] = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> int:
    """Back up this install: state dir, config and includes, credentials, workspaces.

    The archive is the gateway's own layout (its `backup verify` accepts it) plus every file's
    sha256, size and mode. Safe while the gateway runs: transcripts are copied as whole lines,
    session stores under the gateway's lock rule, and files that changed meanwhile are listed.
    """
    from vora_cli.core.backup.create import create_backup
    from vora_cli.core.backup.plan import BackupOptions

    out = state.output(json)
    options = BackupOptions(only_config=only_config, include_workspace=not no_workspace and not only_config,
                            include_logs=include_logs, include_links=include_links)
    with working(out, "Writing the backup archive ..." if not dry_run else "Planning the backup ..."):
        result = create_backup(state.install, options, output=output_to, dry_run=dry_run)
    if not dry_run:
        out.note(f"wrote {result.archive_path} (mode 0600)")
    return out.emit(result.to_dict(), lambda o: render_create(o, result))


def render_create(out: Output, result: BackupResult) -> None:
    out.line(f"{'Backup archive (dry run)' if result.dry_run else 'Backup archive'}: {result.archive_path}")
    out.line(f"Included {len(result.assets)} path(s):")
    for asset in result.assets:
        out.line(f"- {asset.kind}: {asset.source_path}")
    if result.skipped:
        bullets(out, f"Left out {len(result.skipped)}:",
                [f"{s.kind}: {s.source_path} ({s.reason}: {s.detail})" for s in result.skipped], SHOWN)
    out.line(f"{result.files} file(s), {size_text(result.payload_bytes)}; {result.dirs} folder(s), "
             f"{result.links} link(s)")
    if result.changed:
        changes = [f"{r.path.split('/payload/', 1)[-1]}: {r.changed or 'unchanged'}"
                   + (f", torn last line of {r.left_out} bytes left out" if r.left_out else "") for r in result.changed]
        bullets(out, f"Changed while being backed up ({len(result.changed)}; the archive holds a consistent copy):",
                changes, SHOWN)
    if result.dry_run:
        out.line("Dry run: no archive was written.")
    else:
        out.line(f"Created {result.archive_path} ({size_text(result.archive_bytes)}); "
                 f"check it any time with: vora backup verify {result.archive_path}")
