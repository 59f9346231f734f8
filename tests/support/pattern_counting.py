"""Stand in for the patterns a module compiles where it uses them (`re.compile(SOURCE)`), to
count what it hands the regex engine."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest


def wrap_patterns(monkeypatch: pytest.MonkeyPatch, wrap: Callable[[re.Pattern[str]], Any], *sources: str) -> list[Any]:
    """`wrap(pattern)` for each of `sources`, returned in order and handed to every
    `re.compile(source)` until the test ends; any other pattern compiles as usual."""
    compile_for_real = re.compile
    made = {source: wrap(compile_for_real(source)) for source in sources}

    def compile(pattern: Any, flags: int = 0) -> Any:
        found = made.get(pattern) if flags == 0 and isinstance(pattern, str) else None
        return compile_for_real(pattern, flags) if found is None else found

    monkeypatch.setattr(re, "compile", compile)
    return [made[source] for source in sources]
