"""Checks on plugins and the slots (spec doctor.md, "Slot verification"): core/plugins' answers, the same
as `vora plugins list/inspect`, turned into findings.
"""

from __future__ import annotations

from pathlib import Path

from vora_cli.core.doctor.model import (
    ERROR,
    FIX_COMMAND,
    FIX_CONFIG,
    PASS,
    SKIP,
    WARN,
    CheckResult,
    Evidence,
    Fix,
    Location,
    file_mode,
    named,
)
from vora_cli.core.install import Install
from vora_cli.core.json5.path_syntax import ConfigPath
from vora_cli.core.records import dataclass
from vora_cli.core.shell import command_line
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.plugins.discovery import DiscoveredPlugin, Discovery

# What a passing slot check could see: the files. `--live` asks the gateway (live_checks.LIVE_NOTE).
SEEN_NOTE = "its files check out (vora doctor --live asks the running gateway whether it loaded it)"
BUILT_IN_IDS = ("legacy", "memory-core")


def _discovery(install: Install) -> Discovery:
    return install.plugins


def _skip(check_id: str, keys: tuple[str, ...]) -> CheckResult:
    return CheckResult(check_id, SKIP, "skipped: the config does not parse (see config-syntax)",
                       evidence=Evidence(config=keys))


# -- the slots ----------------------------------------------------------------------------------

def _check_slot(install: Install, check_id: str, slot: str) -> CheckResult:
    from vora_cli.core.plugins.slots import check_slot
    from vora_cli.core.wording import closest

    key = f"plugins.slots.{slot}"
    if install.config is None:
        return _skip(check_id, (key,))
    discovery = _discovery(install)
    result = check_slot(slot, discovery)
    plugin = discovery.find(result.value)
    files: tuple[str, ...] = ()
    if plugin is not None:
        entries = plugin.source.entries if plugin.source else ()
        files = (str(plugin.path), *(str(e.path) for e in entries))
    evidence = Evidence(config=(key, "plugins.entries", "plugins.allow", "plugins.deny", "plugins.enabled",
                                "plugins.load.paths"), files=files)
    if result.ok:
        if result.value.lower() == "none" and slot == "memory":
            return CheckResult(check_id, PASS, "memory: none (memory disabled by choice)", evidence=evidence)
        if result.built_in:
            return CheckResult(check_id, PASS, f"{slot}: {result.value} (built in)", evidence=evidence)
        return CheckResult(check_id, PASS, f"{result.message}: {SEEN_NOTE}", evidence=evidence)
    status = WARN if result.broken == "registers" else ERROR
    message, action, command, alternatives = result.message, result.action, result.fix, result.alternatives
    if result.broken == "installed":
        near = closest(result.value, [i for i in discovery.ids if i != result.value])
        if near is not None:
            message += f" (did you mean {near}?)"
            action = f"select {near}, which is installed"
            command, alternatives = command_line("vora", "config", "set", f"plugins.slots.{slot}", near), \
                tuple(c for c in (result.fix, *result.alternatives) if c)
    fix = Fix(check_id, FIX_COMMAND, action or f"mend plugins.slots.{slot}", command,
              alternatives=alternatives) if command else None
    return CheckResult(check_id, status, message, (), evidence, fix)


def check_slot_context_engine(install: Install) -> CheckResult:
    return _check_slot(install, "slot-context-engine", "contextEngine")


def check_slot_memory(install: Install) -> CheckResult:
    return _check_slot(install, "slot-memory", "memory")


# -- every plugin -------------------------------------------------------------------------------

