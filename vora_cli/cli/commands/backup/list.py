"""`vora backup list [DIR]`: the archives in a folder, each with whether it verifies."""

from __future__ import annotations

from pathlib import Path

from vora_cli.cli.commands.backup._shared import size_text, working
from vora_cli.cli.declare import command
from vora_cli.cli.tables import Cell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, NoHeadersOption
    from vora_cli.cli.output import Output
    from vora_cli.core.backup.listing import BackupList

@command("list", examples=("vora backup list", "vora backup list ~/Backups --json"))
def backup_list(
    state: AppState,
    folder: Annotated[Path | None, typer.Argument(
        metavar="[DIR]", help="Where to look (default: vora's backup dir, where create writes).")] = None,
    json: JsonOption = False,
    no_headers: NoHeadersOption = False,
) -> int:
    """List backup archives: date, size, file count, and whether each verifies (all hashes read)."""
    from vora_cli.core.backup.listing import list_archives
    from vora_cli.core.userdirs import backup_dir

    out = state.output(json, no_headers=no_headers)
    with working(out, "Verifying the archives ..."):
        listed = list_archives(backup_dir() if folder is None else folder)
    return out.emit(listed.to_dict(), lambda o: render_list(o, listed))


def render_list(out: Output, listed: BackupList) -> None:
    if not listed.archives:
        where = "" if listed.exists else " (it does not exist yet)"
        out.line(f"No backup archives in {listed.folder}{where}.")
        return
    rows: list[list[str | Cell]] = []
    for archive in listed.archives:
        verdict = ("ok" if archive.hashes else "ok (structure only)") if archive.ok else \
            Cell(f"FAILED: {archive.problems} problem(s), first {archive.first_problem}",
                 f"FAILED ({archive.problems})")
        created = archive.created_at or "-"
        rows.append([archive.path.name, Cell(created, created[:16].replace("T", " ")), size_text(archive.bytes),
                     str(archive.files), archive.format, verdict])
    out.table(["archive", "created", "size", "files", "format", "verifies"], rows, keep=2, whole=("verifies",))
    if not out.no_headers:
        out.line(f"{len(listed.archives)} archive(s) in {listed.folder}.")
