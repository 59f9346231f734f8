"""What the gateway's plugin registry says of the places vora's discovery looked: its diagnostics.

Its own discovery and manifest rules (not vora's reader's), in its words and at its paths:
docs/config.md, "The plugin registry".
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Mapping

from vora_cli.core.config.gateway import RegistryDiagnostic, bundled_plugin_schemas, schema_version
from vora_cli.core.paths import VoraPaths, expand_path, is_within
from vora_cli.core.plugins.discovery import (
    GATEWAY_ORIGINS,
    ORIGIN_INSTALLED,
    ORIGIN_LINKED,
    Discovery,
)
from vora_cli.core.plugins.gateway_files import (
    INDEX_FILES,
    RealPaths,
    bundle_format,
    bundle_manifest,
    exists,
    ignored_folder,
    is_extension_file,
    node_error,
    open_inside,
    package_block,
    read_manifest,
    slug,
    stat_of,
    trimmed,
)
from vora_cli.core.plugins.manifest import MANIFEST_FILES, UPSTREAM_MANIFEST_FILE
from vora_cli.core.plugins.reads import PluginReads
from vora_cli.core.records import dataclass
from vora_cli.core.secrets import order_for_scrub, scrub, secret_values
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

VORA_ORIGINS = {gateway: vora for vora, gateway in GATEWAY_ORIGINS.items()}
MIN_HOST_VERSION_FORMAT = 'openclaw.install.minHostVersion must use a semver floor in the form ">=x.y.z"'
_MIN_HOST_VERSION = r"^>=([0-9]+)\.([0-9]+)\.([0-9]+)$"


@dataclass(frozen=True)
class Candidate:
    """One plugin the gateway's discovery found: its entry (`source`), its folder, where it was found."""
    source: str
    root: str
    origin: str  # the gateway's: config, workspace, global
    package: Mapping[str, Any] | None = None  # the package.json's `openclaw` (or `vora`) block
    bundle: str | None = None  # codex, cursor or claude: a bundle, whose manifest is its own
    load_index: int | None = None


@dataclass(frozen=True)
class RegistryRecord:
    """A plugin the registry holds (its manifest read): the id and where it was found."""
    id: str
    origin: str
    root: str
    source: str
    manifest: Mapping[str, Any]


@dataclass(frozen=True)
class Registry:
    """The gateway's registry of the places a discovery looked: the plugins it holds, in its order
    (a later copy of an id too), and what it said, in its order."""
    records: tuple[RegistryRecord, ...]
    diagnostics: tuple[RegistryDiagnostic, ...]
    bundled_at: int = 0  # where the gateway's own plugins stand among `records` (before the global ones)


def gateway_registry(discovery: Discovery, paths: VoraPaths) -> Registry:
    """What the gateway's registry makes of `discovery`'s places (its discovery, then its manifests)."""
    settings = discovery.settings
    raw = settings.raw if settings is not None else {}
    walk = _Walk(order_for_scrub(secret_values(raw)), discovery.reads)
    for place in discovery.places:
        if place.origin == ORIGIN_INSTALLED and walk.bundled_at < 0:
            walk.bundled_at = len(walk.candidates)  # the gateway's own plugins come before the installed ones
        origin = GATEWAY_ORIGINS[place.origin]
        if place.origin == ORIGIN_LINKED:
            walk.from_path(str(place.path), origin, place.load_index)
        else:
            walk.in_folder(str(place.path), origin)
    if walk.bundled_at < 0:
        walk.bundled_at = len(walk.candidates)
    installs = settings.installs if settings is not None else {}
    return walk.registry(lambda value: str(expand_path(value, paths.home, paths.config_dir)), installs)


# -- the walk -------------------------------------------------------------------------------------------


