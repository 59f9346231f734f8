"""What the gateway's migrations know of its own bundled plugins, recorded from the release
(`facts.json`, written by scripts/gen_legacy_migrations.py): which web-search providers moved to
which plugin, and which single-account keys each bundled channel moves into `accounts.default`."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from vora_cli.core import nesting

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FACTS = Path(__file__).resolve().parent / "facts.json"


@cache
def facts() -> dict[str, Any]:
    data: dict[str, Any] = nesting.loads(FACTS.read_text(encoding="utf-8"))
    return data


def version() -> str:
    return str(facts()["version"])


def web_search() -> dict[str, Any]:
    """`legacyProviders`: the `tools.web.search.<provider>` keys that move; `owners`: each one's plugin."""
    found: dict[str, Any] = facts()["webSearch"]
    return found


def channel_setup(channel: str) -> dict[str, Any]:
    """A bundled channel's `singleAccountKeysToMove` and `namedAccountPromotionKeys` ({} for others)."""
    found: dict[str, Any] = facts()["channelSetup"].get(channel, {})
    return found
