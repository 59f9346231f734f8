"""Regular expressions compiled on their first use, not when their module is imported.

Compiling is most of what importing vora's text-handling modules costs: `vora doctor` compiled
43 of vora's patterns at import and used 12 (issue 24, docs/architecture.md). A
`lazy(...)` pattern is compiled the first time one of its methods is asked for; from then on each
method used is an attribute of its own, so a call in a loop costs what it costs on the compiled
pattern.

    _WORD = lazy(r"[A-Za-z]++")      # module level: nothing compiled yet
    _WORD.match(text, pos)            # compiled here, once

For type checkers it is the `re.Pattern` it stands for. It is not one at run time: `re.sub` and
`re.compile` refuse it and `isinstance(..., re.Pattern)` is False, so call its methods (reading
`.pattern` or `.flags` compiles it too).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, AnyStr


class _Lazy:
    """The stand-in `lazy` returns. `__getattr__` runs only for a name the instance does not hold
    yet: the first `match` compiles, keeps the bound method and answers; later ones find it."""

    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self._source: tuple[Any, int] = (pattern, flags)  # str or bytes, as re.compile takes

    def __getattr__(self, name: str) -> object:
        if name.startswith("_"):  # no method of a pattern starts with one; copy and pickle probe for dunders
            raise AttributeError(name)
        value = getattr(re.compile(*self._source), name)  # re keeps its own cache of compiled patterns
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r})"


def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """`re.compile(pattern, flags)`, done when the pattern is first used."""
    return _Lazy(pattern, flags)  # type: ignore[return-value]
