"""What a backup holds: the assets (the gateway's rule, plus vora's), and inside each the entries to
archive or leave out, each with its reason (docs/backup.md, "What is in a backup").
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Iterator
from pathlib import Path

from vora_cli.core.backup.layout import is_backup_name, payload_path
from vora_cli.core.backup.manifest import Asset, Skipped, archived_mode
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import is_within
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install

# The gateway's order among assets of the same depth (backup-shared.ts); vora's kinds follow.
_PRIORITY = {"state": 0, "config": 1, "credentials": 2, "workspace": 3, "sessions": 4, "plugin-link": 5}
# The gateway names a covered workspace; the config and credentials inside the state dir are not
# candidates there at all, so vora does not list them (nor its own kinds) as covered either.
_SILENTLY_COVERED = ("config", "credentials", "sessions", "plugin-link")


@dataclass(frozen=True)
class BackupOptions:
    """What a backup includes (`backup create` flags)."""
    only_config: bool = False
    include_workspace: bool = True
    include_logs: bool = False
    include_links: bool = False

    def to_dict(self) -> dict[str, bool]:
        return {"includeWorkspace": self.include_workspace, "onlyConfig": self.only_config,
                "includeLogs": self.include_logs, "includeLinks": self.include_links}


@dataclass(frozen=True)
class SourceEntry:
    """One thing to archive: a folder, a regular file or a symlink staying inside its asset."""

    type: str  # dir | file | symlink
    path: Path
    name: str  # the archive member name
    asset: Asset
    mode: int
    mtime: int
    size: int = 0
    link: str | None = None

    @property
    def reading(self) -> str:
        """How the file is read while the gateway may write it (core/backup/snapshot.py)."""
        if self.path.name == "sessions.json":
            return "store"
        return "jsonl" if self.path.name.endswith(".jsonl") else "plain"


@dataclass(frozen=True)
class BackupPlan:
    """The assets a backup will hold, and the ones left out with why."""
    root: str
    created_ms: int
    options: BackupOptions
    had_config: bool  # the install's config file exists: verify then insists the archive holds it
    paths: dict[str, Any]
    assets: tuple[Asset, ...]
    skipped: tuple[Skipped, ...]  # whole assets left out
    # folders inside assets left out on purpose (logs, workspaces under --no-workspace)
    excluded: dict[str, Skipped] = field(default_factory=dict)


@dataclass(frozen=True)
class _Candidate:
    """A path that may become an asset, or the reason it is left out."""
    kind: str
    path: Path
    reason: str | None = None  # set: left out on purpose (not-asked), with `detail`
    detail: str = ""


def _canonical(path: Path) -> Path:
    try:
        return Path(os.path.realpath(path))
    except OSError:
        return Path(os.path.abspath(path))


def link_onto(link: Path) -> Path | None:
    """Where the symlink at `link` leads, when its target, read from its own folder, is the real
    path of an existing file or folder (no other link on the way, so an archive holding both
    proves it by its spelling, as verify judges it); None otherwise."""
    try:
        text = os.readlink(link)
    except OSError:
        return None
    spelled = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(link)), text))
    return Path(spelled) if os.path.exists(spelled) and os.path.realpath(spelled) == spelled else None


def _named(install: Install) -> list[_Candidate]:
    try:
        return _full_candidates(install, BackupOptions(include_links=True))
    except VoraError:  # a config that does not parse names no workspace
        return [_Candidate("state", install.paths.state_dir), *_config_candidates(install),
                _Candidate("credentials", oauth_dir(install))]


def named_paths(install: Install) -> frozenset[str]:
    """Every path this install's own rules name (docs/backup.md, "Where a restore writes"): its
    state dir, config file and the files it includes, credentials dir, each agent's workspace and
    session store, linked plugin folders; each as given and as its real path. A restore without
    `--to` writes only there."""
    return frozenset(p for c in _named(install) for p in (os.path.abspath(c.path), str(_canonical(c.path))))


def kind_named(install: Install, path: Path) -> str | None:
    """The kind of asset this install's rules give `path` (as given), if any."""
    wanted = os.path.abspath(path)
    return next((c.kind for c in _named(install) if os.path.abspath(c.path) == wanted), None)


def oauth_dir(install: Install) -> Path:
    """The credentials dir: `VORA_OAUTH_DIR` (the gateway's `OPENCLAW_OAUTH_DIR`), else `<stateDir>/credentials`."""
    from vora_cli.core.paths import expand_path

    override = install.env.get("VORA_OAUTH_DIR", "").strip()
    return expand_path(override, install.paths.home) if override else install.paths.state_dir / "credentials"


def _config_candidates(install: Install) -> list[_Candidate]:
    found = [_Candidate("config", install.paths.config_path)]
    if install.config is not None:
        found += [_Candidate("config", f.path) for f in install.config.files[1:]]
    return found


