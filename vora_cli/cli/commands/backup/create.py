"""`vora backup create`: one .tar.gz (0600) in the gateway's layout, every file hashed."""

from __future__ import annotations

from vora_cli.cli.commands.backup._shared import bullets, read_passphrase, size_text, working
from vora_cli.cli.declare import command
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.backup._options import PassphraseFileOption, PassphraseOption
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
    "vora backup create --encrypt-to age1...",
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
    encrypt_to: Annotated[list[str] | None, typer.Option(
        "--encrypt-to", metavar="RECIPIENT",
        help="Encrypt the archive with age to this X25519 recipient (age1…); repeatable.")] = None,
    passphrase: PassphraseOption = False,
    passphrase_file: PassphraseFileOption = None,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> int:
    """Back up this install: state dir, config and includes, credentials, workspaces.

    The archive is the gateway's own layout (its `backup verify` accepts it) plus every file's
    sha256, size and mode. Safe while the gateway runs: transcripts are copied as whole lines,
    session stores under the gateway's lock rule, and files that changed meanwhile are listed.
    """
    from vora_cli.core.backup.create import create_backup
    from vora_cli.core.backup.encryption import Sealing
    from vora_cli.core.backup.plan import BackupOptions
    from vora_cli.core.errors import VoraError

    out = state.output(json)
    options = BackupOptions(only_config=only_config, include_workspace=not no_workspace and not only_config,
                            include_logs=include_logs, include_links=include_links)
    secret = read_passphrase(passphrase, passphrase_file, confirm=True)
    if secret is not None and encrypt_to:
        raise VoraError("usage", "--encrypt-to and a passphrase cannot be used together",
                        "age seals an archive to recipients or to one passphrase")
    sealing = Sealing(tuple(encrypt_to or ()), secret)
    with working(out, "Planning the backup ..." if dry_run else "Walking the install ...",
                 None if dry_run else "Writing the archive") as progress:
        result = create_backup(state.install, options, output=output_to, dry_run=dry_run, sealing=sealing,
                               progress=progress)
    return out.emit(result.to_dict(), lambda o: render_create(o, result))


def render_create(out: Output, result: BackupResult) -> None:
    from vora_cli.core.backup.manifest import how_to_include, left_out

    out.line(f"Included {plural(len(result.assets), 'path')}:")
    for asset in result.assets:
        out.line(f"- {asset.kind}: {asset.source_path}")
    missing = left_out(result.skipped)
    if missing:
        out.line(f"Left out {len(missing)}:")
        rows = [[str(s.source_path), s.detail, how_to_include(s)] for s in missing[:SHOWN]]
        out.table(["what", "why", "to include it"], rows, keep=1)
        if len(missing) > SHOWN:
            out.line(f"  ... and {len(missing) - SHOWN} more (--json lists each)")
    out.line(f"{plural(result.files, 'file')}, {size_text(result.payload_bytes)}; {plural(result.dirs, 'folder')}, "
             f"{plural(result.links, 'link')}")
    if result.changed:
        changes = [f"{r.path.split('/payload/', 1)[-1]}: {r.changed or 'unchanged'}"
                   + (f", torn last line of {r.left_out} bytes left out" if r.left_out else "") for r in result.changed]
        bullets(out, f"Changed while being backed up ({len(result.changed)}; the archive holds a consistent copy):",
                changes, SHOWN)
    sealed = ", age-encrypted" if result.encrypted else ""
    if result.dry_run:
        out.line(f"Dry run: no archive was written (it would be {result.archive_path}{sealed}).")
    else:
        out.line(f"Created {result.archive_path} ({size_text(result.archive_bytes)}, mode 0600{sealed}); "
                 "vora backup verify checks it any time, vora backup list shows it.")
