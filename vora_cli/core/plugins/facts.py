"""What the gateway's validator knows of the installed plugins, from vora's one discovery.

`core/config/gateway.py` validates `plugins.entries.<id>.config` against each plugin's
`configSchema` but reads no plugin itself (the config layer sits below the plugins layer): this
module hands it the facts, built from `discover_plugins`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from vora_cli.core.config.gateway import PluginFacts, PluginSchemaInfo

if TYPE_CHECKING:
    from vora_cli.core.config.readback import GatewayCheck
    from vora_cli.core.config.validation import ValidationReport
    from vora_cli.core.install import Install
    from vora_cli.core.paths import VoraPaths
    from vora_cli.core.plugins.discovery import Discovery


def facts_of(discovery: Discovery) -> PluginFacts:
    infos = []
    for plugin in discovery.plugins:
        if plugin.source is None:
            continue  # the gateway cannot load it either; doctor's plugin-manifests says why
        manifest = plugin.source.manifest
        channels = manifest.raw.get("channels") if manifest else None
        infos.append(PluginSchemaInfo(
            id=plugin.id, kind=plugin.kind,
            config_schema=manifest.config_schema if manifest else None,
            enabled=plugin.decision.enabled,
            channels=tuple(c for c in channels if isinstance(c, str)) if isinstance(channels, list) else (),
        ))
    return PluginFacts(tuple(infos))


def plugin_facts(paths: VoraPaths, config: Mapping[str, Any]) -> PluginFacts:
    """The plugins the gateway would find with `config` (the effective tree), as validator facts.
    When they cannot be found (a load path no file system can hold), the plugin phase is skipped:
    `vora doctor` names that problem; a config write must not fail over it."""
    from vora_cli.core.errors import VoraError
    from vora_cli.core.plugins.discovery import discover_plugins  # only when the verdict asks

    try:
        return facts_of(discover_plugins(paths, config))
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
