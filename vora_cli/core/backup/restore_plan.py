"""What a restore would do, file by file, before anything is written: each asset's target, judged by its
real place, and each entry's action (docs/backup.md, "Where a restore writes").
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from vora_cli.core.backup.layout import is_manifest_member
from vora_cli.core.backup.manifest import Asset, Skipped
from vora_cli.core.backup.verify import Entry, VerifyReport
from vora_cli.core.errors import VoraError
from vora_cli.core.json_data import CamelJson
from vora_cli.core.paths import is_within
from vora_cli.core.records import dataclass

KNOWN_KINDS = ("state", "config", "credentials", "workspace", "sessions", "plugin-link")


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


@dataclass(frozen=True)
class Planned:
    """One entry's action, the entry (a hard link's: its file's), its target, and what the path
    held when planned: (device, inode, size, mtime) and, for a replace, its sha256 or link text."""
    action: RestoreAction
    entry: Entry
    target: Target
    seen: tuple[int, int, int, int] | None = None
    before: str | None = None


def real_place(path: Path, folder: bool) -> Path:
    """Where `path` is once its symlinked parents are resolved (a folder: itself too). A file's
    own name is kept: a link there is something the restore replaces, not a way elsewhere."""
    if folder:
        return Path(os.path.realpath(path))
    return Path(os.path.realpath(path.parent)) / path.name


def _is_folder(report: VerifyReport, asset: Asset) -> bool:
    root = report.entries.get(asset.archive_path)
    return root is None or root.type == "dir"


def _linked_assets(report: VerifyReport, state: Asset) -> dict[str, Asset]:
    """The state asset's links (archive names) that resolve exactly onto another asset's root:
    how the install reached a config, credentials folder or workspace kept elsewhere."""
    from vora_cli.core.backup.containment import CaseClash, LinkLoop, TooLong, archive_namespace, owners

    assert report.manifest is not None
    namespace = archive_namespace(report.entries, owners(report.manifest.assets))
    roots = {str(a.source_path): a for a in report.manifest.assets if a is not state}
    found: dict[str, Asset] = {}
    for name, entry in report.entries.items():
        if entry.type != "symlink" or not is_within(name, state.archive_path) or name == state.archive_path:
            continue
        try:
            reached = namespace.where(str(state.source_path) + name[len(state.archive_path):])
        except (LinkLoop, TooLong, CaseClash):
            continue
        if reached in roots:
            found[name] = roots[reached]
    return found


def _in_place(report: VerifyReport, named: frozenset[str] | None) -> tuple[list[Target], list[Skipped]]:
    """Every asset back to its source path, when the install's rules name it (`named`; None:
    any path, `--allow-other-paths`)."""
    assert report.manifest is not None
    targets: list[Target] = []
    skipped: list[Skipped] = []
    for asset in report.manifest.assets:
        base = real_place(asset.source_path, _is_folder(report, asset))
        if named is not None and asset.kind not in KNOWN_KINDS:
            skipped.append(Skipped(asset.kind, asset.source_path, "not-named",
                                   f"an asset of a kind vora does not know ({asset.kind})"))
        elif named is not None and str(asset.source_path) not in named and str(base) not in named:
            skipped.append(Skipped(asset.kind, asset.source_path, "not-named",
                                   f"no rule of this install names this {asset.kind} path"))
        else:
            targets.append(Target(asset, base))
    return targets, skipped


def choose_targets(report: VerifyReport, to: Path | None, named: frozenset[str] | None = None
                   ) -> tuple[list[Target], list[Skipped], set[str]]:
    """Without `to`: every asset this install names (`named`, see `_in_place`) back to its source
    path. With it (a real path): the state asset into `to`, each asset the state dir links to in
    the link's place (so the copy never points back into the live install), and a config-only
    archive's files in their own layout (a relative `$include` still resolves). Also returns the
    links not to create (replaced by their asset)."""
    manifest = report.manifest
    assert manifest is not None
    if to is None:
        targets, skipped = _in_place(report, named)
        return targets, skipped, set()
    states = [a for a in manifest.assets if a.kind == "state"]
    if not states:
        configs = [a for a in manifest.assets if a.kind == "config"]
        if not configs:
            raise VoraError("invalid", "this archive holds no state dir and no config file to restore with --to",
                            "restore it without --to, into the paths it came from")
        left = [Skipped(a.kind, a.source_path, "not-asked", "--to restores the state dir only")
                for a in manifest.assets if a not in configs]
        base = os.path.commonpath([str(a.source_path.parent) for a in configs])
        return [Target(a, to / os.path.relpath(a.source_path, base)) for a in configs], left, set()
    state = states[0]
    targets = [Target(state, to)]
    linked = _linked_assets(report, state)
    for name, asset in linked.items():
        if all(t.asset is not asset for t in targets):
            targets.append(Target(asset, to / name[len(state.archive_path):].lstrip("/")))
    chosen = {id(t.asset) for t in targets}
    left = [Skipped(a.kind, a.source_path, "not-asked", "--to restores the state dir only")
            for a in manifest.assets if id(a) not in chosen]
    return targets, left, set(linked)


def _below_symlink(path: Path, base: Path) -> Path | None:
    """The first symlink on disk between `base` (itself may be one) and `path`, if any."""
    current, root = path.parent, str(base)
    while str(current) != root and is_within(str(current), root):
        if current.is_symlink():
            return current
        current = current.parent
    return None


def _compare(entry: Entry, target: Path, source: Entry | None) -> tuple[str, str, os.stat_result | None, str | None]:
    """(action, why, what lstat saw, the sha256 or link text of what a replace replaces)."""
    from vora_cli.core.backup.limits import file_sha256

    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return "create", "not there", None, None
    except NotADirectoryError:
        return "blocked", "a file stands where the archive has a folder above it", None, None
    kind = entry.type if entry.type != "hardlink" else "file"
    if kind == "dir":
        if stat.S_ISDIR(info.st_mode):
            return "same", "folder exists", info, None
        return "blocked", "something that is not a folder stands where the archive has a folder", info, None
    if stat.S_ISDIR(info.st_mode):
        return "blocked", f"a folder stands where the archive has a {kind}", info, None
    if kind == "symlink":
        text = os.readlink(target) if stat.S_ISLNK(info.st_mode) else None
        if text == entry.link:
            return "same", f"links to {entry.link}", info, None
        return "replace", f"the archive has a link to {entry.link}", info, text
    if not stat.S_ISREG(info.st_mode):
        return "replace", "not a regular file on disk", info, os.readlink(target) if stat.S_ISLNK(info.st_mode) else None
    data = source or entry
    digest = file_sha256(target)
    if info.st_size != data.size:
        return "replace", f"{info.st_size:,} bytes on disk, {data.size:,} in the archive", info, digest
    if digest != data.sha256:
        return "replace", "same size, different content", info, digest
    return "same", "identical (its mode on disk is kept)", info, None


def _litter(target: Target, relative: str, entry: Entry) -> Skipped | None:
    """A lock or temp file a gateway archive holds: restored, it would block or confuse a writer."""
    from vora_cli.core.backup.plan import litter

    if not relative or entry.type not in ("file", "hardlink"):
        return None
    found = litter(target.asset, relative, relative.rsplit("/", 1)[-1], entry.size)
    return Skipped(target.asset.kind, target.base / relative, *found) if found else None


def plan_actions(report: VerifyReport, targets: list[Target], dropped: set[str] = frozenset()  # type: ignore[assignment]
                 ) -> tuple[list[Planned], list[Skipped]]:
    """Every entry of the chosen assets with its target and action, in archive order, and the
    lock and temp files left out. Raises `invalid` when two entries would land on one path."""
    from vora_cli.core.backup.containment import fold
    from vora_cli.core.backup.layout import PathIndex
    from vora_cli.core.backup.snapshot import identity

    assert report.manifest is not None
    index: PathIndex[Target] = PathIndex()
    for target in targets:
        index.put(target.asset.archive_path, target)
    planned: list[Planned] = []
    left: list[Skipped] = []
    landing: dict[str, str] = {}  # each target path as a case-insensitive file system reads it -> its entry
    for name, entry in report.entries.items():
        owner = index.deepest(name)
        if owner is None or name in dropped or is_manifest_member(name):
            continue
        relative = name[len(owner.asset.archive_path):].lstrip("/")
        litter = _litter(owner, relative, entry)
        if litter is not None:
            left.append(litter)
            continue
        path = owner.base / relative if relative else owner.base
        other = landing.setdefault(fold(str(path)), name)
        if other != name:
            raise VoraError("invalid", f"{other} and {name} would both land on {path} (one path, or one on a "
                            "case-insensitive file system); nothing was restored",
                            "restore into another folder (--to DIR), or fix the archive")
        source = report.entries.get(entry.link or "") if entry.type == "hardlink" else None
        kind = "file" if entry.type == "hardlink" else entry.type
        link = _below_symlink(path, owner.base)
        info = before = None
        if link is not None:
            action, detail = "blocked", f"lies below the symlink {link} on disk"
        else:
            action, detail, info, before = _compare(entry, path, source)
        planned.append(Planned(RestoreAction(str(path), kind, action, detail, name), source or entry, owner,
                               identity(info) if info is not None else None, before))
    return planned, left


def links_escaping(planned: list[Planned], targets: list[Target]) -> list[tuple[str, str, str]]:
    """(entry, problem, why) for each link this restore would create that does not stay inside its
    target, judged where the kernel would resolve it once every link of the restore exists, on
    this disk."""
    from vora_cli.core.backup.containment import Namespace, judge_link

    writes = [p for p in planned if p.action.action in ("create", "replace", "same")]
    links = {p.action.path: p.entry.link or "" for p in writes if p.action.type == "symlink"}
    namespace = Namespace(links, [p.action.path for p in writes if p.action.type != "symlink"], disk=True)
    roots = [str(t.base) for t in targets]
    found = []
    for p in writes:
        if p.action.type == "symlink" and p.action.action != "same":
            judged = judge_link(namespace, p.action.path, str(p.target.base), roots)
            if judged is not None:
                found.append((p.action.entry, *judged))
    return found
