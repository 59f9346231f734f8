"""The config write path (spec config.md, "Writing the file: lossless"; issue 11 point 3).

Edits are planned on one read of the file; under the lock, a file that changed meanwhile gets
the same edits planned again by their intent (append, remove a value, set a key), or a
`conflict` (exit 3, nothing written) when an edit addressed an array element by index and that
array changed. Real processes, real files: nothing of the write path is replaced.

The read-back check looks at what the change touched: an old error elsewhere never blocks a
write, a new error in what the change touched always does (issue 12 point 4; issue 11 speed).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from plugins_support import make_plugin

from vora_cli.core.config.loading import load_config
from vora_cli.core.errors import ParseError
from vora_cli.core.json5.parser import loads
from vora_cli.core.paths import resolve_paths

REPO = Path(__file__).resolve().parents[3]

CONFIG = """\
// plugins allow-list, kept by hand
{
  gateway: { port: 18789 }, // keep me
  plugins: {
    allow: [
      "a", // the first one
    ],
  },
}
"""

# A stand-in `npm` on PATH: `plugins install` runs `npm install` for a plugin with dependencies,
# the slow step of a real install. This one says it started, then waits for the test's signal.
SLOW_NPM = """#!/bin/sh
touch "$NPM_HOOK_STARTED"
i=0
while [ ! -e "$NPM_HOOK_GO" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
exit 0
"""


def _env(tmp_path: Path, bin_dir: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "NPM_HOOK_STARTED": str(tmp_path / "npm-started"), "NPM_HOOK_GO": str(tmp_path / "npm-go")}
    return env


def _vora(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vora_cli", *args], env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def _wait_for(path: Path, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():
        if process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(f"install ended before its slow step: {process.returncode}\n{out}\n{err}")
        if time.monotonic() > deadline:
            pytest.fail("the install never reached npm install")
        time.sleep(0.02)


@pytest.mark.slow
def test_concurrent_config_set_during_a_slow_plugins_install_loses_nothing(tmp_path: Path, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(CONFIG)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "npm").write_text(SLOW_NPM)
    (bin_dir / "npm").chmod(0o755)
    plugin = make_plugin(tmp_path / "src" / "my-engine", dependencies={"left-pad": "1.3.0"})
    env = _env(tmp_path, bin_dir)

    install = subprocess.Popen([sys.executable, "-m", "vora_cli", "plugins", "install", str(plugin)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(tmp_path / "npm-started", install)
        # While the install waits in npm: another vora appends to the same array, by index (the
        # index the install would have computed too), and changes an unrelated key.
        appended = _vora(env, "config", "set", "plugins.allow[1]", "b")
        assert appended.returncode == 0, appended.stderr
        port = _vora(env, "config", "set", "gateway.port", "18790")
        assert port.returncode == 0, port.stderr
    finally:
        (tmp_path / "npm-go").touch()
        _out, err = install.communicate(timeout=60)
    assert install.returncode == 0, err

    text = config.read_text()
    tree = loads(text)
    assert tree["plugins"]["allow"] == ["a", "b", "my-engine"]  # nothing overwritten, appended last
    assert tree["gateway"]["port"] == 18790
    assert tree["plugins"]["entries"]["my-engine"] == {"enabled": True}
    assert tree["plugins"]["installs"]["my-engine"]["source"] == "path"
    assert "// the first one" in text and "// keep me" in text


@pytest.mark.parametrize(("text", "line", "col"), [
    ("{\n  a: 1,\n  b: ,\n}\n", 3, 6),
    ('{\n  "a": tru\n}', 2, 8),
    ("{a: 1} x", 1, 8),
])
def test_parse_errors_carry_file_line_and_col_as_fields(state_dir: Path, vora, text: str, line: int,
                                                        col: int) -> None:
    config = state_dir / "vora.json"
    config.write_text(text)
    with pytest.raises(ParseError) as caught:
        load_config(resolve_paths(state_dir=str(state_dir)))
    error = caught.value
    assert (error.file, error.line, error.col) == (str(config), line, col)
    assert error.message == f"{config}:{line}:{col}: {error.what}"
    problem = vora("config", "validate", "--json").json()["problems"][0]
    assert (problem["file"], problem["line"], problem["col"], problem["message"]) == (str(config), line, col,
                                                                                      error.what)


BASE = '// keep me\n{\n  gateway: { port: "eighty" },  // wrong already: the operator fixes it later\n  agents: { defaults: {} },\n}\n'


def test_an_old_error_elsewhere_does_not_block_a_write(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(BASE)
    patch = state_dir / "ok.json5"
    patch.write_text("{ agents: { defaults: { bootstrapMaxChars: 5000 } } }")
    run = vora("config", "patch", str(patch))
    assert run.exit_code == 0, run.stderr
    assert "bootstrapMaxChars: 5000" in config.read_text() and 'port: "eighty"' in config.read_text()


def test_a_new_error_in_the_touched_member_is_refused(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(BASE)
    for name, text in (("bad.json5", '{ agents: { defaults: { bootstrapMaxChars: "many" } } }'),
                       ("bad2.json5", "{ agents: { defaults: { bootstrapTotalMaxChars: [] } } }")):
        patch = state_dir / name
        patch.write_text(text)
        run = vora("config", "patch", str(patch))
        assert run.exit_code == 1, run.stdout
        assert "agents.defaults.bootstrap" in run.stderr
        assert config.read_text() == BASE
