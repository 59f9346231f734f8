"""The pre-restore backup: a vora archive of exactly what a restore will replace, as it is now, which
verifies and restores as any archive does (docs/backup.md, "Backs up what it replaces").
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from vora_cli.core.backup.create import created_by, platform_name, write_archive
from vora_cli.core.backup.layout import PRE_RESTORE_KIND, SUFFIX, PathIndex, archive_root, payload_path
from vora_cli.core.backup.manifest import Asset, Skipped, archived_mode
from vora_cli.core.backup.plan import (
    BackupOptions,
    BackupPlan,
    SourceEntry,
    kind_named,
    link_inside,
    link_onto,
    walk_asset,
)
from vora_cli.core.clock import iso_utc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.install import Install


def pre_restore_backup(install: Install, restoring: Path, replaced: list[tuple[Path, str, Path]]
                       ) -> tuple[Path, tuple[Skipped, ...]]:
    """The archive of exactly the files a restore of `restoring` will replace, as they are now:
    (path, the kind of its asset, where that asset lands); returns it and what it left out."""
    root = archive_root(install.now_ms, PRE_RESTORE_KIND)
    index: PathIndex[Asset] = PathIndex()
    assets: list[Asset] = []
    for base, kind in sorted({base: kind for _path, kind, base in replaced}.items(), key=lambda b: len(str(b[0]))):
        if index.clash(str(base)) is None:
            assets.append(Asset(kind, base, payload_path(root, base)))
            index.put(str(base), assets[-1])
    entries: list[SourceEntry] = []
    left: list[Skipped] = []
    linked: list[Asset] = []  # what replaced links lead to: archived whole
    for path, _kind, _base in replaced:
        asset = index.deepest(str(path))
        assert asset is not None
        info = os.lstat(path)
        name = payload_path(root, path)
        if os.path.islink(path):
            text = os.readlink(path)
            if not _stays_in(path, text, asset):
                onto = _link_target_asset(install, path, root, index)
                if onto is None:
                    left.append(Skipped(asset.kind, path, "symlink-out", f"a link to {text}, whose target cannot be "
                                        f"archived beside it; put it back by hand if you undo: ln -s {text} {path}"))
                    continue
                assets.append(onto)
                linked.append(onto)
                index.put(str(onto.source_path), onto)
            entries.append(SourceEntry("symlink", path, name, asset, 0o777, int(info.st_mtime), link=text))
        elif os.path.isfile(path):
            entries.append(SourceEntry("file", path, name, asset, archived_mode(info.st_mode), int(info.st_mtime),
                                       info.st_size))
    return _write_pre_restore(install, restoring, root, assets, [*entries, *_walked(root, assets, linked)],
                              left), tuple(left)


def _stays_in(path: Path, text: str, asset: Asset) -> bool:
    relative = os.path.relpath(path, asset.source_path)
    return relative != "." and link_inside(relative, text)


def _link_target_asset(install: Install, link: Path, root: str, index: PathIndex[Asset]) -> Asset | None:
    """What the replaced `link` leads to, as an asset of the pre-restore archive (its kind the one
    the install's rules give the link's path), when it exists and no asset overlaps it."""
    onto = link_onto(link)
    if onto is None or index.clash(str(onto)) is not None:
        return None
    return Asset(kind_named(install, link) or ("config" if onto.is_file() else "workspace"), onto,
                 payload_path(root, onto))


def _walked(root: str, assets: list[Asset], linked: list[Asset]) -> Iterator[SourceEntry | Skipped]:
    plan = BackupPlan(root, 0, BackupOptions(), False, {}, tuple(assets), ())
    for asset in linked:
        yield from walk_asset(asset, plan)


def _write_pre_restore(install: Install, restoring: Path, root: str, assets: list[Asset],
                       items: list[SourceEntry | Skipped], left: list[Skipped]) -> Path:
    from vora_cli.core.userdirs import backup_dir

    fields = {"created_at": iso_utc(install.now_ms), "root": root, "created_by": created_by(),
              "platform": platform_name(), "options": {"preRestore": True, "restoring": str(restoring)},
              "paths": {"stateDir": str(install.paths.state_dir), "configPath": str(install.paths.config_path)},
              "assets": tuple(assets)}
    output = backup_dir() / (root + SUFFIX)
    write_archive(output, root, items, fields, tuple(left), install.now_ms)
    return output
