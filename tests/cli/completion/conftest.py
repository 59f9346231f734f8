"""What the completion tests in real shells share: the three generated scripts, written to tmp."""

from __future__ import annotations

from pathlib import Path

import pytest
from completion_support import script


@pytest.fixture
def scripts(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for shell, name in (("bash", "vora.bash"), ("zsh", "_vora"), ("fish", "vora.fish")):
        out[shell] = tmp_path / name
        out[shell].write_text(script(shell))
    return out
