"""`vora backup list [DIR]`: the archives in a folder (default: vora's backup dir), newest first,
each verified (every hash read: a list of big archives takes as long as verifying each)."""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.backup.layout import is_backup_name
from vora_cli.core.backup.verify import verify_archive
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class ListedArchive:
    """One archive found in the backup folder, as `backup list` shows it."""
    path: Path
    created_at: str | None
    bytes: int
    files: int
    format: str
    ok: bool
    hashes: bool
    problems: int
    first_problem: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "name": self.path.name, "createdAt": self.created_at, "bytes": self.bytes,
                "fileCount": self.files, "format": self.format, "ok": self.ok, "hashes": self.hashes,
                "problems": self.problems, "firstProblem": self.first_problem}


@dataclass(frozen=True)
class BackupList:
    """The archives of the backup folder (`vora backup list`)."""
    folder: Path
    exists: bool
    archives: tuple[ListedArchive, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"dir": str(self.folder), "exists": self.exists, "count": len(self.archives),
                "archives": [a.to_dict() for a in self.archives]}


def list_archives(folder: Path) -> BackupList:
    """Every `<createdAt>-…backup.tar.gz` in `folder` (not below it), newest name first."""
    folder = Path(os.path.abspath(folder))  # every path in vora's JSON is absolute
    try:
        names = sorted((n for n in os.listdir(folder) if is_backup_name(n)), reverse=True)
    except FileNotFoundError:
        return BackupList(folder, False, ())
    except NotADirectoryError:
        raise VoraError("invalid", f"{folder} is a file, not a folder",
                        f"{command_line('vora', 'backup', 'verify', folder)} checks one archive") from None
    listed = []
    for name in names:
        path = folder / name
        if not path.is_file():
            continue
        report = verify_archive(path)
        first = f"{report.problems[0].path}: {report.problems[0].problem}" if report.problems else None
        listed.append(ListedArchive(path, report.created_at, report.archive_bytes, report.file_count, report.format,
                                    report.ok, report.hashes, len(report.problems), first))
    return BackupList(folder, True, tuple(listed))