def _workspace_dirs(install: Install) -> list[Path]:
    """Each agent's workspace once, in the agents' order (thousands of agents may share a few)."""
    return list(dict.fromkeys(choice.path for _agent, choice in install.workspaces if not isinstance(choice, VoraError)))


def _full_candidates(install: Install, options: BackupOptions) -> list[_Candidate]:
    from vora_cli.core.plugins.discovery import load_path

    paths = install.paths
    found = [_Candidate("state", paths.state_dir), *_config_candidates(install), _Candidate("credentials", oauth_dir(install))]
    for workspace in _workspace_dirs(install):
        found.append(_Candidate("workspace", workspace) if options.include_workspace else
                     _Candidate("workspace", workspace, "not-asked", "workspace left out (--no-workspace)"))
    for target in install.agents.store_targets(paths, all_agents=True):
        found.append(_Candidate("sessions", target.sessions_dir))
    plugins = install.effective.get("plugins")
    load = plugins.get("load") if isinstance(plugins, dict) else None
    specs = load.get("paths") if isinstance(load, dict) else None
    for index, spec in enumerate(specs if isinstance(specs, list) else []):
        if isinstance(spec, str) and spec.strip():
            source = load_path(paths, spec, index)
            found.append(_Candidate("plugin-link", source) if options.include_links else
                         _Candidate("plugin-link", source, "not-asked", "a linked plugin's source folder"))
    return found


def plan_backup(install: Install, options: BackupOptions, now_ms: int, root: str) -> BackupPlan:
    """The assets and what is left out of them; raises when the config that names the
    workspaces does not parse (as the gateway does: a partial backup must be asked for)."""
    if install.config_error is not None and not options.only_config and options.include_workspace:
        error = install.config_error
        raise VoraError(error.code, f"{error.message}; vora cannot find the workspaces to back up",
                        "fix the config, or back up without them: vora backup create --no-workspace")
    candidates = _config_candidates(install) if options.only_config else _full_candidates(install, options)
    resolved = []
    for candidate in candidates:
        exists = os.path.lexists(candidate.path)
        resolved.append((candidate, exists, _canonical(candidate.path) if exists else Path(os.path.abspath(candidate.path))))
    resolved.sort(key=lambda c: (len(str(c[2])), _PRIORITY.get(c[0].kind, 9), str(c[2])))
    assets: list[Asset] = []
    skipped: list[Skipped] = []
    excluded: dict[str, Skipped] = {}
    seen: set[Path] = set()
    real_state = _canonical(install.paths.state_dir)
    # Assets never nest (a candidate inside one is covered, and candidates come shortest first), so
    # the asset covering a path, if any, is the one at the path or at one of its parents: looked up
    # by path, not by a scan of every asset for every candidate (thousands of workspaces).
    by_path: dict[Path, Asset] = {}
    for candidate, exists, canonical in resolved:
        if canonical in seen:
            continue
        seen.add(canonical)
        covering = next((by_path[p] for p in (canonical, *canonical.parents) if p in by_path), None)
        if not options.only_config and candidate.kind in _SILENTLY_COVERED and is_within(str(canonical), str(real_state)):
            # the gateway's `configInsideState`: part of the state asset, present or not. Judged by
            # the real path: a config or credentials folder the state dir only links to is read
            # from elsewhere, so it is an asset of its own (the link stays in the state asset).
            continue
        if candidate.reason is not None and not exists:
            continue
        if candidate.reason is not None:
            left = Skipped(candidate.kind, canonical, candidate.reason, candidate.detail)
            if covering is not None:
                excluded[str(canonical)] = left
            else:
                skipped.append(left)
        elif not exists:
            skipped.append(Skipped(candidate.kind, candidate.path, "missing", "does not exist"))
        elif covering is not None and candidate.kind in _SILENTLY_COVERED:
            continue
        elif covering is not None:
            skipped.append(Skipped(candidate.kind, canonical, "covered", f"inside the {covering.kind} asset",
                                   str(covering.source_path)))
        else:
            assets.append(Asset(candidate.kind, canonical, payload_path(root, canonical)))
            by_path[canonical] = assets[-1]
    if not options.only_config:
        _link_assets(root, resolved, assets, skipped)
    state = install.paths.state_dir
    if options.only_config and install.config_error is not None:
        skipped.append(Skipped("config", install.paths.config_path, "unreadable",
                               "the config does not parse, so its $include files are not known"))
    if not options.only_config and not options.include_logs:
        logs = _canonical(state / "logs")
        if any(a.kind == "state" for a in assets) and os.path.isdir(logs):
            excluded[str(logs)] = Skipped("state", logs, "not-asked", "the state dir's logs")
    workspaces = tuple(str(w) for w in _workspace_dirs(install))
    had_config = os.path.isfile(install.paths.config_path)
    return BackupPlan(root, now_ms, options, had_config, {
        "stateDir": str(state), "configPath": str(install.paths.config_path),
        "oauthDir": str(oauth_dir(install)), "workspaceDirs": list(workspaces) if options.include_workspace else [],
    }, tuple(assets), tuple(skipped), excluded)