def check_plugin_manifests(install: Install) -> CheckResult:
    if install.config is None:
        return _skip("plugin-manifests", ("plugins.load.paths",))
    from vora_cli.core.plugins.compat import check_compat, install_gateway_version
    from vora_cli.core.plugins.verdict import entry_problem, schema_problem

    discovery = _discovery(install)
    plugins = (*discovery.plugins, *discovery.shadowed)
    problems: list[str] = []
    locations: list[Location] = []
    first_id: str | None = None
    # the gateway version a plugin's `compat` is checked against, as install and inspect check it:
    # the `gateway.version` setting (VORA_GATEWAY_VERSION first), else what the last `doctor --live` saw
    gateway_version = install_gateway_version(install).version
    for plugin in plugins:
        where = plugin.where
        if where is None:
            continue
        text: str | None = None
        compat = check_compat(plugin.source, gateway_version) if plugin.source is not None else None
        # the load verdict's, as `plugins list` says it, and a configSchema that does not compile
        problem = plugin.error or entry_problem(plugin) or schema_problem(plugin)
        if problem is not None:
            text = f"{plugin.id} ({where}): {problem}"
        elif compat is not None and compat.status == "out-of-range":
            text = f"{plugin.id} ({where}): {compat.message}; the gateway may refuse or break it"
        if text is not None:
            problems.append(text)
            locations.append(_manifest_location(plugin, where, text))
            first_id = first_id or plugin.id
    evidence = Evidence(config=("plugins.load.paths",), files=tuple(str(p.path) for p in plugins if p.path))
    if not problems:
        n = len(discovery.plugins)
        return CheckResult("plugin-manifests", PASS,
                           f"{plural(n, 'plugin')} found, every manifest valid" if n else "no plugins installed",
                           evidence=evidence)
    message = problems[0] if len(problems) == 1 else f"{len(problems)} plugins are broken; {problems[0]}"
    return CheckResult("plugin-manifests", ERROR, message, tuple(problems), evidence,
                       Fix("plugin-manifests", FIX_COMMAND, f"see what is wrong with {first_id}, then fix its files",
                           command_line("vora", "plugins", "inspect", first_id)),
                       tuple(locations))


def _manifest_location(plugin: DiscoveredPlugin, where: Path, text: str) -> Location:
    """The manifest's file (with line and col when it does not parse), else the plugin folder."""
    from vora_cli.core.plugins.manifest import MANIFEST_FILES

    error = plugin.parse_error
    if error is not None:
        return Location(str(where / error.file), error.line, error.col, f"{plugin.id}: {error.what}")
    manifest = next((where / name for name in MANIFEST_FILES if (where / name).is_file()), None)
    return Location(str(manifest) if manifest is not None else str(where), message=text)


def _present_ids(install: Install) -> set[str]:
    """Ids of the plugins that are there (`Discovery.present_ids`: found and no dangling link, or
    bundled), so a fix never removes a reference to a plugin the gateway loads. A dangling link's
    id counts as absent, so one `--fix plugin-references` removes all its references.
    """
    return _discovery(install).present_ids() | set(BUILT_IN_IDS)


def _entry_has_settings(entry: object) -> bool:
    """`plugins.entries.<id>` holds more than the `enabled` switch (its `config`, above all)."""
    return isinstance(entry, dict) and any(key != "enabled" for key in entry)


@dataclass(frozen=True)
class StaleReferences:
    """What `plugin-references` finds: the references a fix removes (each with why, array elements
    last per array and highest index first, so deleting them in order keeps every other index
    valid), and what it finds stale but leaves, with why (`kept`)."""
    removable: tuple[tuple[ConfigPath, str], ...]
    kept: tuple[str, ...] = ()


