"""The `plugins` section of the config as the gateway reads it (spec plugins.md): its switches, its
allow and deny lists and entries keyed by the ids the gateway reads them as, the slots and their
defaults. What `discovery.py` and every plugin command read before they look at the disk."""

from __future__ import annotations

from collections.abc import Mapping

from vora_cli.core.records import dataclass, field
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


SLOT_KEYS = {"contextEngine": "context-engine", "memory": "memory"}
SLOT_DEFAULTS = {"contextEngine": "legacy", "memory": "memory-core"}
# Every way an operator may name a slot: its config key (`plugins.slots.contextEngine`) and the
# kind that fills it (`context-engine`, as `plugins init --kind` spells it).
SLOT_NAMES = tuple(dict.fromkeys((*SLOT_KEYS, *SLOT_KEYS.values())))


def slot_key(name: str) -> str | None:
    """The config key of the slot `name` names (`contextEngine` for `context-engine` too, in any
    case), or None when it names no slot."""
    wanted = name.strip().lower().replace("-", "").replace("_", "")
    return next((key for key in SLOT_KEYS if key.lower() == wanted), None)


@dataclass(frozen=True)
class PluginsSettings:
    """The `plugins` section of the config, typed, as the gateway reads it; wrong types count as
    unset. `allow`, `deny` and `entries` are keyed by `bundled.canonical_id` (entries naming one
    plugin merged in file order, as `normalizePluginEntries`); `raw_entries` keeps the keys as
    written (what auto-enable reads and an edit must name)."""

    enabled: bool
    allow: tuple[str, ...] | None
    deny: tuple[str, ...]
    load_paths: tuple[str, ...]
    slots: dict[str, str]
    entries: dict[str, dict[str, Any]]
    installs: dict[str, dict[str, Any]]
    raw: dict[str, Any]
    channels: dict[str, Any] = field(default_factory=dict)  # the config's `channels`: a bundled channel's switch
    raw_entries: dict[str, dict[str, Any]] = field(default_factory=dict)

    def explicit_enabled(self, plugin_id: str) -> bool | None:
        value = self.entries.get(plugin_id, {}).get("enabled")
        return value if isinstance(value, bool) else None

    def entry_has_settings(self, plugin_id: str) -> bool:
        """Whether `plugins.entries.<id>` (the key as written) says more than "off" (the gateway's
        `hasMaterialPluginEntryConfig`, which its auto-enable asks of the raw keys)."""
        entry = self.raw_entries.get(plugin_id)
        return entry is not None and (entry.get("enabled") is True or "apiKey" in entry or "env" in entry or any(
            isinstance(entry.get(key), dict) for key in ("config", "hooks", "subagent")))

    def entry_keys(self, plugin_id: str) -> tuple[str, ...]:
        """The keys of `plugins.entries` as written that the gateway reads as `plugin_id`."""
        from vora_cli.core.plugins.bundled import canonical_id

        return tuple(key for key in self.raw.get("entries") or {} if canonical_id(key) == plugin_id) \
            if isinstance(self.raw.get("entries"), dict) else ()

    def slot_value(self, slot: str) -> str:
        value = self.slots.get(slot)
        return value if isinstance(value, str) and value else SLOT_DEFAULTS[slot]

    @property
    def memory_slot(self) -> str | None:
        """The memory slot as the gateway reads it: trimmed, `memory-core` when unset, None for `none`."""
        value = js_trim(self.slots.get("memory", ""))
        return SLOT_DEFAULTS["memory"] if not value else None if value.lower() == "none" else value

    @property
    def engine_slot(self) -> str | None:
        value = js_trim(self.slots.get("contextEngine", ""))
        return value if value and value.lower() != "none" else None

    def slots_of(self, plugin_id: str) -> tuple[str, ...]:
        return tuple(slot for slot in SLOT_KEYS if self.slot_value(slot) == plugin_id)

    def named_ids(self) -> set[str]:
        """The plugin ids the `plugins` section names, as the gateway reads them: entries, installs,
        allow, deny, the slots (a bundled channel plugin is named by its channel's key too)."""
        return {*self.entries, *self.installs, *(self.allow or ()), *self.deny,
                *(js_trim(v) for v in self.slots.values() if js_trim(v))}


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def listed_ids(value: Any) -> tuple[str, ...]:
    """A list of plugin ids as the gateway reads it (its `normalizeList`): each string's canonical
    id, blanks and other types dropped."""
    from vora_cli.core.plugins.bundled import canonical_id

    return tuple(found for found in map(canonical_id, _strings(value)) if found)


def _merged_entries(entries: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """`plugins.entries` by the ids the gateway reads its keys as (its `normalizePluginEntries`): two keys
    naming one plugin merge in file order, a later `enabled` (a boolean) or `config` winning; an
    entry that is not an object counts as empty."""
    from vora_cli.core.plugins.bundled import canonical_id

    merged: dict[str, dict[str, Any]] = {}
    for key, value in entries.items():
        plugin_id = canonical_id(key)
        if not plugin_id:
            continue
        if not isinstance(value, dict):
            merged[plugin_id] = {}
            continue
        before = merged.get(plugin_id)
        if before is None:
            merged[plugin_id] = value  # the common case: one key per plugin, kept as it is
            continue
        entry = {**before, **value}
        if not isinstance(value.get("enabled"), bool):
            entry.pop("enabled", None)
            if "enabled" in before:
                entry["enabled"] = before["enabled"]
        merged[plugin_id] = entry
    return merged


def plugins_settings(config: Mapping[str, Any]) -> PluginsSettings:
    plugins = config.get("plugins")
    plugins = plugins if isinstance(plugins, dict) else {}
    load = plugins.get("load")
    slots = plugins.get("slots")
    entries = plugins.get("entries")
    installs = plugins.get("installs")
    allow = plugins.get("allow")
    channels = config.get("channels")
    entries = entries if isinstance(entries, dict) else {}
    return PluginsSettings(
        enabled=plugins.get("enabled") is not False,
        allow=listed_ids(allow) if isinstance(allow, list) else None,
        deny=listed_ids(plugins.get("deny")),
        load_paths=_strings(load.get("paths")) if isinstance(load, dict) else (),
        slots={k: v for k, v in slots.items() if isinstance(v, str)} if isinstance(slots, dict) else {},
        entries=_merged_entries(entries),
        installs={k: v for k, v in installs.items() if isinstance(v, dict)} if isinstance(installs, dict) else {},
        raw=plugins,
        channels=channels if isinstance(channels, dict) else {},
        raw_entries={k: v for k, v in entries.items() if isinstance(v, dict)},
    )
