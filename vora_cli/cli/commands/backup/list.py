"""`vora backup list [DIR]`: the backup archives in a folder, from their manifests (`--verify`: every hash)."""

from __future__ import annotations

from pathlib import Path

from vora_cli.cli.commands.backup._shared import keys_of, size_text, working
from vora_cli.cli.declare import command
from vora_cli.cli.tables import Cell
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.backup._options import IdentityOption, PassphraseFileOption, PassphraseOption
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, NoHeadersOption
    from vora_cli.cli.output import Output
    from vora_cli.core.backup.listing import BackupList

@command("list", examples=("vora backup list", "vora backup list ~/Backups --json", "vora backup list --verify"))
def backup_list(
    state: AppState,
    folder: Annotated[Path | None, typer.Argument(
        metavar="[DIR]", help="Where to look (default: vora's backup dir, where create writes).")] = None,
    verify: Annotated[bool, typer.Option("--verify", help="Also verify each archive (reads every hash).")] = False,
    identity: IdentityOption = None,
    passphrase: PassphraseOption = False,
    passphrase_file: PassphraseFileOption = None,
    json: JsonOption = False,
    no_headers: NoHeadersOption = False,
) -> int:
    """List backup archives: date, size, files and assets, from each one's manifest.

    Every backup archive in the folder is listed, whatever its file name. Nothing is hashed
    unless --verify; an encrypted archive shows its summary with --identity or its passphrase.
    """
    from vora_cli.core.backup.listing import list_archives
    from vora_cli.core.userdirs import backup_dir

    out = state.output(json, no_headers=no_headers)
    keys = keys_of(identity, passphrase, passphrase_file)
    with working(out, "Verifying the archives ..." if verify else "Reading the archives ..."):
        listed = list_archives(backup_dir() if folder is None else folder, verify=verify, keys=keys)
    for unreadable in listed.unreadable:
        out.warn(f"{unreadable.detail}; left out of the list")
    return out.emit(listed.to_dict(), lambda o: render_list(o, listed))


def render_list(out: Output, listed: BackupList) -> None:
    if not listed.archives:
        where = "" if listed.exists else " (it does not exist yet)"
        out.line(f"No backup archives in {listed.folder}{where}.")
        return
    rows: list[list[str | Cell]] = []
    for archive in listed.archives:
        created = archive.created_at or archive.modified_at
        files = "-" if archive.files is None else str(archive.files)
        kind = archive.format + (" (age)" if archive.encrypted and archive.format != "encrypted" else "")
        row: list[str | Cell] = [archive.path.name, Cell(created, created[:16].replace("T", " ")),
                                 size_text(archive.bytes), files, kind, ", ".join(archive.assets) or "-"]
        if listed.verified:
            verdict = ("ok" if archive.hashes else "ok (structure only)") if archive.ok else \
                "needs its key" if archive.ok is None else \
                Cell(f"FAILED: {plural(archive.problems, 'problem')}, first {archive.first_problem}",
                     f"FAILED ({archive.problems})")
            row.append(verdict)
        rows.append(row)
    headers = ["archive", "created", "size", "files", "format", "assets"] + (["verifies"] if listed.verified else [])
    out.table(headers, rows, keep=2, whole=("verifies",) if listed.verified else ())
    if not out.no_headers:
        more = "" if listed.verified else "; --verify reads every hash"
        out.line(f"{plural(len(listed.archives), 'archive')} in {listed.folder}{more}.")
