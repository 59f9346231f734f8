"""An `Install` for a core test, built directly (as httpie's tests build a `MockEnvironment`):
no patched environment, no settings file read, a pinned clock.

`make_install(state_dir)` is the install at `state_dir` with the home beside it; `env` adds
environment variables, `settings` stands in for the settings file (values by key), `now_ms`
pins the clock. `paths` takes already-resolved paths instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from vora_cli.core.config import loading
from vora_cli.core.install import Install
from vora_cli.core.paths import VoraPaths
from vora_cli.core.settings.resolve import Settings

NOW_MS = 1_764_460_800_000


def make_install(state_dir: Path | None = None, *, home: Path | None = None, env: Mapping[str, str] | None = None,
                 settings: Mapping[str, Any] | None = None, now_ms: int | None = NOW_MS,
                 paths: VoraPaths | None = None, config: Path | None = None, profile: str | None = None) -> Install:
    if home is None:
        anchor = paths.state_dir if paths is not None else state_dir
        home = (anchor.parent / "home") if anchor is not None else Path("/nonexistent/home")
    environ = {"HOME": str(home), "VORA_HOME": str(home), **(env or {})}
    return Install(state_dir=str(state_dir) if state_dir is not None else None,
                   config=str(config) if config is not None else None, profile=profile, env=environ,
                   settings=Settings(environ, values=settings or {}), paths=paths, now_ms=now_ms)


def install_at(paths: VoraPaths, now_ms: int = NOW_MS, **kwargs: Any) -> Install:
    """The install at `paths` with the clock at `now_ms` (devices tests step the clock)."""
    return make_install(paths=paths, now_ms=now_ms, **kwargs)


def count_config_parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every config file parsed from now on, in order (the list fills as files are parsed)."""
    seen: list[Path] = []
    real = loading.parse_config_bytes

    def counting(raw: bytes, path: Path, *, included: bool = False) -> Any:
        seen.append(path)
        return real(raw, path, included=included)

    monkeypatch.setattr(loading, "parse_config_bytes", counting)
    return seen
