"""Config edits for plugin records: entries, allow/deny, load paths, installs and slots.

Builds `ConfigEdit`s from the current config; the write itself is `config.writing.apply_config_edits`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from vora_cli.core.config.loading import MISSING
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.planning import ConfigEdit
    from vora_cli.core.paths import VoraPaths
    from vora_cli.core.plugins.settings import PluginsSettings

P = "plugins"


@dataclass(frozen=True)
class SlotChange:
    """A slot that moves from one plugin to another."""
    slot: str
    old: str
    new: str

    def to_dict(self) -> dict[str, str]:
        return {"slot": self.slot, "old": self.old, "new": self.new}

    def __str__(self) -> str:
        return f"{self.slot}: {self.old} -> {self.new}"


def plugins_section(config: Mapping[str, Any]) -> dict[str, Any]:
    section = config.get(P)
    return section if isinstance(section, dict) else {}


def list_at(config: Mapping[str, Any], *keys: str) -> list[Any] | None:
    node: Any = plugins_section(config)
    for key in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node if isinstance(node, list) else None


def _edit_type() -> type[ConfigEdit]:
    """`ConfigEdit`, imported when an edit is built: reading commands (`plugins list`, `doctor`)
    import this module and build none."""
    from vora_cli.core.config.planning import ConfigEdit

    return ConfigEdit


def append_edit(keys: tuple[str, ...], value: Any) -> ConfigEdit:
    """Append `value` to the array at plugins.<keys> (created when missing) unless it is there;
    as an intent, so a re-plan on a changed file still appends after what is there."""
    return _edit_type().append((P, *keys), value)


def remove_edits(config: Mapping[str, Any], keys: tuple[str, ...], matches: Any) -> list[ConfigEdit]:
    """Remove every element of plugins.<keys> for which `matches(element)` holds, by value."""
    current = list_at(config, *keys) or []
    values = [value for value in current if matches(value)]
    return [_edit_type().remove((P, *keys), values)] if values else []


def set_enabled_edit(plugin_id: str, enabled: bool) -> ConfigEdit:
    return _edit_type()((P, "entries", plugin_id, "enabled"), enabled)


def enabled_edits(settings: PluginsSettings, plugin_id: str, enabled: bool) -> list[ConfigEdit]:
    """Turn `plugin_id` on or off in every `plugins.entries` key the gateway reads as it (`Lobster`
    for `lobster`: the gateway merges them, so one left behind could undo the other), else in its own."""
    return [set_enabled_edit(key, enabled) for key in settings.entry_keys(plugin_id) or (plugin_id,)]


def slot_edit(config: Mapping[str, Any], slot: str, value: str) -> ConfigEdit:
    """Select `value` for `slot` if the slot still holds what `config` says (else `conflict`)."""
    slots = plugins_section(config).get("slots")
    current = slots[slot] if isinstance(slots, dict) and slot in slots else MISSING
    return _edit_type().set_if((P, "slots", slot), value, current)


def applied(config: Mapping[str, Any], edits: Iterable[ConfigEdit]) -> dict[str, Any]:
    """`config` as `edits` would leave it (copies along their paths; the rest shared): a plan judges
    the tree it is about to write, with the gateway's rules, before anything is written."""
    root: dict[Any, Any] = dict(config)
    for edit in edits:
        *parents, last = edit.path
        node = root
        for key in parents:
            child = node.get(key)
            child = dict(child) if isinstance(child, dict) else {}
            node[key] = child
            node = child
        current = node.get(last)
        if edit.op == "set":
            node[last] = edit.value
        elif edit.op == "unset":
            node.pop(last, None)
        elif edit.op == "append":
            items = list(current) if isinstance(current, list) else []
            node[last] = items if edit.value in items else [*items, edit.value]
        elif edit.op == "remove" and isinstance(current, list):
            node[last] = [item for item in current if item not in edit.value]
    return root


def vora_installed_path(paths: VoraPaths, plugin_id: str, settings: PluginsSettings) -> Path | None:
    """The folder (or single file) vora itself installed for `plugin_id`, as its install record says; else None.

    The only thing vora ever deletes or replaces. The record must be a copy install (not a link:
    `sourcePath == installPath`), its `installPath` the id's own name directly inside the
    extensions dir, and no `plugins.load.paths` entry may point at it; a folder made or linked
    by hand fails one of these and is never deleted.
    """
    from vora_cli.core.plugins.discovery import load_path
    from vora_cli.core.plugins.ids import folder_name_for_id
    from vora_cli.core.plugins.manifest import SCRIPT_SUFFIXES

    record = settings.installs.get(plugin_id)
    if record is None or record.get("source") not in ("path", "archive", "npm"):
        return None
    install_path, source_path = record.get("installPath"), record.get("sourcePath")
    if not isinstance(install_path, str) or not os.path.isabs(install_path) or source_path == install_path:
        return None
    path = Path(install_path)
    folder = folder_name_for_id(plugin_id)
    if path.name != folder and path.name not in {folder + suffix for suffix in SCRIPT_SUFFIXES}:
        return None
    if os.path.realpath(path.parent) != os.path.realpath(paths.extensions_dir):
        return None
    real = os.path.realpath(path)
    for spec in settings.load_paths:
        if spec.strip() and os.path.realpath(load_path(paths, spec)) == real:
            return None
    return path
