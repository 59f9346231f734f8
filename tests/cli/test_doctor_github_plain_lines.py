"""`doctor --format github`: the plain log lines (a skipped check, the summary) are one line too.

Annotations escape newlines (`%0A`) and controls, but the line saying why a check was skipped
printed the reason raw, and the reason names the settings file: a home folder holding
`\\n::error title=…::` started a workflow command of its own in the CI log, and an ESC in it
rewrote the log's rendering (review of issues 22 and 23).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run

HOSTILE = ["h\n::error title=forged::all good", "h\r\n::add-mask::x", "h\x1b]0;pwned\x07", "h\x1b[2K\x1b[1A",
           "h\u2028::error::x"]
RAW = ("\x1b", "\x07", "\r", "\u2028")


@pytest.mark.parametrize("name", HOSTILE)
def test_a_skipped_check_from_a_settings_file_under_a_hostile_home_is_one_plain_line(
        vora: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    home = tmp_path / name
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("VORA_HOME", str(home))
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text("{}\n")
    assert vora("settings", "set", "doctor.skip", "skills").exit_code == 0
    for command in (("doctor",), ("security", "audit")):
        out = vora("--state-dir", str(state), *command, "--format", "github").stdout
        lines = out.split("\n")
        assert not [c for c in RAW if c in out]
        assert all(line.startswith(("::error ", "::warning ", "::notice ", "vora ")) for line in lines if line), lines
        if command == ("doctor",):
            skipped = [line for line in lines if line.startswith("vora doctor: skills: skipped by")]
            assert len(skipped) == 1 and "settings.toml" in skipped[0]
