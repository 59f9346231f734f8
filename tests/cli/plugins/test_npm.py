"""Issue 12 point 12: scoped npm specs reach npm; a path wins only when it exists.

`npm` here is a stand-in script on PATH that records its argv and answers `npm pack --json`
with a real tarball, so the test sees exactly what vora hands to npm.

When npm fails, vora says npm's reason in one line and where npm's log is; it never names the
staging dir (deleted by then) and never prints npm's whole output as the message.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import NPM_6_OFFLINE, NPM_10_E404, make_plugin, tar_of, write_config

from tests.conftest import Run
from vora_cli.core.plugins.sources import SOURCE_NPM, resolve_source

FAKE_NPM = """#!{python}
import json, shutil, sys
args = sys.argv[1:]
with open({log!r}, "a") as log:
    log.write(json.dumps(args) + "\\n")
if args[0] == "pack":
    dest = args[args.index("--pack-destination") + 1]
    shutil.copy({tarball!r}, dest + "/" + {filename!r})
    print(json.dumps([{{"filename": {filename!r}, "name": {name!r}, "version": {version!r},
                       "integrity": "sha512-x", "shasum": "abc"}}]))
"""


def _fake_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plugin_id: str, version: str) -> Path:
    plugin = make_plugin(tmp_path / "src" / "pkg", plugin_id, version=version)
    tarball = tar_of(plugin, tmp_path / "pkg.tgz")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "npm-args.log"
    filename = plugin_id.lstrip("@").replace("/", "-") + f"-{version}.tgz"
    script = bin_dir / "npm"
    script.write_text(FAKE_NPM.format(python=sys.executable, log=str(log), tarball=str(tarball),
                                      filename=filename, name=plugin_id, version=version))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return log


@pytest.mark.parametrize("spec", ["@acme/engine", "@acme/engine@1.2.3", "@acme/engine@next"])
def test_scoped_specs_reach_npm(spec: str, tmp_path: Path, state_dir: Path, vora: Callable[..., Run],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(state_dir)
    monkeypatch.chdir(tmp_path)
    log = _fake_npm(tmp_path, monkeypatch, "@acme/engine", "1.2.3")
    result = vora("plugins", "install", spec, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert calls[0][:2] == ["pack", spec]
    assert "--ignore-scripts" in calls[0]
    record = json.loads(result.stdout)["record"]
    assert record["source"] == "npm" and record["spec"] == spec


def test_help_example_is_an_npm_spec(vora: Callable[..., Run]) -> None:
    result = vora("plugins", "install", "--help")
    assert "@acme/lossless-claw@1.2.0" in result.stdout
    assert resolve_source("@acme/lossless-claw@1.2.0", cwd=Path("/nonexistent")).type == SOURCE_NPM


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
