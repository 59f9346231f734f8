"""When npm fails, vora says npm's reason in one line and where npm's log is; it never names the
staging dir (deleted by then) and never prints npm's whole output as the message."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from plugins_support import NPM_6_OFFLINE, NPM_10_E404, write_config

FAILING_NPM = """#!{python}
import sys
sys.stderr.write({output!r})
sys.exit(1)
"""


@pytest.mark.parametrize("output", [NPM_10_E404, NPM_6_OFFLINE])
def test_install_reports_npms_reason_in_one_line(output: str, tmp_path: Path, state_dir: Path, vora,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    config = write_config(state_dir)
    before = config.read_bytes()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "npm"
    script.write_text(FAILING_NPM.format(python=sys.executable, output=output))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    result = vora("plugins", "install", "@acme/thing")
    assert result.exit_code == 1
    error, hint = result.stderr.splitlines()
    assert error.startswith("error: npm pack @acme/thing failed: ") and "npm error" not in error
    assert hint.startswith("hint: ") and ".staging" not in hint
    assert config.read_bytes() == before
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())