def stale_references(install: Install) -> StaleReferences:
    """Config paths that name a plugin that is not there, as the gateway reads the names (spec:
    plugin-references; `Discovery.names_present`).

    A `plugins.entries.<id>` holding settings is no reference: a folder missing for now must not
    cost its settings (`plugin-settings` removes them only when asked by name). A fix never
    widens what loads: an allow list whose every plugin is gone is kept, and said so.
    """
    from vora_cli.core.plugins.discovery import load_path
    from vora_cli.core.plugins.settings import listed_ids

    discovery = _discovery(install)
    known = _present_ids(install)

    def there(name: str) -> bool:
        return discovery.names_present(name, known)

    raw = install.config.value.get("plugins") if install.config is not None else None
    raw = raw if isinstance(raw, dict) else {}
    stale: list[tuple[ConfigPath, str]] = []
    kept: list[str] = []
    for section in ("entries", "installs"):
        node = raw.get(section)
        if isinstance(node, dict):
            for plugin_id, value in node.items():
                if there(plugin_id) or (section == "entries" and _entry_has_settings(value)):
                    continue
                stale.append((("plugins", section, plugin_id),
                              f"plugins.{section} names {plugin_id}, which is not installed"))
    for section in ("allow", "deny"):
        node = raw.get(section)
        if not isinstance(node, list):
            continue
        gone = [i for i in reversed(range(len(node))) if isinstance(node[i], str) and not there(node[i])]
        if section == "allow" and gone:
            # A command's name (`pair`) is no plugin: the gateway ignores it with a warning, and the
            # operator most likely meant the plugin that provides it, which a fix must not decide.
            owners = _command_owners(install, [node[i] for i in gone])
            for i in [i for i in reversed(gone) if node[i] in owners]:
                gone.remove(i)
                owner = owners[node[i]]
                kept.append(f'plugins.allow lists "{node[i]}", a command the {owner} plugin provides, not a plugin: '
                            f'the gateway ignores it. Left as it is: write "{owner}" there to allow the plugin, or '
                            f"remove it ({command_line('vora', 'config', 'edit')})")
        left = [value for i, value in enumerate(node) if i not in gone]
        if section == "allow" and gone and listed_ids(node) and not listed_ids(left):
            names = ", ".join(str(node[i]) for i in reversed(gone))
            kept.append(f"plugins.allow lists only plugins that are not installed ({names}); removing them would leave "
                        "an empty allow list, which the gateway reads as no allow list: every plugin would load. "
                        "Left as it is: name the plugins to allow, or remove the list yourself "
                        f"({command_line('vora', 'config', 'edit')})")
            continue
        stale.extend((("plugins", section, i), f"plugins.{section} lists {node[i]}, which is not installed")
                     for i in gone)
    load = raw.get("load")
    paths = load.get("paths") if isinstance(load, dict) else None
    # Where an entry points is read from the effective value (`${VAR}` resolved, as the gateway
    # reads it); the config path to remove is the entry as written. Same list, same indexes.
    effective_plugins = install.effective.get("plugins")
    effective_load = effective_plugins.get("load") if isinstance(effective_plugins, dict) else None
    effective_paths = effective_load.get("paths") if isinstance(effective_load, dict) else None
    if isinstance(paths, list):
        for i in reversed(range(len(paths))):
            spec = paths[i]
            if not isinstance(spec, str):
                continue
            resolved = effective_paths[i] if isinstance(effective_paths, list) and i < len(effective_paths) else spec
            resolved = resolved if isinstance(resolved, str) else spec
            if not resolved.strip() or not load_path(install.paths, resolved, i).exists():
                stale.append((("plugins", "load", "paths", i), f"plugins.load.paths has {spec}, which does not exist"))
    return StaleReferences(tuple(stale), tuple(kept))


def _command_owners(install: Install, names: list[str]) -> dict[str, str]:
    """Each of `names` that is a command a plugin that is there provides, with that plugin (the
    gateway's rule, `command_owner`); asked only of names that are no plugin."""
    from vora_cli.core.config.gateway import command_owner
    from vora_cli.core.plugins.facts import plugin_facts

    facts = plugin_facts(install.paths, install.effective)
    return {name: owner for name in names
            if (owner := command_owner(name, facts)) is not None and owner.lower() in facts.lowered_ids}


def orphaned_settings(install: Install) -> list[str]:
    """Ids whose `plugins.entries.<id>` holds settings while no plugin `<id>` is there."""
    raw = install.config.value.get("plugins") if install.config is not None else None
    entries = raw.get("entries") if isinstance(raw, dict) else None
    if not isinstance(entries, dict):
        return []
    discovery = _discovery(install)
    known = _present_ids(install)
    return [plugin_id for plugin_id, entry in entries.items()
            if not discovery.names_present(plugin_id, known) and _entry_has_settings(entry)]


