"""The channel config schemas plugins declare in their manifests (`channelConfigs`), and which one
the gateway validates each channel with: a plugin that is not bundled brings its channel's schema,
its defaults included."""

from __future__ import annotations

from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any


# The gateway's `PLUGIN_ORIGIN_RANK` (its origin names): where two plugins declare a channel's
# schema, the lower rank wins, and the later of two alike. Bundled plugins declare none in this
# release: a channel schema declared on disk replaces the shipped one.
CHANNEL_SCHEMA_RANK = {"config": 0, "workspace": 1, "global": 2}


def channel_configs(raw: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The channel config schemas a manifest declares, by channel id, as the gateway's manifest
    reader keeps them (`normalizeChannelConfigs`): `channelConfigs.<id>.schema`, the id trimmed,
    an entry without an object `schema` left out. A channel the manifest's `channels` does not
    list stays unknown to the validator whatever its schema."""
    declared = raw.get("channelConfigs")
    if not isinstance(declared, dict):
        return {}
    found: dict[str, Mapping[str, Any]] = {}
    for key, entry in declared.items():
        channel = js_trim(key)
        if channel and isinstance(entry, dict) and isinstance(entry.get("schema"), dict):
            found[channel] = entry["schema"]
    return found


def channel_schemas(plugins: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, Mapping[str, Any]]:
    """Which declared schema the gateway validates each channel with (`collectChannelSchemaMetadata`):
    `plugins` are (gateway origin, raw manifest) in its registry's order."""
    chosen: dict[str, tuple[int, Mapping[str, Any]]] = {}
    for origin, raw in plugins:
        if "channelConfigs" not in raw:
            continue
        rank = CHANNEL_SCHEMA_RANK.get(origin, 3)
        for channel, schema in channel_configs(raw).items():
            current = chosen.get(channel)
            if current is None or current[0] >= rank:
                chosen[channel] = (rank, schema)
    return {channel: schema for channel, (_rank, schema) in chosen.items()}
