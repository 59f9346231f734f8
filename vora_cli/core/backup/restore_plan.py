"""What a restore would do, file by file, before anything is written (docs/backup.md, "Restore").

Each archive entry gets a target path (its asset's source path, or `--to DIR` for the state
asset) and an action: `create` (nothing there), `same` (identical bytes and mode: left alone),
`replace` (differs: only with `--force`, after a backup of it), or `blocked` (a folder where a
file belongs, or a path below a symlink on disk: never, not even with `--force`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from vora_cli.core.backup.layout import MANIFEST_NAME, within
from vora_cli.core.backup.manifest import Asset, Manifest, Skipped, mode_text
from vora_cli.core.backup.verify import Entry, VerifyReport
from vora_cli.core.errors import VoraError
from vora_cli.core.json_data import CamelJson
from vora_cli.core.records import dataclass

_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class RestoreAction(CamelJson):
    """What a restore does to one path on disk."""
    path: str  # the target on disk
    type: str  # file | dir | symlink
    action: str  # create | replace | same | blocked
    detail: str
    entry: str  # the archive entry


@dataclass(frozen=True)
class Target:
    """An asset of the archive and where its root lands on this machine."""
    asset: Asset
    base: Path  # where the asset's root lands

    def to_dict(self) -> dict[str, str]:
        return {**self.asset.to_dict(), "target": str(self.base)}


def choose_targets(manifest: Manifest, to: Path | None) -> tuple[list[Target], list[Skipped]]:
    """Without `to`: every asset back to its source path. With it: the state asset into `to`
    (or, in a config-only archive, each config file into `to`); the other assets are left out."""
    if to is None:
        return [Target(a, a.source_path) for a in manifest.assets], []
    states = [a for a in manifest.assets if a.kind == "state"]
    chosen = states[:1] or [a for a in manifest.assets if a.kind == "config"]
    if not chosen:
        raise VoraError("invalid", "this archive holds no state dir and no config file to restore with --to",
                        "restore it without --to, into the paths it came from")
    targets = [Target(a, to if a.kind == "state" else to / a.source_path.name) for a in chosen]
    left = [Skipped(a.kind, a.source_path, "not-asked", "--to restores the state dir only")
            for a in manifest.assets if a not in chosen]
    return targets, left


def file_sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _below_symlink(path: Path, base: Path) -> Path | None:
    """The first symlink on disk between `base` (itself may be one) and `path`, if any."""
    current = path.parent
    while current != base and base in current.parents:
        if current.is_symlink():
            return current
        current = current.parent
    return None


def _compare(entry: Entry, target: Path, source: Entry | None) -> tuple[str, str]:
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return "create", "not there"
    except NotADirectoryError:
        return "blocked", "a file stands where the archive has a folder above it"
    kind = entry.type if entry.type != "hardlink" else "file"
    if kind == "dir":
        if stat.S_ISDIR(info.st_mode):
            return "same", "folder exists"
        return "blocked", "something that is not a folder stands where the archive has a folder"
    if stat.S_ISDIR(info.st_mode):
        return "blocked", f"a folder stands where the archive has a {kind}"
    if kind == "symlink":
        if stat.S_ISLNK(info.st_mode) and os.readlink(target) == entry.link:
            return "same", f"links to {entry.link}"
        return "replace", f"the archive has a link to {entry.link}"
    if not stat.S_ISREG(info.st_mode):
        return "replace", "not a regular file on disk"
    data = source or entry
    if info.st_size != data.size:
        return "replace", f"{info.st_size:,} bytes on disk, {data.size:,} in the archive"
    if file_sha256(target) != data.sha256:
        return "replace", "same size, different content"
    if stat.S_IMODE(info.st_mode) != data.mode & 0o777:
        return "replace", f"mode {mode_text(info.st_mode)} on disk, {mode_text(data.mode & 0o777)} in the archive"
    return "same", "identical"


def plan_actions(report: VerifyReport, targets: list[Target]) -> list[tuple[RestoreAction, Entry, Target]]:
    """Every entry of the chosen assets with its target and action, in archive order."""
    assert report.manifest is not None
    manifest_name = f"{report.manifest.archive_root}/{MANIFEST_NAME}"
    planned: list[tuple[RestoreAction, Entry, Target]] = []
    for name, entry in report.entries.items():
        if name == manifest_name:
            continue
        owner = max((t for t in targets if within(name, t.asset.archive_path)),
                    key=lambda t: len(t.asset.archive_path), default=None)
        if owner is None:
            continue
        relative = name[len(owner.asset.archive_path):].lstrip("/")
        path = owner.base / relative if relative else owner.base
        source = report.entries.get(entry.link or "") if entry.type == "hardlink" else None
        kind = "file" if entry.type == "hardlink" else entry.type
        link = _below_symlink(path, owner.base)
        if link is not None:
            action, detail = "blocked", f"lies below the symlink {link} on disk"
        else:
            action, detail = _compare(entry, path, source)
        planned.append((RestoreAction(str(path), kind, action, detail, name), source or entry, owner))
    return planned