def check_plugin_references(install: Install) -> CheckResult:
    keys = ("plugins.entries", "plugins.installs", "plugins.allow", "plugins.deny", "plugins.load.paths")
    if install.config is None:
        return _skip("plugin-references", keys)
    found = stale_references(install)
    stale = found.removable
    evidence = Evidence(config=keys, files=(str(install.paths.config_path),))
    if not stale and not found.kept:
        return CheckResult("plugin-references", PASS, "every plugin reference names a plugin that is there",
                           evidence=evidence)
    details = (*(why for _, why in stale), *found.kept)
    count = len(stale) + len(found.kept)
    message = details[0] if count == 1 else f"{count} stale plugin references; {details[0]}"
    if not stale:
        return CheckResult("plugin-references", WARN, message, details, evidence,
                           Fix("plugin-references", FIX_COMMAND, "name the plugins to allow in plugins.allow",
                               command_line("vora", "config", "edit")))
    return CheckResult(
        "plugin-references", WARN, message, details, evidence,
        Fix("plugin-references", FIX_CONFIG, "remove the stale references from the config (one write, with a backup)"
            + ("; what is said to be left as it is stays" if found.kept else ""),
            "vora doctor --fix plugin-references", unset=tuple(path for path, _ in stale)),
    )


def check_plugin_settings(install: Install) -> CheckResult:
    """Settings kept for a plugin that is not there: reported, removed only by `--fix plugin-settings`."""
    keys = ("plugins.entries",)
    if install.config is None:
        return _skip("plugin-settings", keys)
    orphans = orphaned_settings(install)
    evidence = Evidence(config=keys, files=(str(install.paths.config_path),))
    if not orphans:
        return CheckResult("plugin-settings", PASS, "every plugin's settings belong to a plugin that is there",
                           evidence=evidence)
    details = tuple(f'plugins.entries["{pid}"] holds settings for {pid}, which is not found; they are kept '
                    "(its folder may be missing for now, e.g. on a disk that is not mounted)" for pid in orphans)
    message = (details[0] if len(orphans) == 1
               else f"{len(orphans)} plugins not found still have settings: {named(orphans)}")
    return CheckResult(
        "plugin-settings", WARN, message, details, evidence,
        Fix("plugin-settings", FIX_CONFIG,
            "delete these settings for good (only when named: a plain --fix never does this)",
            "vora doctor --fix plugin-settings", unset=tuple(("plugins", "entries", pid) for pid in orphans)),
    )


def check_plugin_permissions(install: Install) -> CheckResult:
    if install.config is None:
        return _skip("plugin-permissions", ("plugins.load.paths",))
    discovery = _discovery(install)
    loose: list[tuple[str, Path, int]] = []
    for plugin in discovery.plugins:
        where = plugin.where
        if where is None:
            continue
        mode = file_mode(where)
        if mode is not None and mode & 0o022:
            loose.append((plugin.id, where, mode))
    evidence = Evidence(files=tuple(str(p.where) for p in discovery.plugins if p.where))
    if not loose:
        return CheckResult("plugin-permissions", PASS,
                           "no plugin folder is writable by group/others" if discovery.plugins else "no plugins installed",
                           evidence=evidence)
    details = tuple(f"{pid}: {where} has mode {mode:04o} (writable by group/others)" for pid, where, mode in loose)
    paths = command_line(*(where for _, where, _ in loose))
    message = (f"{loose[0][0]}: {loose[0][1]} is writable by group/others; the gateway refuses to load it"
               if len(loose) == 1 else f"{len(loose)} plugin folders are writable by group/others; the gateway refuses them")
    return CheckResult("plugin-permissions", WARN, message, details, evidence,
                       Fix("plugin-permissions", FIX_COMMAND, "remove group/other write access", f"chmod go-w {paths}"))
