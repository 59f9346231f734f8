"""Where an archive's links lead, judged as the kernel resolves them (docs/backup.md, "What verify
checks"), not by how their targets are spelled.

`x/d -> ..` and `vora.json -> x/d/../notes.json` each look inside their asset on paper; once both
exist, the kernel follows `x/d` before it applies `..`, and `vora.json` reaches the file beside
the install. So a link is resolved component by component, following every link the archive
itself creates (and, at restore, every link already on disk where the archive holds nothing),
as `openat` does, with Linux's limit of 40 links per lookup.

A link is contained when it resolves inside its own asset, or exactly onto the root of another
asset of the same archive: that is how an install reaches a config, credentials folder or
workspace kept elsewhere (`~/.vora/vora.json -> ~/dotfiles/vora.json`), and `backup create`
archives that target as its own asset.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Container, Iterable, Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.backup.manifest import Asset, Manifest
    from vora_cli.core.backup.verify import Entry

MAX_HOPS = 40  # Linux's MAXSYMLINKS: a lookup that follows more fails with ELOOP


class LinkLoop(Exception):
    """More than MAX_HOPS links on the way (the kernel's ELOOP)."""


def resolve(path: str, link_text: Callable[[str], str | None]) -> str:
    """The absolute path the kernel reaches for the absolute `path`, following the final link too.

    `link_text(p)` is the target of the link at the absolute path `p`, or None when `p` is not a
    link. `..` applies to where the walk has got to (after any link), never to the spelling."""
    parts: list[str] = []
    pending = path.split("/")
    pending.reverse()
    hops = 0
    while pending:
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":
            if parts:
                parts.pop()
            continue
        text = link_text("/" + "/".join((*parts, name)))
        if text is None:
            parts.append(name)
            continue
        hops += 1
        if hops > MAX_HOPS:
            raise LinkLoop(path)
        if text.startswith("/"):
            parts = []
        pending.extend(reversed(text.split("/")))
    return "/" + "/".join(parts)


def inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def disk_link_text(path: str) -> str | None:
    """The target of a symlink on disk at `path`, None for anything else (or nothing)."""
    try:
        return os.readlink(path)
    except OSError:
        return None


class Namespace:
    """The paths an archive will create, at their absolute places: its links (path -> target) and
    every other entry; with `disk`, a path the archive does not hold is looked up on disk."""

    def __init__(self, links: Mapping[str, str], others: Iterable[str], *, disk: bool = False) -> None:
        self.links = dict(links)
        self.others = set(others)
        self.disk = disk

    def link_text(self, path: str) -> str | None:
        text = self.links.get(path)
        if text is not None or path in self.others or not self.disk:
            return text
        return disk_link_text(path)

    def where(self, link: str) -> str:
        """Where the link at the absolute path `link` leads (raises LinkLoop)."""
        return resolve(link, self.link_text)


def judge_link(namespace: Namespace, link: str, own_root: str, roots: Iterable[str]) -> str | None:
    """Why the link at `link` (an entry of the asset rooted at `own_root`) is not contained, or
    None when it is: it resolves inside its asset, or exactly onto another asset's root."""
    text = namespace.links.get(link, "")
    if not text:
        return "is a link with an empty target"
    try:
        reached = namespace.where(link)
    except LinkLoop:
        return f"is a link to {text} that passes more than {MAX_HOPS} links (a loop)"
    if inside(reached, own_root) or reached in set(roots):
        return None
    return f"is a link to {text}, which resolves to {reached}, outside {own_root}"


def below_link(name: str, links: Container[str]) -> str | None:
    """The link of the same archive that `name` (an archive path) lies below, if any."""
    parent = posixpath.dirname(name)
    while parent and parent != "/":
        if parent in links:
            return parent
        parent = posixpath.dirname(parent)
    return None


# -- an archive as a namespace (verify, restore) --------------------------------------------------

def owner_of(name: str, assets: tuple[Asset, ...]) -> Asset | None:
    """The asset whose archive folder holds the entry `name` (the deepest one)."""
    best = None
    for asset in assets:
        if _within_archive(name, asset.archive_path) and (best is None or len(asset.archive_path) > len(best.archive_path)):
            best = asset
    return best


def _within_archive(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def absolute(name: str, asset: Asset) -> str:
    """Where the archive entry `name` of `asset` was on the machine it was taken on."""
    return str(asset.source_path) + name[len(asset.archive_path):]


def archive_namespace(entries: Mapping[str, Entry], manifest: Manifest) -> Namespace:
    """The archive's entries at the absolute paths they were taken from (its assets' sourcePaths)."""
    links: dict[str, str] = {}
    others: list[str] = []
    for name, entry in entries.items():
        owner = owner_of(name, manifest.assets)
        if owner is None:
            continue
        if entry.type == "symlink":
            links[absolute(name, owner)] = entry.link or ""
        else:
            others.append(absolute(name, owner))
    return Namespace(links, others)


def expected_config(manifest: Manifest) -> str | None:
    """The config path of an install the manifest says had one (vora's `hadConfig`)."""
    paths = manifest.raw.get("paths")
    config = paths.get("configPath") if isinstance(paths, dict) else None
    if manifest.raw.get("hadConfig") is not True or not isinstance(config, str) or not config.startswith("/"):
        return None
    return config


def holds_file(namespace: Namespace, entries: Mapping[str, Entry], manifest: Manifest, path: str) -> bool:
    try:
        reached = namespace.where(path)
    except LinkLoop:
        return False
    for asset in manifest.assets:
        source = str(asset.source_path)
        if reached == source or reached.startswith(source.rstrip("/") + "/"):
            entry = entries.get(asset.archive_path + reached[len(source):])
            return entry is not None and entry.type in ("file", "hardlink")
    return False
