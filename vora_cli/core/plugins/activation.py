"""Whether the gateway loads a plugin, and why: its activation rules and its memory slot (one rule).

openclaw 2026.4.12's `resolvePluginActivationState`, then `resolveMemorySlotDecision`; the first rule
that applies decides (docs/plugins.md, "Status is the gateway's load verdict").
"""

from __future__ import annotations

from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.plugins.bundled import BundledPlugin
    from vora_cli.core.plugins.settings import PluginsSettings


@dataclass(frozen=True)
class EnableDecision:
    """Whether a plugin is loaded, the gateway's words for why (`rule`; empty where it gives none),
    and the one-line reason vora shows (the words and the config key behind them)."""
    enabled: bool
    reason: str
    rule: str = ""


def _decision(enabled: bool, rule: str, where: str = "") -> EnableDecision:
    return EnableDecision(enabled, f"{rule}: {where}" if where else rule, rule)


def _entry(plugin_id: str) -> str:
    return f'plugins.entries["{plugin_id}"]'


def configured_channel(settings: PluginsSettings, bundled: BundledPlugin | None) -> tuple[str, bool] | None:
    """The channel of a bundled channel plugin the config turns on (and whether by its `enabled`), else None."""
    for channel in bundled.channels if bundled is not None else ():
        value = settings.channels.get(channel)
        if isinstance(value, dict) and value.get("enabled") is not False and (
                value.get("enabled") is True or any(key != "enabled" for key in value)):
            return channel, value.get("enabled") is True
    return None


def _activation(plugin_id: str, origin: str, settings: PluginsSettings,
                bundled: BundledPlugin | None, validating: bool = False) -> EnableDecision:
    entry = settings.explicit_enabled(plugin_id)
    if not settings.enabled:
        return _decision(False, "plugins disabled", "plugins.enabled is false")
    if plugin_id in settings.deny:
        return _decision(False, "blocked by denylist", "plugins.deny")
    if entry is False:
        return _decision(False, "disabled in config", f"{_entry(plugin_id)}.enabled is false")
    allowed = settings.allow is not None and plugin_id in settings.allow
    if origin == "workspace" and not allowed and entry is not True and (
            settings.memory_slot == plugin_id or settings.engine_slot != plugin_id):
        return _decision(False, "workspace plugin (disabled by default)",
                         f"enable it in {_entry(plugin_id)} or plugins.allow")
    if settings.memory_slot == plugin_id:
        return _decision(True, "selected memory slot", "plugins.slots.memory")
    if settings.engine_slot == plugin_id:
        return _decision(True, "selected context engine slot", "plugins.slots.contextEngine")
    channel = configured_channel(settings, bundled)
    if validating:
        # The validator asks without the gateway's runtime additions: an allow list lets through only
        # what it names (and the bundled web search plugins), a channel only by its `enabled: true`,
        # and a bundled plugin's own default is not read.
        channel = channel if channel is not None and channel[1] else None
        allowed = allowed or (bundled is not None and bundled.web_search_provider and bool(settings.allow))
        if settings.allow and not allowed:
            return _decision(False, "not in allowlist", "plugins.allow")
    elif settings.allow and not allowed and channel is None and not settings.entry_has_settings(plugin_id):
        return _decision(False, "not in allowlist", "plugins.allow")
    if entry is True:
        return _decision(True, "enabled in config", f"{_entry(plugin_id)}.enabled is true")
    if channel is not None and channel[1]:
        return _decision(True, "channel enabled in config", f"channels.{channel[0]}.enabled")
    if allowed and bundled is None:
        return _decision(True, "selected in allowlist", "plugins.allow")
    if channel is not None:
        return _decision(True, "channel configured", f"channels.{channel[0]}")
    if bundled is not None:
        if bundled.enabled_by_default and not validating:
            return _decision(True, "bundled default enablement")
        return _decision(False, "bundled (disabled by default)")
    return EnableDecision(True, f"{origin} plugins are enabled by default")


def decide_enabled(plugin_id: str, origin: str, settings: PluginsSettings, *, kind: tuple[str, ...] = (),
                   bundled: BundledPlugin | None = None, validating: bool = False) -> EnableDecision:
    """The gateway's verdict on loading `plugin_id` (found at `origin`, of `kind`; `bundled`: its
    entry when it is one of the gateway's own plugins). `validating`: the verdict its config
    validator reaches (`validateConfigObjectWithPlugins` asks the same rules without the runtime's
    additions, see `_activation`), which its "disabled but config is present" warning names."""
    decision = _activation(plugin_id, origin, settings, bundled, validating)
    if not decision.enabled or "memory" not in kind or len(kind) > 1:
        return decision
    slot = settings.memory_slot
    if slot is None:
        return _decision(False, "memory slot disabled", "plugins.slots.memory is none")
    if slot != plugin_id:
        return _decision(False, f'memory slot set to "{slot}"', "plugins.slots.memory")
    return decision
