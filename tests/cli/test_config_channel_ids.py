"""A channel is known when a plugin provides it: the shipped config schema also describes `qa-channel`,
which no plugin of openclaw 2026.4.12 provides, and the gateway's `config validate --json` calls it unknown.
The verdicts below are the gateway's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run
from vora_cli.core.config.gateway import bundled_channel_schemas
from vora_cli.core.plugins.bundled import bundled_ids, bundled_plugin

CASES = {
    '{channels:{"qa-channel":{enabled:true}}}': [("error", "channels.qa-channel", "unknown channel id: qa-channel")],
    '{channels:{"qa-channel":{}},plugins:{}}': [("error", "channels.qa-channel", "unknown channel id: qa-channel")],
    '{channels:{telegram:{botToken:"x"}}}': [],
}


@pytest.mark.parametrize("config", sorted(CASES))
def test_known_channels_are_the_plugins(config: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text(config + "\n")
    report = vora("config", "validate", "--json").json()
    assert [(p["severity"], p["key"], p["message"]) for p in report["problems"]] == CASES[config]
    assert report["valid"] is not CASES[config]


def test_every_schema_channel_but_qa_channel_has_a_bundled_plugin() -> None:
    provided = {c for pid in bundled_ids() for c in bundled_plugin(pid).channels}  # type: ignore[union-attr]
    assert set(bundled_channel_schemas()) - provided == {"qa-channel"} and provided <= set(bundled_channel_schemas())
