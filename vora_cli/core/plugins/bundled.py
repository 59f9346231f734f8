"""The plugins the gateway ships inside its own package (spec upstream.md, "Bundled plugins").

openclaw 2026.4.12 carries 98 of them in `dist/extensions/`: channels (telegram, discord, feishu, …),
tools (brave, exa, firecrawl, tavily, duckduckgo, …), model providers (anthropic, openai, …) and memory
backends (memory-core, memory-lancedb). A config that names one names a plugin the gateway has, though
no folder of it is on vora's side: every check, list and fix that asks whether a plugin is there asks
here too. `bundled.json` beside this module is recorded from the release by
`scripts/gen_bundled_plugins.py` (with the version it came from); their config schemas ship with the
gateway's config schema (`core/config/gateway_schema/plugins.json`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.records import dataclass

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

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "kind": list(self.kind), "provides": list(self.provides),
                "channels": list(self.channels), "enabledByDefault": self.enabled_by_default}


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
                         tuple(entry.get("requires", ())))
