"""A styled line (doctor's check lines, security findings) shows names as they are on disk.

With colour on, rich's console turned `:white_check_mark:` or `:warning:` in a folder's name into
the emoji even with markup off: a plugin folder could show a pass mark of its own on the
operator's terminal, and the same line piped read differently (review of issues 22 and 23).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run

NAMES = ["x :white_check_mark: all good", "y :warning:", "z :cross_mark::thumbs_up:"]


@pytest.mark.parametrize("name", NAMES)
def test_a_name_with_emoji_codes_is_shown_as_written_in_colour(vora: Callable[..., Run], state_dir: Path,
                                                               monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.delenv("NO_COLOR")
    (state_dir / "vora.json").write_text("{}\n")
    (state_dir / "extensions" / name).mkdir(parents=True)  # no manifest: doctor names the folder
    for env in ({"FORCE_COLOR": "1"}, {}):
        out = vora("doctor", env=env).stdout
        assert name in out
        assert not any(ord(c) > 0x2600 for c in out.replace("\u2713", "").replace("\u2717", "")), out
    assert "\x1b[" in vora("doctor", env={"FORCE_COLOR": "1"}).stdout  # the colour path was the one taken
