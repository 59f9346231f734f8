"""When npm fails, vora says npm's reason in one line and where npm's log is; it never names the
staging dir (deleted by then) and never prints npm's whole output as the message."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from plugins_support import write_config

from vora_cli.core.plugins.npm import npm_failure

NPM_10_E404 = """npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fthing - Not found
npm error 404
npm error 404  The requested resource '@acme/thing@*' could not be found or you do not have permission to access it.
npm error A complete log of this run can be found in: /home/ada/.npm/_logs/2026-11-30T15_50_52_790Z-debug-0.log
"""
NPM_6_OFFLINE = """npm ERR! code ENOTFOUND
npm ERR! errno ENOTFOUND
npm ERR! network request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org

npm ERR! A complete log of this run can be found in:
npm ERR!     /root/.npm/_logs/2026-11-30T10_00_00_000Z-debug.log
"""


@pytest.mark.parametrize(("output", "reason", "log"), [
    (NPM_10_E404, "404 Not Found - GET https://registry.npmjs.org/@acme%2fthing - Not found",
     "/home/ada/.npm/_logs/2026-11-30T15_50_52_790Z-debug-0.log"),
    (NPM_6_OFFLINE, "network request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo "
                    "ENOTFOUND registry.npmjs.org", "/root/.npm/_logs/2026-11-30T10_00_00_000Z-debug.log"),
    ("", "exit code 7", None),
    ("npm error code E401\nnpm error 401 Unauthorized\n", "401 Unauthorized", None),
])
def test_npm_failure_is_one_line(output: str, reason: str, log: str | None) -> None:
    assert npm_failure(output, 7) == (reason, log)


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