def _link_assets(root: str, resolved: list[tuple[_Candidate, bool, Path]], assets: list[Asset],
                 skipped: list[Skipped]) -> None:
    """A path the install names that is itself a link outside every asset (`workspace:
    "~/wslink"`, `wslink -> realws`): the link is archived as an asset of its own beside the one
    of what it leads to, so a restore brings back the path the config names, not only its target."""
    from vora_cli.core.backup.layout import PathIndex

    index: PathIndex[Asset] = PathIndex()
    for asset in assets:
        index.put(str(asset.source_path), asset)
    for candidate, exists, canonical in resolved:
        path = Path(os.path.abspath(candidate.path))
        if candidate.reason is not None or not exists or path == canonical or not os.path.islink(path):
            continue
        onto = index.deepest(str(canonical))
        if onto is None or onto.source_path != canonical or index.clash(str(path)) is not None:
            continue
        if link_onto(path) == canonical:
            assets.append(Asset(candidate.kind, path, payload_path(root, path)))
            index.put(str(path), assets[-1])
        else:
            skipped.append(Skipped(candidate.kind, path, "symlink-out",
                                   f"a link to {os.readlink(path)}, which reaches {canonical} through other links"))


# -- inside an asset ------------------------------------------------------------------------------

def litter(asset: Asset, relative: str, name: str, size: int) -> tuple[str, str] | None:
    """A file of the state dir that must not come back with a restore: a lock a writer holds
    (a restored one with a live pid would block the gateway) or a write's temp file."""
    if asset.kind not in ("state", "sessions"):
        return None
    if name == "sessions.json.lock" or name.endswith(".jsonl.lock"):
        return "lock-file", "the gateway's lock file of a write in progress"
    if asset.kind != "state" or relative.split("/", 1)[0] in ("extensions", "workspace") or \
            relative.startswith("workspace-"):
        return None
    if name.endswith(".lock") and size == 0:
        return "lock-file", "a lock file (vora's writers lock beside the file they write)"
    if name.endswith(".tmp"):
        return "temp-file", "the temp file of a write in progress"
    return None


def link_inside(relative: str, target: str) -> bool:
    if not target or target.startswith("/"):
        return False
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(relative), target))
    return resolved != ".." and not resolved.startswith("../")


def walk_asset(asset: Asset, plan: BackupPlan) -> Iterator[SourceEntry | Skipped]:
    """The asset's entries in archive order (a folder before what it holds, names sorted),
    and each one left out, as it is met. Never follows a link."""
    roots = {str(a.source_path): a.kind for a in plan.assets}
    stack: list[tuple[Path, str]] = [(asset.source_path, "")]
    while stack:
        path, relative = stack.pop()
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            yield Skipped(asset.kind, path, "vanished", "removed while the backup ran")
            continue
        except OSError as exc:
            yield Skipped(asset.kind, path, "unreadable", exc.strerror or "cannot read")
            continue
        name = asset.archive_path if not relative else f"{asset.archive_path}/{relative}"
        mode, mtime = archived_mode(info.st_mode), int(info.st_mtime)
        if stat.S_ISDIR(info.st_mode):
            if relative and str(path) in plan.excluded:
                yield plan.excluded[str(path)]
                continue
            yield SourceEntry("dir", path, name, asset, mode, mtime)
            try:
                with os.scandir(path) as listing:
                    children = sorted(entry.name for entry in listing)
            except OSError as exc:
                yield Skipped(asset.kind, path, "unreadable", f"cannot list the folder: {exc.strerror}")
                continue
            for child in reversed(children):
                stack.append((path / child, f"{relative}/{child}" if relative else child))
        elif stat.S_ISREG(info.st_mode):
            found = litter(asset, relative, path.name, info.st_size) if relative else None
            if found is not None:
                yield Skipped(asset.kind, path, *found)
            elif relative and is_backup_name(path.name):
                yield Skipped(asset.kind, path, "backup-archive", "a backup archive (not backed up again)")
            else:
                yield SourceEntry("file", path, name, asset, mode, mtime, info.st_size)
        elif stat.S_ISLNK(info.st_mode):
            target = os.readlink(path)
            real = str(_canonical(path))
            onto = real in roots and real != str(asset.source_path)
            if (relative and link_inside(relative, target)) or onto:
                # inside the asset, or onto another asset's root (a config, credentials folder or
                # workspace the install reaches through this link, or the asset is that link): kept
                yield SourceEntry("symlink", path, name, asset, 0o777, mtime, link=target)
            else:
                yield Skipped(asset.kind, path, "symlink-out", f"a link to {target}, outside {asset.source_path}")
        else:
            what = "socket" if stat.S_ISSOCK(info.st_mode) else "FIFO" if stat.S_ISFIFO(info.st_mode) else "device"
            yield Skipped(asset.kind, path, "special-file", f"a {what}, not a file")
