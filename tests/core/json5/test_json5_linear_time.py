"""The JSON5 scanner on a 2 MiB single line: every failing shape completes (issue 12, point 8).

No timing assertion: with backtracking string and identifier patterns these took seconds to
minutes; the test simply has to finish."""

from __future__ import annotations

import pytest

from vora_cli.core.errors import ParseError
from vora_cli.core.json5.parser import loads

RUN = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0" * 58_000


@pytest.mark.parametrize("text", [
    '{ a: "' + RUN + "\n}",
    "{ a: '" + RUN + "\n}",
    '{ a: "' + "\\\\" * 500_000 + RUN,
    "{ a: " + RUN + "$% }",
    "{ " + RUN + " 1 }",
    "{ a: 1, /* " + RUN,
    "{ a: 1, /* " + "*" * 1_000_000 + RUN,
    pytest.param("[" + "1, " * 500_000, marks=pytest.mark.slow),  # 500,000 numbers: over 2 s
    '{ "' + RUN + '" 1 }',
])
def test_failing_shapes_finish(text: str) -> None:
    with pytest.raises(ParseError) as caught:
        loads(text)
    assert len(caught.value.message) < 300


def test_long_tokens_still_parse() -> None:
    assert loads('{ a: "' + RUN + '" }') == {"a": RUN}
    assert loads("{ " + RUN + ": 1 }") == {RUN: 1}
    assert loads("{ a: 1 /* " + RUN + " */ }") == {"a": 1}
