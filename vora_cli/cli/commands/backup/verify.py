"""`vora backup verify ARCHIVE`: structure, manifest, and every file's sha256 and size."""

from __future__ import annotations

from pathlib import Path

from vora_cli.cli.commands.backup._shared import bullets, keys_of, size_text, working
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.backup._options import IdentityOption, PassphraseFileOption, PassphraseOption
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output
    from vora_cli.core.backup.verify import VerifyReport

SHOWN = 50


@command("verify", examples=("vora backup verify ~/Backups/2026-01-01T00-00-00.000Z-vora-backup.tar.gz --json",))
def backup_verify(
    state: AppState,
    archive: Annotated[Path, typer.Argument(help="The .tar.gz to check (vora's or the gateway's).")],
    identity: IdentityOption = None,
    passphrase: PassphraseOption = False,
    passphrase_file: PassphraseFileOption = None,
    json: JsonOption = False,
) -> int:
    """Verify a backup archive: no traversal, links out or devices; the manifest; every hash.

    A changed byte, a missing or an extra file fails (exit 1), naming each file. An archive from
    the gateway's own `backup create` carries no hashes: it is checked for structure only. Verify
    proves integrity, not origin: whoever can write the archive can rewrite a file and its hash;
    an archive encrypted to a key only you hold cannot be forged that way.
    """
    from vora_cli.core.backup.verify import verify_archive

    out = state.output(json)
    keys = keys_of(identity, passphrase, passphrase_file)
    with working(out, f"Verifying {archive.name} ..."):
        report = verify_archive(archive, keys)
    return out.emit(report.to_dict(), lambda o: render_verify(o, report), failed=not report.ok)


def render_verify(out: Output, report: VerifyReport) -> None:
    out.line(f"Backup archive {'OK' if report.ok else 'FAILED'}: {report.archive_path}")
    out.line(f"Archive root: {report.archive_root or '-'}")
    out.line(f"Created at: {report.created_at or '-'}" + (f" by {report.created_by}" if report.created_by else ""))
    sealed = ", age-encrypted" if report.encrypted else ""
    if report.hashes:
        out.line(f"Format: {report.format}{sealed}; every file's sha256, size and mode checked")
    else:
        out.line(f"Format: {report.format}{sealed}; structure only: this archive carries no hashes")
    out.line(f"Assets: {report.asset_count}; entries: {report.entry_count}; files: {report.file_count} "
             f"({size_text(report.payload_bytes)}); archive {size_text(report.archive_bytes)}")
    if report.problems:
        bullets(out, f"Problems ({len(report.problems)}):",
                [f"{p.path}: {p.problem}: {p.detail}" for p in report.problems], SHOWN)
