"""Where plugins are found, and whether each is enabled (spec plugins.md, "Where plugins are found").

Order and precedence, bundled plugins included: docs/plugins.md, "Where plugins are found".
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from vora_cli.core.agents import Agents
from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.paths import VoraPaths, expand_path
from vora_cli.core.plugins.activation import EnableDecision, decide_enabled
from vora_cli.core.plugins.bundled import ORIGIN_BUNDLED, BundledPlugin, bundled_plugin, bundled_version
from vora_cli.core.plugins.manifest import SCRIPT_SUFFIXES, PluginSource, read_plugin
from vora_cli.core.plugins.reads import PluginReads
from vora_cli.core.plugins.settings import PluginsSettings, plugins_settings
from vora_cli.core.records import dataclass, field, replace
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ORIGIN_LINKED = "linked"
ORIGIN_WORKSPACE = "workspace"
ORIGIN_INSTALLED = "installed"
# The gateway's names for the origins (its `PluginOrigin`); `bundled` plugins ship inside it.
GATEWAY_ORIGINS = {ORIGIN_LINKED: "config", ORIGIN_WORKSPACE: "workspace", ORIGIN_INSTALLED: "global"}


@dataclass(frozen=True)
class DiscoveredPlugin:
    """One plugin as the gateway would see it."""

    id: str
    origin: str  # linked, workspace, installed, bundled
    path: Path | None  # where it is (for a link: the configured path, expanded); None: bundled with the gateway
    target: Path | None  # a link's real target (None when dangling)
    source: PluginSource | None  # None when it could not be read
    error: str | None
    decision: EnableDecision
    install: dict[str, Any] | None
    slots: tuple[str, ...]
    link_spec: str | None = None  # the load path as written in the config
    parse_error: ParseError | None = None  # where the manifest failed to parse (`file` relative to the plugin)
    bundled: BundledPlugin | None = None  # one of the gateway's own plugins

    @property
    def where(self) -> Path | None:
        """Its folder (a link's target), None for a bundled plugin."""
        return self.target or self.path

    @property
    def dangling(self) -> bool:
        return self.origin == ORIGIN_LINKED and self.target is None

    @property
    def kind(self) -> tuple[str, ...]:
        if self.bundled is not None:
            return self.bundled.kind
        return self.source.kind if self.source else ()

    @property
    def version(self) -> str | None:
        if self.bundled is not None:
            return bundled_version().rpartition(" ")[2]
        return self.source.version if self.source else None


@dataclass(frozen=True)
class SearchedPlace:
    """A place the walk looked for plugins, in its order: a `plugins.load.paths` entry (expanded;
    `load_index` is its index in the list) or a folder whose children are plugins."""
    origin: str  # linked (a load path), workspace or installed (a folder of plugins)
    path: Path
    load_index: int | None = None


@dataclass(frozen=True)
class Discovery:
    """The plugins found, in precedence order, and the ones they shadow."""
    plugins: tuple[DiscoveredPlugin, ...]
    shadowed: tuple[DiscoveredPlugin, ...] = field(default_factory=tuple)  # later copies of a seen id
    settings: PluginsSettings | None = None
    # The gateway's own plugins the config names (or that win over a copy found on disk), by id.
    bundled: tuple[DiscoveredPlugin, ...] = field(default_factory=tuple)
    # Where the walk looked, in its order: what the gateway's registry is judged on (core/plugins/registry.py).
    places: tuple[SearchedPlace, ...] = field(default_factory=tuple)
    # What the walk read and parsed (core/plugins/reads.py): the registry reads the same files through it.
    reads: PluginReads = field(default_factory=PluginReads, repr=False, compare=False)

    def find(self, plugin_id: str) -> DiscoveredPlugin | None:
        """The copy of `plugin_id` the gateway loads: found on disk, else its own (bundled) plugin. A
        name no plugin has exactly is read as the gateway reads a config's ids (`Lobster`,
        `openai-codex`: `bundled.canonical_id`)."""
        from vora_cli.core.plugins.bundled import canonical_id

        for wanted in dict.fromkeys((plugin_id, canonical_id(plugin_id))):
            for plugin in self.plugins:
                if plugin.id == wanted and plugin.decision.rule != OVERRIDDEN_BY_BUNDLED:
                    return plugin
            for plugin in self.bundled:
                if plugin.id == wanted:
                    return plugin
            entry = bundled_plugin(wanted)
            if entry is not None:
                return _bundled(entry, self.settings or plugins_settings({}))
        return None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(plugin.id for plugin in self.plugins)

    def present_ids(self) -> set[str]:
        """The ids of the plugins that are there: every copy found (a dangling link is not) and every
        plugin bundled with the gateway. What a reference must name, as the gateway reads it
        (`names_present`), not to be stale."""
        from vora_cli.core.plugins.bundled import bundled_ids

        return {p.id for p in (*self.plugins, *self.shadowed) if not p.dangling} | bundled_ids()

    def names_present(self, name: str, present: set[str] | None = None) -> bool:
        """Whether a config's `name` for a plugin (in `plugins.entries`, `allow`, `deny`) names one that
        is there, read as the gateway reads it (`Lobster`, ` brave `, `kimi-coding`); `present`: the
        caller's `present_ids()`, when it asks many times."""
        from vora_cli.core.plugins.bundled import canonical_id

        return canonical_id(name) in (self.present_ids() if present is None else present)

    def channel_schemas(self) -> dict[str, Mapping[str, Any]]:
        """The channel schemas the plugins found declare (their manifests' `channelConfigs`), the one
        the gateway picks for each channel (`manifest.channel_schemas`), every copy of an id counted
        as its registry counts them."""
        from vora_cli.core.plugins.channel_schemas import channel_schemas

        return channel_schemas((GATEWAY_ORIGINS[p.origin], p.source.manifest.raw) for p in (*self.plugins, *self.shadowed)
                               if p.source is not None and p.source.manifest is not None)

    @property
    def listed(self) -> tuple[DiscoveredPlugin, ...]:
        """What `plugins list` shows: the plugins found, then the bundled ones the config names."""
        return (*self.plugins, *self.bundled)


OVERRIDDEN_BY_BUNDLED = "overridden by bundled plugin"


def _bundled(entry: BundledPlugin, settings: PluginsSettings, decision: EnableDecision | None = None) -> DiscoveredPlugin:
    return DiscoveredPlugin(
        id=entry.id, origin=ORIGIN_BUNDLED, path=None, target=None, source=None, error=None,
        decision=decision or decide_enabled(entry.id, ORIGIN_BUNDLED, settings, kind=entry.kind, bundled=entry),
        install=settings.installs.get(entry.id), slots=settings.slots_of(entry.id), bundled=entry)


def _overridden(by: str) -> EnableDecision:
    rule = f"overridden by {by} plugin"
    return EnableDecision(False, rule, rule)


def _beats_bundled(plugin: DiscoveredPlugin, settings: PluginsSettings) -> bool:
    """Whether a copy found on disk wins over the gateway's own plugin of its id: a linked copy, or an
    installed one its install record names (the gateway's `resolveDuplicatePrecedenceRank`)."""
    if plugin.origin == ORIGIN_LINKED:
        return True
    record = settings.installs.get(plugin.id) or {}
    if plugin.origin != ORIGIN_INSTALLED or plugin.path is None:
        return False
    here = os.path.realpath(plugin.path)
    return any(isinstance(record.get(key), str) and js_trim(record[key]) and
               os.path.realpath(expand_path(record[key], Path(os.sep), plugin.path.parent)) == here
               for key in ("installPath", "sourcePath"))


def workspace_dir(paths: VoraPaths, agents: Agents) -> Path:
    """The default agent's workspace, by the one rule (core/agents.py; spec context.md, "Which
    workspace"). When a workspace setting has the wrong type (`vora config validate` reports
    it), listing plugins still works: it looks in the default workspace."""
    try:
        return agents.workspace(agents.default_id, paths).path
    except VoraError:
        return paths.default_workspace()


def load_path(paths: VoraPaths, spec: str, index: int | None = None) -> Path:
    """Where a `plugins.load.paths` entry points (the one path rule, `core/paths.expand_path`);
    `index`, its place in the list, when the caller knows it."""
    key = "plugins.load.paths" if index is None else f"plugins.load.paths[{index}]"
    return expand_path(spec, paths.home, paths.config_dir, key=key, settable=index is not None)


def _candidates(folder: Path) -> list[Path]:
    try:
        with os.scandir(folder) as listing:
            # scandir knows a child's type from the listing itself (no stat per child): the
            # doctor walks hundreds of plugins. Sorted by name, as sorted(iterdir()) was.
            children = sorted(listing, key=lambda entry: entry.name)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise VoraError("io_error", f"cannot list {folder}: {exc.strerror}") from exc
    found = []
    for child in children:
        if child.name.startswith("."):
            continue  # staging and kept-aside copies of an install in progress
        if _is_dir(child) or (_is_file(child) and os.path.splitext(child.name)[1] in SCRIPT_SUFFIXES):
            found.append(folder / child.name)
    return found


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows a symlink, as Path.is_dir
    except OSError:
        return False


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _id_for_install_path(settings: PluginsSettings, path: Path) -> str | None:
    for plugin_id, record in settings.installs.items():
        install_path = record.get("installPath")
        if isinstance(install_path, str) and os.path.abspath(install_path) == os.path.abspath(path):
            return plugin_id
    return None


def discover_plugins(paths: VoraPaths, config: Mapping[str, Any], agents: Agents | None = None) -> Discovery:
    """The plugins the gateway would find with `config`; `agents`: its agents, when the caller
    already has them (`Install.agents`)."""
    settings = plugins_settings(config)
    reads = PluginReads()
    seen: dict[str, DiscoveredPlugin] = {}
    order: list[str] = []
    shadowed: list[DiscoveredPlugin] = []

    def add(origin: str, path: Path, link_spec: str | None = None) -> None:
        target: Path | None = path
        source: PluginSource | None = None
        error: str | None = None
        parse_error: ParseError | None = None
        if origin == ORIGIN_LINKED:
            target = Path(os.path.realpath(path)) if path.exists() else None
        if target is None:
            error = f"dangling link: {path} does not exist"
        else:
            try:
                source = read_plugin(path, require_entries=False, reads=reads)
            except VoraError as exc:
                error = exc.message
                parse_error = exc if isinstance(exc, ParseError) else None
        if source is not None:
            plugin_id = source.id
        else:
            plugin_id = _id_for_install_path(settings, target or path) or _id_for_install_path(settings, path) or (
                path.stem if path.is_file() else path.name)
        plugin = DiscoveredPlugin(
            id=plugin_id, origin=origin, path=path, target=target if origin == ORIGIN_LINKED else None,
            source=source, error=error,
            decision=decide_enabled(plugin_id, origin, settings, kind=source.kind if source else ()),
            install=settings.installs.get(plugin_id), slots=settings.slots_of(plugin_id), link_spec=link_spec,
            parse_error=parse_error,
        )
        if plugin_id in seen:
            shadowed.append(replace(plugin, decision=_overridden(seen[plugin_id].origin)))
        else:
            seen[plugin_id] = plugin
            order.append(plugin_id)

    places: list[SearchedPlace] = []
    for index, spec in _load_specs(settings):
        if js_trim(spec):  # a blank entry names no path (doctor's plugin-references reports it)
            places.append(SearchedPlace(ORIGIN_LINKED, load_path(paths, spec, index), index))
            add(ORIGIN_LINKED, places[-1].path, spec)
    workspace = workspace_dir(paths, agents if agents is not None else Agents(config))
    for origin, folder in ((ORIGIN_WORKSPACE, workspace / ".vora" / "extensions"), (ORIGIN_INSTALLED, paths.extensions_dir)):
        places.append(SearchedPlace(origin, folder))
        for child in _candidates(folder):
            add(origin, child)
    bundled: list[DiscoveredPlugin] = []
    named = settings.named_ids() | {key for key, value in settings.channels.items() if isinstance(value, dict)}
    for plugin_id in sorted(named | set(order)):
        entry = bundled_plugin(plugin_id)
        if entry is None:
            continue
        found = seen.get(plugin_id)
        if found is not None and _beats_bundled(found, settings):
            if plugin_id in named:
                bundled.append(_bundled(entry, settings, _overridden(found.origin)))
            continue
        if found is not None:
            seen[plugin_id] = replace(found, decision=_overridden(ORIGIN_BUNDLED))
        bundled.append(_bundled(entry, settings))
    return Discovery(plugins=tuple(seen[i] for i in order), shadowed=tuple(shadowed), settings=settings,
                     places=tuple(places), reads=reads, bundled=tuple(bundled))


def _load_specs(settings: PluginsSettings) -> list[tuple[int, str]]:
    """The string entries of `plugins.load.paths`, each with its index in the list as written."""
    load = settings.raw.get("load")
    specs = load.get("paths") if isinstance(load, dict) else None
    return [(i, spec) for i, spec in enumerate(specs) if isinstance(spec, str)] if isinstance(specs, list) else []


def require_plugin(discovery: Discovery, plugin_id: str) -> DiscoveredPlugin:
    """The plugin `plugin_id` (found, or one of the gateway's own), or `not_found` with a "did you mean"."""
    from vora_cli.core.plugins.bundled import bundled_ids
    from vora_cli.core.wording import closest

    plugin = discovery.find(plugin_id)
    if plugin is not None:
        return plugin
    suggestion = closest(plugin_id, [*discovery.ids, *sorted(bundled_ids())])
    hint = f"did you mean {suggestion!r}?" if suggestion else "run 'vora plugins list' to see the installed plugins"
    raise VoraError("not_found", f"plugin not installed: {plugin_id}", hint)