class _Walk:
    """One run of the gateway's discovery over the places, then of its manifest reader."""

    def __init__(self, secrets: list[str], reads: PluginReads | None = None) -> None:
        self.secrets = secrets
        # The discovery's reads: a file its reader read, and the text it parsed, are not read again.
        self.reads = reads or PluginReads()
        self.candidates: list[Candidate] = []
        self.diagnostics: list[RegistryDiagnostic] = []
        self.seen: set[str] = set()
        self.uid = os.getuid() if hasattr(os, "getuid") else None
        self.load_index: int | None = None
        self.bundled_at = -1  # where the bundled plugins stand among the candidates (before the global ones)
        self.reals = RealPaths()

    def say(self, level: str, message: str, plugin_id: str | None = None, load_index: int | None = None) -> None:
        shown = scrub(message, self.secrets) if self.secrets else message
        self.diagnostics.append(RegistryDiagnostic(level, shown, plugin_id, load_index))

    # discoverFromPath
    def from_path(self, resolved: str, origin: str, load_index: int | None) -> None:
        self.load_index = load_index
        info = stat_of(resolved)
        if info is None:
            self.say("error", f"plugin path not found: {resolved}", load_index=load_index)
        elif stat.S_ISREG(info.st_mode):
            if not is_extension_file(resolved):
                self.say("error", f"plugin path is not a supported file: {resolved}", load_index=load_index)
            else:
                self.add(resolved, os.path.dirname(resolved), origin)
        elif stat.S_ISDIR(info.st_mode):
            self.plugin_folder(resolved, origin, look_inside=True)
        self.load_index = None

    # discoverInDirectory (without recursion, as the gateway calls it)
    def in_folder(self, folder: str, origin: str) -> None:
        if not exists(folder):
            return
        try:
            with os.scandir(folder) as listing:
                # libuv sorts a listing by the bytes of the names
                entries = sorted(listing, key=lambda entry: os.fsencode(entry.name))
        except OSError as error:
            self.say("warn", f"failed to read extensions dir: {folder} ({node_error(error, 'scandir', folder)})",
                     load_index=self.load_index)
            return
        for entry in entries:
            full = os.path.join(folder, entry.name)
            try:
                is_file = entry.is_file(follow_symlinks=False)
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_file and is_extension_file(full):
                self.add(full, folder, origin)
            if is_dir and not ignored_folder(entry.name):
                self.plugin_folder(full, origin, look_inside=False)

    def plugin_folder(self, folder: str, origin: str, *, look_inside: bool) -> None:
        """A folder as a plugin: its package's entries, else a bundle, else its index file, else
        (a load path) the plugins directly inside it."""
        block = package_block(folder, self.reals, self.reads)
        setup = block.get("setupEntry") if block is not None else None
        if isinstance(setup, str) and js_trim(setup):
            self.entry_source(folder, setup)  # for its diagnostics only: a setup entry is no candidate
        raw_entries = block.get("extensions") if block is not None else None
        entries = [trimmed(e) for e in raw_entries] if isinstance(raw_entries, list) else []
        entries = [e for e in entries if e]
        if entries:
            for entry in entries:
                source = self.entry_source(folder, entry)
                if source is not None:
                    self.add(source, folder, origin, package=block)
            return
        if self.bundle(folder, origin) == "added":
            return
        index = next((path for name in INDEX_FILES if exists(path := os.path.join(folder, name))), None)
        if index is not None and is_extension_file(index):
            self.add(index, folder, origin, package=block)
            return
        if look_inside:
            self.in_folder(folder, origin)

    # resolvePackageEntrySource
    def entry_source(self, folder: str, entry: str) -> str | None:
        source = os.path.normpath(os.path.join(folder, entry))
        kind, real = open_inside(source, folder, self.reals)
        if kind == "io":
            self.say("warn", f"extension entry unreadable (I/O error): {entry}", load_index=self.load_index)
        elif kind == "validation":
            self.say("error", f"extension entry escapes package directory: {entry}", load_index=self.load_index)
        return real if kind == "ok" else None

    # discoverBundleInRoot
    def bundle(self, folder: str, origin: str) -> str:
        found = bundle_format(folder)
        if found is None:
            return "none"
        failure, _name = bundle_manifest(folder, found, self.reals, self.reads)
        if failure is not None:
            self.say("error", failure, load_index=self.load_index)
            return "invalid"
        self.add(folder, folder, origin, bundle=found)
        return "added"

    # addCandidate, with isUnsafePluginCandidate
    def add(self, source: str, root: str, origin: str, *, package: Mapping[str, Any] | None = None,
            bundle: str | None = None) -> None:
        resolved = os.path.normpath(os.path.abspath(source))
        if resolved in self.seen:
            return
        real_root = self.reals.folder(root) or os.path.normpath(os.path.abspath(root))
        blocked = self.blocked(resolved, real_root)
        if blocked is not None:
            self.say("warn", f"blocked plugin candidate: {blocked}", load_index=self.load_index)
            return
        self.seen.add(resolved)
        self.candidates.append(Candidate(resolved, real_root, origin, package, bundle, self.load_index))

    def blocked(self, source: str, root: str) -> str | None:
        real_source, real_root = self.reals.of(source), self.reals.folder(root)
        if real_source and real_root and not is_within(real_source, real_root):
            return f"source escapes plugin root ({source} -> {real_source}; root={real_root})"
        for target in dict.fromkeys((os.path.normpath(root), os.path.normpath(source))):
            info = stat_of(target)
            if info is None:
                return f"cannot stat path ({target})"
            if info.st_mode & stat.S_IWOTH:
                return f"world-writable path ({target}, mode={info.st_mode & 0o777:03o})"
            if self.uid is not None and info.st_uid not in (self.uid, 0):
                return f"suspicious ownership ({target}, uid={info.st_uid}, expected uid={self.uid} or root)"
        return None

    # loadPluginManifestRegistry, after the discovery
    def registry(self, resolve: Callable[[str], str], installs: Mapping[str, Mapping[str, Any]]) -> Registry:
        records: list[RegistryRecord] = []
        first: dict[str, Candidate | None] = {}  # the first copy of each id (None: the bundled plugin)
        bundled = tuple(bundled_plugin_schemas())
        bundled_at = 0
        for i, candidate in enumerate([*self.candidates, None]):
            if i == self.bundled_at:
                bundled_at = len(records)
                for plugin_id in bundled:  # the bundled plugins stand here, before the global ones
                    self.duplicate(plugin_id, None, first, resolve, installs)
            if candidate is None:
                break
            manifest = self.manifest(candidate)
            if manifest is None:
                continue
            plugin_id = str(manifest["id"])
            if not self.host_allows(candidate, plugin_id):
                continue
            if not self.duplicate(plugin_id, candidate, first, resolve, installs):
                continue
            records.append(RegistryRecord(plugin_id, candidate.origin, candidate.root, candidate.source, manifest))
        return Registry(tuple(records), tuple(self.diagnostics), bundled_at)

    def manifest(self, candidate: Candidate) -> dict[str, Any] | None:
        """The candidate's manifest as the gateway reads it (`loadPluginManifest`), with the id
        trimmed, or None after saying why it cannot be read."""
        if candidate.bundle is not None:
            failure, name = bundle_manifest(candidate.root, candidate.bundle, self.reals, self.reads)
            if failure is not None:  # pragma: no cover - it was read when the bundle was found
                self.say("error", failure, load_index=candidate.load_index)
                return None
            return {"id": slug(name, candidate.root)}
        path = next((p for name in MANIFEST_FILES if exists(p := os.path.join(candidate.root, name))),
                    os.path.join(candidate.root, UPSTREAM_MANIFEST_FILE))
        failure, data = read_manifest(path, candidate.root, self.reals, self.reads)
        if failure is None:
            if not isinstance(data, dict):
                failure = "plugin manifest must be an object"
            elif not trimmed(data.get("id")):
                failure = "plugin manifest requires id"
            elif not isinstance(data.get("configSchema"), dict):
                failure = "plugin manifest requires configSchema"
        if failure is not None:
            self.say("error", failure, load_index=candidate.load_index)
            return None
        assert isinstance(data, dict)
        return {**data, "id": trimmed(data["id"])}

    def host_allows(self, candidate: Candidate, plugin_id: str) -> bool:
        """The package's `install.minHostVersion` against the gateway's version (`checkMinHostVersion`)."""
        install = candidate.package.get("install") if candidate.package is not None else None
        if not isinstance(install, dict) or "minHostVersion" not in install:
            return True
        wanted = install["minHostVersion"]
        match = re.compile(_MIN_HOST_VERSION).match(js_trim(wanted)) if isinstance(wanted, str) else None
        if match is None:
            self.say("error", f"plugin manifest invalid | {MIN_HOST_VERSION_FORMAT}", plugin_id, candidate.load_index)
            return False
        host = schema_version().split()[-1]
        # as JavaScript's Number.parseInt reads each part: a double, Infinity past its range
        if tuple(float(part) for part in host.split(".")[:3]) >= tuple(float(part) for part in match.groups()):
            return True
        self.say("error", f"plugin requires OpenClaw >={'.'.join(match.groups())}, but this host is {host}; "
                 "skipping load", plugin_id, candidate.load_index)
        return False

    def duplicate(self, plugin_id: str, candidate: Candidate | None, first: dict[str, Candidate | None],
                  resolve: Callable[[str], str], installs: Mapping[str, Mapping[str, Any]]) -> bool:
        """Whether `candidate` (None: the bundled plugin) is recorded: the first copy of an id is;
        a copy in the same folder is not; a copy elsewhere is, with the gateway's warning."""
        if plugin_id not in first:
            first[plugin_id] = candidate
            return True
        existing = first[plugin_id]
        if candidate is not None and existing is not None and (
                existing.root == candidate.root or self.reals.folder(existing.root) == self.reals.folder(candidate.root)):
            return False
        rank = {name: _rank(plugin_id, c, resolve, installs) for name, c in (("new", candidate), ("old", existing))}
        new_origin = candidate.origin if candidate is not None else "bundled"
        old_origin = existing.origin if existing is not None else "bundled"
        source = candidate.source if candidate is not None else f"the gateway's bundled {plugin_id}"
        if rank["new"] < rank["old"]:
            text = f"{old_origin} plugin will be overridden by {new_origin} plugin ({source})"
        else:
            text = f"{new_origin} plugin will be overridden by {old_origin} plugin ({source})"
        self.say("warn", f"duplicate plugin id detected; {text}", plugin_id,
                 candidate.load_index if candidate is not None else None)
        return True


def _rank(plugin_id: str, candidate: Candidate | None, resolve: Callable[[str], str],
          installs: Mapping[str, Mapping[str, Any]]) -> int:
    """The gateway's `resolveDuplicatePrecedenceRank`: a load path, then an install of record, then
    the bundled plugin, then the workspace's, then any other."""
    if candidate is None:
        return 2
    if candidate.origin == "config":
        return 0
    if candidate.origin == "global" and _matches_install(plugin_id, candidate, resolve, installs):
        return 1
    return 3 if candidate.origin == "workspace" else 4


def _matches_install(plugin_id: str, candidate: Candidate, resolve: Callable[[str], str],
                     installs: Mapping[str, Mapping[str, Any]]) -> bool:
    record = installs.get(plugin_id)
    if not record:
        return False
    tracked = [resolve(record[key]) for key in ("installPath", "sourcePath")
               if isinstance(record.get(key), str) and js_trim(record[key])]
    source = os.path.normpath(candidate.source)
    return any(is_within(source, path) for path in tracked)


