"""Turning plugins on and off, and selecting them for a slot (`enable`, `disable`, `use`): each refuses a
config the gateway would not start on (docs/plugins.md, "Settings the gateway requires").
"""

from __future__ import annotations

from vora_cli.core.config.loading import load_config
from vora_cli.core.config.writing import apply_config_edits
from vora_cli.core.errors import VoraError
from vora_cli.core.plugins.discovery import discover_plugins, require_plugin
from vora_cli.core.plugins.records import SlotChange, applied, enabled_edits, slot_edit
from vora_cli.core.plugins.settings import SLOT_KEYS, slot_key
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.gateway import GatewayIssue
    from vora_cli.core.config.planning import ConfigEdit
    from vora_cli.core.config.writing import ConfigWriteResult
    from vora_cli.core.install import Install
    from vora_cli.core.plugins.activation import EnableDecision
    from vora_cli.core.plugins.discovery import DiscoveredPlugin


@dataclass(frozen=True)
class EnableResult:
    """What `vora plugins enable` / `disable` changed."""
    plugin_id: str
    enabled: bool
    before: bool
    before_reason: str
    config: ConfigWriteResult
    warnings: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.plugin_id, "enabled": self.enabled, "wasEnabled": self.before,
                "wasReason": self.before_reason, "warnings": list(self.warnings), "config": self.config.to_dict()}


def judge(plugin: DiscoveredPlugin, config: dict[str, Any], edits: list[ConfigEdit]) -> tuple[EnableDecision,
                                                                                           list[GatewayIssue]]:
    """The gateway's verdict on `plugin` in the config `edits` would leave."""
    from vora_cli.core.plugins.verdict import config_schema, manifest_path, planned_issues

    return planned_issues(plugin.id, plugin.origin, plugin.kind, config_schema(plugin), applied(config, edits),
                          bundled=plugin.bundled, manifest_file=manifest_path(plugin))


def set_plugin_enabled(install: Install, plugin_id: str, enabled: bool, *, dry_run: bool = False) -> EnableResult:
    """Set `plugins.entries.<id>.enabled`; the id must be a plugin that is there (found, or bundled
    with the gateway). Enabling one whose required settings are missing is refused."""
    paths = install.paths
    snapshot = load_config(paths, install.env)  # one read: the plan and the write use it
    config = snapshot.value
    discovery = discover_plugins(paths, config)
    plugin = require_plugin(discovery, plugin_id)
    plugin_id = plugin.id  # `Lobster`, `openai-codex`: the plugin the gateway reads the name as
    settings = discovery.settings
    assert settings is not None
    warnings: list[str] = []
    if not enabled and plugin.slots:
        for slot in plugin.slots:
            warnings.append(f"{plugin_id} is still selected in plugins.slots.{slot}; the gateway will not load it "
                            f"and runs that need the {slot} slot will fail until you select another plugin")
    edits = enabled_edits(settings, plugin_id, enabled)
    if enabled:
        decision, issues = judge(plugin, config, edits)
        if issues:
            from vora_cli.core.plugins.verdict import refuse_unset_settings

            raise refuse_unset_settings(plugin_id, issues, command_line("vora", "plugins", "enable", plugin_id))
        if not decision.enabled:
            warnings.append(f"{plugin_id} stays off after this: {decision.reason}")
    command = "plugins enable" if enabled else "plugins disable"
    write = apply_config_edits(install, edits, command=command, dry_run=dry_run, snapshot=snapshot)
    return EnableResult(plugin_id, enabled, plugin.decision.enabled, plugin.decision.reason, write, tuple(warnings))


@dataclass(frozen=True)
class UseResult:
    """What `vora plugins use` changed."""
    plugin_id: str
    change: SlotChange
    config: ConfigWriteResult

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.plugin_id, **self.change.to_dict(), "config": self.config.to_dict()}


def use_plugin(install: Install, plugin_id: str, slot: str | None = None, *, dry_run: bool = False) -> UseResult:
    """Select `plugin_id` for its slot (inferred from its kind when unambiguous)."""
    if slot is not None:
        named = slot_key(slot)
        if named is None:
            raise VoraError("usage", f"unknown slot {slot!r}",
                            "use --slot contextEngine (or context-engine) or --slot memory")
        slot = named
    paths = install.paths
    snapshot = load_config(paths, install.env)  # one read: the plan and the write use it
    config = snapshot.value
    discovery = discover_plugins(paths, config)
    plugin = require_plugin(discovery, plugin_id)
    plugin_id = plugin.id  # a slot names the id itself: the gateway reads no other name there
    settings = discovery.settings
    assert settings is not None
    if plugin.error is not None:
        raise VoraError("invalid", f"plugin {plugin_id} cannot be loaded: {plugin.error}",
                        command_line("vora", "plugins", "inspect", plugin_id))
    fitting = [name for name, kind in SLOT_KEYS.items() if kind in plugin.kind]
    if slot is None:
        if not fitting:
            raise VoraError("refused", f'{plugin_id} has no "kind" in its vora.plugin.json, so it fits no slot',
                            'add "kind": "context-engine" or "memory" to the manifest')
        if len(fitting) > 1:
            raise VoraError("usage", f"{plugin_id} fits both slots ({', '.join(fitting)})",
                            f"pick one: {command_line('vora', 'plugins', 'use', plugin_id, '--slot', 'contextEngine')}")
        slot = fitting[0]
    elif slot not in fitting:
        found = ", ".join(plugin.kind) or "none"
        raise VoraError("refused", f"{plugin_id} cannot fill plugins.slots.{slot}: its kind is {found}, "
                        f"not {SLOT_KEYS[slot]}", f'add "{SLOT_KEYS[slot]}" to "kind" in its vora.plugin.json')
    edits = [slot_edit(config, slot, plugin_id)]
    decision, issues = judge(plugin, config, edits)  # selected, as the gateway would judge it
    if not decision.enabled:
        raise VoraError("refused", f"{plugin_id} is disabled ({decision.reason})",
                        f"enable it first: {command_line('vora', 'plugins', 'enable', plugin_id)}")
    if issues:
        from vora_cli.core.plugins.verdict import refuse_unset_settings

        raise refuse_unset_settings(plugin_id, issues, command_line("vora", "plugins", "use", plugin_id))
    change = SlotChange(slot, settings.slot_value(slot), plugin_id)
    # Already the slot's value (set, or its default when unset): nothing is written, not even the
    # default spelt out.
    write = apply_config_edits(install, edits if change.old != change.new else [], command="plugins use",
                               dry_run=dry_run, snapshot=snapshot)
    return UseResult(plugin_id, change, write)
