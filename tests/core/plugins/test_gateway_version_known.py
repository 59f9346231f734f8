"""The gateway version `compat` is checked against: the setting, else what `doctor --live` saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from vora_cli.core.plugins.compat import known_gateway_version, remember_live_gateway_version


def test_the_setting_wins_then_the_live_gateway_then_unknown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    state, other = tmp_path / "state", tmp_path / "other"
    assert known_gateway_version(state, None).source == "unknown"
    remember_live_gateway_version(state, "2026.4.12", 1_700_000_000_000, lock_timeout=10)
    assert known_gateway_version(state, None) == known_gateway_version(state, "")
    assert (known_gateway_version(state, None).version, known_gateway_version(state, None).source) == ("2026.4.12", "live")
    assert known_gateway_version(other, None).source == "unknown"  # one record per state dir
    assert known_gateway_version(state, "2026.5.1").version == "2026.5.1"
