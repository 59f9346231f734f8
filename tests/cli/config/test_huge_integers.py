"""An integer past the largest double, in a config or a session store, is what JavaScript's
`JSON.parse` reads as Infinity: vora treats it as not finite, and no command crashes on it (a
`math.isfinite`, `float()` or `/` of it raised OverflowError, reported as a bug in vora)."""

from __future__ import annotations

import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from vora_cli.core.strict_json import MAX_DOUBLE, as_double, is_finite

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "vora"
HUGE = int("9" * 400)


@pytest.mark.parametrize(("value", "finite", "double"), [
    (HUGE, False, math.inf), (-HUGE, False, -math.inf), (int(MAX_DOUBLE), True, MAX_DOUBLE), (2**1024, False, math.inf),
    (10**308, True, 1e308), (7, True, 7.0), (True, True, 1.0), (math.inf, False, math.inf), (1.5, True, 1.5),
])
def test_an_integer_past_the_largest_double_is_not_finite(value: Any, finite: bool, double: float) -> None:
    assert is_finite(value) is finite
    assert as_double(value) == double
    if not isinstance(value, int) or abs(value) <= MAX_DOUBLE:
        assert is_finite(value) == math.isfinite(value)


def _state(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    shutil.copytree(EXAMPLE, state, symlinks=True)
    return state


@pytest.mark.parametrize("key", ["port: 18789", "bootstrapMaxChars: 20000", "bootstrapTotalMaxChars: 150000"])
@pytest.mark.parametrize("sign", ["", "-"])
def test_a_huge_integer_in_the_config_is_reported_not_crashed_on(key: str, sign: str, tmp_path: Path,
                                                                 vora: Callable[..., Any]) -> None:
    state = _state(tmp_path)
    config = state / "vora.json"
    name = key.split(":")[0]
    config.write_text(config.read_text().replace(key, f"{name}: {sign}{HUGE}"))
    for args in (["config", "validate"], ["doctor"], ["context", "list"], ["context", "json"], ["security", "audit"],
                 ["config", "get", "gateway", "--json"]):
        run = vora("--state-dir", str(state), *args)
        assert "bug in vora" not in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)
        assert run.exit_code in (0, 1), (args, run.stderr)
    validated = vora("--state-dir", str(state), "config", "validate")
    assert validated.exit_code == 1 and name in validated.stdout + validated.stderr
    refused = vora("--state-dir", str(state), "config", "set", "agents.defaults.bootstrapTotalMaxChars", f"{sign}{HUGE}")
    assert refused.exit_code != 0 and "bug in vora" not in refused.stderr


@pytest.mark.parametrize("field", ["totalTokens", "contextTokens", "inputTokens", "outputTokens", "updatedAt",
                                   "totalTokensFresh", "compactionCount"])
def test_a_huge_integer_in_a_session_store_is_shown_not_crashed_on(field: str, tmp_path: Path,
                                                                   vora: Callable[..., Any]) -> None:
    state = _state(tmp_path)
    store = state / "agents" / "main" / "sessions" / "sessions.json"
    data = json.loads(store.read_text())
    for entry in data.values():
        entry[field] = HUGE
    store.write_text(json.dumps(data))
    key = next(iter(data))
    for args in (["sessions", "list"], ["sessions", "list", "--json"], ["sessions", "show", key],
                 ["sessions", "show", key, "--json"], ["context", "list", "--session", key], ["doctor"]):
        run = vora("--state-dir", str(state), *args)
        assert "bug in vora" not in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)
        assert run.exit_code in (0, 1), (args, run.stderr)
