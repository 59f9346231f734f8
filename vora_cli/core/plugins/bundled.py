"""The plugins the gateway ships inside its own package, and `canonical_id`, its `normalizePluginId`.

Recorded from the release in `bundled.json`; docs/plugins.md, "Bundled plugins".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.records import dataclass
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TABLE = Path(__file__).resolve().parent / "bundled.json"
ORIGIN_BUNDLED = "bundled"


@dataclass(frozen=True)
class BundledPlugin:
    """One plugin of the gateway's package: what vora's checks ask of it."""

    id: str
    name: str | None
    kind: tuple[str, ...]  # the manifest's kind: memory (the slots)
    provides: tuple[str, ...]  # channel, provider, memory, tool, media
    channels: tuple[str, ...]
    enabled_by_default: bool
    requires: tuple[str, ...] = ()  # its configSchema's required keys: with none, unset settings are valid
    aliases: tuple[str, ...] = ()  # other ids the gateway reads as this one (provider and legacy ids)
    command_aliases: tuple[str, ...] = ()  # the commands it provides (`pair`), lower-cased: not plugin ids
    web_search_provider: bool = False  # an allow list lets it through (`withBundledPluginAllowlistCompat`)

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "kind": list(self.kind), "provides": list(self.provides),
                "channels": list(self.channels), "enabledByDefault": self.enabled_by_default,
                "aliases": list(self.aliases)}


@cache
def _table() -> tuple[str, dict[str, dict[str, Any]]]:
    data = nesting.loads(TABLE.read_text(encoding="utf-8"))
    return str(data["version"]), data["plugins"]


def bundled_version() -> str:
    """The release the table was recorded from: `openclaw 2026.4.12`."""
    return _table()[0]


def bundled_ids() -> frozenset[str]:
    """The ids of every plugin bundled with the gateway (the record of each is made on demand)."""
    return frozenset(_table()[1])


@cache
def bundled_plugin(plugin_id: str) -> BundledPlugin | None:
    entry = _table()[1].get(plugin_id)
    if entry is None:
        return None
    return BundledPlugin(plugin_id, entry.get("name"), tuple(entry.get("kind", ())), tuple(entry["provides"]),
                         tuple(entry.get("channels", ())), entry.get("enabledByDefault") is True,
                         tuple(entry.get("requires", ())), tuple(entry.get("aliases", ())),
                         tuple(entry.get("commandAliases", ())), entry.get("webSearchProvider") is True)


@cache
def _by_lowered() -> dict[str, str]:
    """Every name the gateway reads as a bundled plugin's id, lower-cased, to that id."""
    found = {plugin_id.lower(): plugin_id for plugin_id in _table()[1]}
    for plugin_id, entry in _table()[1].items():
        found.update((alias, plugin_id) for alias in entry.get("aliases", ()))
    return found


def canonical_id(name: str) -> str:
    """The plugin id the gateway reads `name` as in `plugins.entries`, `allow` and `deny` (its
    `normalizePluginId`): a bundled plugin's id or alias in any case, trimmed, is that plugin's id;
    any other name is itself, trimmed ("" for a blank one, which the gateway drops)."""
    trimmed = js_trim(name)
    return _by_lowered().get(trimmed.lower(), trimmed)
