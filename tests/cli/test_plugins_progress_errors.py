"""A command that fails while its progress line is live ends that line first: the error starts on
a fresh line of the terminal (docs/terminal.md, progress), for install and for update alike."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from plugins_support import make_plugin
from test_plugins_progress import _install


def _failing_slow_npm(bin_dir: Path) -> dict[str, str]:
    """A stand-in `npm` whose `npm install` takes 1.3 s (one tick) and then fails."""
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text("#!/bin/sh\nsleep 1.3\necho 'npm ERR! network down' >&2\nexit 1\n")
    npm.chmod(0o755)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


@pytest.mark.slow
def test_install_failing_during_a_ticking_step_ends_the_line_first(state_dir: Path, tmp_path: Path) -> None:
    folder = make_plugin(tmp_path / "src", dependencies={"left-pad": "1.3.0"})
    code, stdout, stderr = _install(state_dir, folder, terminal=True, env_extra=_failing_slow_npm(tmp_path / "bin"))
    text = stderr.replace("\r\n", "\n")
    assert code == 1, text
    assert stdout == ""
    assert re.search(r"with npm \.\.\. \ds\nerror: ", text), text
    assert not (state_dir / "extensions" / "my-engine").exists()
