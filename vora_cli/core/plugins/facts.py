"""What the gateway's validator knows of the installed plugins, from vora's one discovery.

`core/config/gateway.py` reads no plugin itself (the config layer sits below the plugins layer): this
module hands it the registry's plugins, each with vora's enable decision, and its diagnostics.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from vora_cli.core.config.gateway import PluginFacts, PluginSchemaInfo
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.readback import GatewayCheck
    from vora_cli.core.config.validation import ValidationReport
    from vora_cli.core.install import Install
    from vora_cli.core.paths import VoraPaths
    from vora_cli.core.plugins.bundled import BundledPlugin
    from vora_cli.core.plugins.discovery import Discovery
    from vora_cli.core.plugins.registry import Registry
    from vora_cli.core.plugins.settings import PluginsSettings


def facts_of(discovery: Discovery, paths: VoraPaths) -> PluginFacts:
    # The manifests' modules load here, not with `gateway_check`: most writes never ask for the facts.
    from vora_cli.core.plugins.activation import decide_enabled
    from vora_cli.core.plugins.channel_schemas import channel_schemas
    from vora_cli.core.plugins.manifest import MANIFEST_FILES
    from vora_cli.core.plugins.registry import VORA_ORIGINS, gateway_registry
    from vora_cli.core.plugins.settings import plugins_settings

    registry = gateway_registry(discovery, paths)
    settings = discovery.settings or plugins_settings({})
    infos = []
    for record in registry.records:
        manifest = record.manifest
        kind = manifest.get("kind")
        kinds = (kind,) if isinstance(kind, str) else tuple(kind) if isinstance(kind, list) and kind and all(
            isinstance(k, str) for k in kind) else ()
        channels = manifest.get("channels")
        schema = manifest.get("configSchema")
        decision = decide_enabled(record.id, VORA_ORIGINS[record.origin], settings, kind=kinds)
        judged = decide_enabled(record.id, VORA_ORIGINS[record.origin], settings, kind=kinds, validating=True) \
            if record.id in settings.entries else decision
        infos.append(PluginSchemaInfo(
            id=record.id, kind=kinds, config_schema=schema if isinstance(schema, dict) else None,
            enabled=decision.enabled,
            channels=tuple(js_trim(c) for c in channels if isinstance(c, str) and js_trim(c))
            if isinstance(channels, list) else (),
            manifest_file=next((str(path) for name in MANIFEST_FILES if (path := Path(record.root) / name).is_file()),
                               None),
            reason="" if judged.enabled else judged.rule or "disabled",
        ))
    from vora_cli.core.plugins.bundled import bundled_ids, bundled_plugin

    channels = frozenset(c for pid in bundled_ids() if (entry := bundled_plugin(pid)) is not None for c in entry.channels)
    declared = channel_schemas((record.origin, record.manifest) for record in registry.records)
    if not settings.allow:  # only an allow list asks which names are commands and lets web search through
        return PluginFacts(tuple(infos), registry.diagnostics, bundled_enabled(discovery), channels,
                           bundled_disabled=_bundled_disabled(discovery, settings), channel_schemas=declared)
    bundled = [entry for pid in sorted(bundled_ids()) if (entry := bundled_plugin(pid)) is not None]
    return PluginFacts(
        tuple(infos), registry.diagnostics, bundled_enabled(discovery), channels, _command_aliases(registry, bundled),
        frozenset(p.id.lower() for p in registry.records) | frozenset(e.id.lower() for e in bundled),
        _bundled_disabled(discovery, settings), frozenset(e.id for e in bundled if e.web_search_provider), declared)


def _bundled_disabled(discovery: Discovery, settings: PluginsSettings) -> dict[str, str]:
    """The bundled plugins the config keeps settings for that its validator does not load, with its reason."""
    from vora_cli.core.plugins.activation import decide_enabled
    from vora_cli.core.plugins.bundled import ORIGIN_BUNDLED, bundled_plugin

    found = {}
    for plugin in discovery.bundled:
        entry = bundled_plugin(plugin.id)
        if entry is None or plugin.id not in settings.entries:
            continue
        judged = decide_enabled(plugin.id, ORIGIN_BUNDLED, settings, kind=entry.kind, bundled=entry, validating=True)
        if not judged.enabled:
            found[plugin.id] = judged.rule or "disabled"
    return found


def _command_aliases(registry: Registry, bundled: list[BundledPlugin]) -> tuple[tuple[str, str], ...]:
    """Each command a plugin declares (its manifest's `commandAliases`, lower-cased), with the plugin,
    in the gateway's registry order: the bundled plugins stand before the global ones."""
    found: list[tuple[str, str]] = []
    for i, record in enumerate([*registry.records, None]):
        if i == registry.bundled_at:
            found.extend((name, entry.id) for entry in bundled for name in entry.command_aliases)
        if record is None:
            break
        aliases = record.manifest.get("commandAliases")
        for alias in aliases if isinstance(aliases, list) else ():
            name = alias if isinstance(alias, str) else alias.get("name") if isinstance(alias, dict) else None
            if isinstance(name, str) and js_trim(name):
                found.append((js_trim(name).lower(), record.id))
    return tuple(found)


def bundled_enabled(discovery: Discovery) -> frozenset[str]:
    """The bundled plugins with required settings that the gateway loads with the discovery's config
    (their load verdict, the memory slot's choice included): the validator checks their settings even
    when none are set. One that requires nothing accepts none: it need not be judged."""
    from vora_cli.core.plugins.bundled import bundled_ids, bundled_plugin

    found = set()
    for plugin_id in bundled_ids():
        entry = bundled_plugin(plugin_id)
        if entry is None or not entry.requires:
            continue
        plugin = discovery.find(plugin_id)
        if plugin is not None and plugin.origin == "bundled" and plugin.decision.enabled:
            found.add(plugin_id)
    return frozenset(found)


def plugin_facts(paths: VoraPaths, config: Mapping[str, Any]) -> PluginFacts:
    """The plugins the gateway would find with `config` (the effective tree), as validator facts.
    When they cannot be found (a load path no file system can hold), the plugin phase is skipped:
    `vora doctor` names that problem; a config write must not fail over it."""
    from vora_cli.core.errors import VoraError
    from vora_cli.core.plugins.discovery import discover_plugins  # only when the verdict asks

    try:
        return facts_of(discover_plugins(paths, config), paths)
    except (VoraError, OSError, UnicodeError):
        return PluginFacts()


def validate_install_config(install: Install, *, strict: bool = False) -> ValidationReport:
    """`vora config validate`: the gateway's verdict on the config, plugin configs included."""
    from vora_cli.core.config.validation import validate_config

    return validate_config(install, strict=strict, plugin_facts=lambda config: plugin_facts(install.paths, config))


def gateway_check(install: Install, *, force: bool = False) -> GatewayCheck:
    """How `config set/unset/patch/edit` meet the gateway's validator: plugin configs included."""
    from vora_cli.core.config.readback import GatewayCheck

    return GatewayCheck(force=force, plugin_facts=lambda config: plugin_facts(install.paths, config))
