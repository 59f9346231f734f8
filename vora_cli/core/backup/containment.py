"""Where an archive's links lead, judged as the kernel resolves them, component by component, not by
how their targets are spelled (docs/backup.md, "What verify checks").
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Container, Iterable, Mapping

from vora_cli.core.backup.layout import PathIndex
from vora_cli.core.paths import is_within

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.backup.manifest import Asset, Manifest
    from vora_cli.core.backup.verify import Entry

MAX_HOPS = 40  # Linux's MAXSYMLINKS: a lookup that follows more fails with ELOOP
LINK_MAX = 4095  # the longest symlink target Linux stores (PATH_MAX less its NUL)
PATH_MAX = 4096  # the longest path a file system call takes


class LinkLoop(Exception):
    """More than MAX_HOPS links on the way (the kernel's ELOOP)."""


class TooLong(Exception):
    """A link target past LINK_MAX, or a path past PATH_MAX, on the way (ENAMETOOLONG)."""


class CaseClash(Exception):
    """A name on the way that differs from an entry of the archive only by case or Unicode form."""

    def __init__(self, spelled: str, entry: str) -> None:
        super().__init__(spelled)
        self.spelled = spelled
        self.entry = entry


def fold(name: str) -> str:
    """`name` as a case- and normalization-insensitive file system compares it."""
    if name.isascii():
        return name.lower()
    import unicodedata

    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", name).casefold())


def resolve(path: str, link_text: Callable[[str], str | None]) -> str:
    """The absolute path the kernel reaches for the absolute `path`, following the final link too.
    `link_text(p)`: the target of the link at `p`, or None. `..` applies to where the walk has got
    to (after any link), never to the spelling. Raises LinkLoop, TooLong (or CaseClash)."""
    reached = ""  # "" is the root
    pending = path.split("/")
    pending.reverse()
    hops = 0
    while pending:
        name = pending.pop()
        if name in ("", "."):
            continue
        if name == "..":
            reached = reached[:reached.rfind("/")] if reached else ""
            continue
        step = f"{reached}/{name}"
        if len(step) > PATH_MAX:
            raise TooLong(path)
        text = link_text(step)
        if text is None:
            reached = step
            continue
        hops += 1
        if hops > MAX_HOPS:
            raise LinkLoop(path)
        if len(text.encode("utf-8", "surrogateescape")) > LINK_MAX:
            raise TooLong(path)
        if text.startswith("/"):
            reached = ""
        pending.extend(reversed(text.split("/")))
    return reached or "/"


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
        self._folded: dict[str, str] | None = None

    def link_text(self, path: str) -> str | None:
        text = self.links.get(path)
        if text is not None or path in self.others:
            return text
        if self._folded is None:
            self._folded = {fold(p): p for p in (*self.links, *self.others)}
        entry = self._folded.get(fold(path))
        if entry is not None:
            raise CaseClash(path, entry)
        return disk_link_text(path) if self.disk else None

    def where(self, link: str) -> str:
        """Where the link at the absolute path `link` leads (raises LinkLoop, TooLong, CaseClash)."""
        return resolve(link, self.link_text)


def judge_link(namespace: Namespace, link: str, own_root: str, roots: Iterable[str]) -> tuple[str, str] | None:
    """(problem, why) when the link at `link` (an entry of the asset rooted at `own_root`) is not
    contained, None when it is: it resolves inside its asset, or exactly onto another asset's root."""
    text = namespace.links.get(link, "")
    if not text:
        return "link-out", "is a link with an empty target"
    try:
        reached = namespace.where(link)
    except LinkLoop:
        return "link-out", f"is a link to {text} that passes more than {MAX_HOPS} links (a loop)"
    except TooLong:
        return "link-out", (f"is a link whose target or the path it reaches is longer than Linux allows "
                            f"({LINK_MAX:,} and {PATH_MAX:,} bytes)")
    except CaseClash as clash:
        return "case-clash", (f"is a link through {clash.spelled}, which a case-insensitive file system (macOS) "
                              f"reads as {clash.entry}")
    if is_within(reached, own_root) or reached in set(roots):
        return None
    return "link-out", f"is a link to {text}, which resolves to {reached}, outside {own_root}"


def below_link(name: str, links: Container[str]) -> str | None:
    """The link of the same archive that `name` (an archive path) lies below, if any."""
    parent = posixpath.dirname(name)
    while parent and parent != "/":
        if parent in links:
            return parent
        parent = posixpath.dirname(parent)
    return None


# -- an archive as a namespace (verify, restore) --------------------------------------------------

def owners(assets: Iterable[Asset]) -> PathIndex[Asset]:
    """The assets by their archive folders: `.deepest(name)` is the asset holding the entry `name`."""
    index: PathIndex[Asset] = PathIndex()
    for asset in assets:
        index.put(asset.archive_path, asset)
    return index


def absolute(name: str, asset: Asset) -> str:
    """Where the archive entry `name` of `asset` was on the machine it was taken on."""
    return str(asset.source_path) + name[len(asset.archive_path):]


def archive_namespace(entries: Mapping[str, Entry], index: PathIndex[Asset]) -> Namespace:
    """The archive's entries at the absolute paths they were taken from (its assets' sourcePaths)."""
    links: dict[str, str] = {}
    others: list[str] = []
    for name, entry in entries.items():
        owner = index.deepest(name)
        if owner is None:
            continue
        if entry.type == "symlink":
            links[absolute(name, owner)] = entry.link or ""
        else:
            others.append(absolute(name, owner))
    return Namespace(links, others)


def expected_config(manifest: Manifest) -> str | None:
    """The config path of an install the manifest says had one (vora's `hadConfig`); raises
    ValueError when it says so without an absolute, normal `paths.configPath`."""
    if manifest.raw.get("hadConfig") is not True:
        return None
    paths = manifest.raw.get("paths")
    config = paths.get("configPath") if isinstance(paths, dict) else None
    if not isinstance(config, str) or not config.startswith("/") or posixpath.normpath(config) != config:
        raise ValueError(f"hadConfig is true but paths.configPath {config!r} is not an absolute, normal path")
    return config


def holds_file(namespace: Namespace, entries: Mapping[str, Entry], manifest: Manifest, path: str) -> bool:
    try:
        reached = namespace.where(path)
    except (LinkLoop, TooLong, CaseClash):
        return False
    sources: PathIndex[Asset] = PathIndex()
    for asset in manifest.assets:
        sources.put(str(asset.source_path), asset)
    holder = sources.deepest(reached)
    if holder is None:
        return False
    entry = entries.get(holder.archive_path + reached[len(str(holder.source_path)):])
    return entry is not None and entry.type in ("file", "hardlink")
