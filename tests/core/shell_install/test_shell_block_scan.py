"""The completion block in a shell rc file is found by a linear scan (issue 12, point 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vora_cli.core.errors import VoraError
from vora_cli.core.shell_install import BEGIN, END, with_block

RC = Path("/home/u/.bashrc")
BLOCK = f"{BEGIN}\nnew\n{END}\n"


def test_many_unclosed_blocks_are_refused_without_rescanning() -> None:
    text = (BEGIN + "\n") * 100_000 + "x" * 1_000_000
    with pytest.raises(VoraError, match="without its"):
        with_block(text, BLOCK, RC)


@pytest.mark.parametrize("text, expected", [
    (f"a\n{BEGIN}\nold\n{END}\nb\n", f"a\n{BLOCK}b\n"),
    (f"{BEGIN}\n{END}", BLOCK),
    (f"{BEGIN} v1\nold\n{END} v1\n{BEGIN}\ncopy\n{END}\nz\n", f"{BLOCK}z\n"),
    (f"x{BEGIN}\n", f"x{BEGIN}\n\n{BLOCK}"),  # not at a line start: not a marker
])
def test_blocks_are_replaced(text: str, expected: str) -> None:
    assert with_block(text, BLOCK, RC)[0] == expected
