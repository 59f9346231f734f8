"""The config write path (spec config.md, "Writing the file: lossless"; issue 11 point 3).

Edits are planned on one read of the file; under the lock, a file that changed meanwhile gets
the same edits planned again by their intent (append, remove a value, set a key), or a
`conflict` (exit 3, nothing written) when an edit addressed an array element by index and that
array changed. Real processes, real files: nothing of the write path is replaced.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from install_support import make_install
from plugins_support import make_plugin

from vora_cli.core.config.loading import load_config
from vora_cli.core.config.planning import ConfigEdit
from vora_cli.core.config.writing import apply_config_edits
from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.json5.parser import loads
from vora_cli.core.paths import resolve_paths

REPO = Path(__file__).resolve().parents[2]

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


def test_a_removal_by_value_removes_that_value_after_the_array_shifted(state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text('{\n  plugins: {\n    allow: ["a", "x", "c"],\n  },\n}\n')
    paths = resolve_paths(state_dir=str(state_dir))
    snapshot = load_config(paths)
    # The plan was made on ["a", "x", "c"] ("x" at index 1); meanwhile another vora removes "a".
    config.write_text('{\n  plugins: {\n    allow: ["x", "c"],\n  },\n}\n')
    result = apply_config_edits(make_install(paths=paths), [ConfigEdit.remove(("plugins", "allow"), ["x"])], command="test",
                                snapshot=snapshot)
    assert loads(config.read_text())["plugins"]["allow"] == ["c"]
    assert [(c.path, c.old, c.action) for c in result.changes] == [("plugins.allow[0]", "x", "remove")]


def test_an_append_after_the_array_grew_lands_last_and_once(state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text('{plugins: {allow: ["a"]}}\n')
    paths = resolve_paths(state_dir=str(state_dir))
    snapshot = load_config(paths)
    config.write_text('{plugins: {allow: ["a", "b", "z"]}}\n')
    apply_config_edits(make_install(paths=paths), [ConfigEdit.append(("plugins", "allow"), "z"), ConfigEdit.append(("plugins", "allow"),
                                                                                                 "y")],
                       command="test", snapshot=snapshot)
    assert config.read_text() == '{plugins: {allow: ["a", "b", "z", "y"]}}\n'


@pytest.mark.parametrize("edit", [
    ConfigEdit(("plugins", "allow", 1), delete=True),  # `config unset plugins.allow[1]`
    ConfigEdit(("plugins", "allow", 1), "new"),  # `config set plugins.allow[1] new`
    ConfigEdit(("agents", "list", 0, "id"), "main2"),  # a key inside an indexed element
])
def test_an_index_into_an_array_that_changed_is_a_conflict_and_writes_nothing(state_dir: Path, vora,
                                                                                edit: ConfigEdit) -> None:
    config = state_dir / "vora.json"
    config.write_text('{plugins: {allow: ["a", "x"]}, agents: {list: [{id: "main"}]}}\n')
    paths = resolve_paths(state_dir=str(state_dir))
    snapshot = load_config(paths)
    changed = '{plugins: {allow: ["x", "a"]}, agents: {list: [{id: "ops"}, {id: "main"}]}}\n'
    config.write_text(changed)
    with pytest.raises(VoraError) as caught:
        apply_config_edits(make_install(paths=paths), [edit], command="test", snapshot=snapshot)
    assert caught.value.code == "conflict" and caught.value.exit_code == 3
    assert config.read_text() == changed
    assert not (state_dir / "vora.json.bak").exists()


def test_a_key_set_is_planned_again_on_the_changed_file(state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text("{\n  gateway: { port: 1 },\n}\n")
    paths = resolve_paths(state_dir=str(state_dir))
    snapshot = load_config(paths)
    config.write_text("{\n  gateway: { port: 2 },\n  // added meanwhile\n  env: { A: 'b' },\n}\n")
    result = apply_config_edits(make_install(paths=paths), [ConfigEdit(("gateway", "bind"), "lan")], command="test", snapshot=snapshot)
    assert config.read_text() == "{\n  gateway: { port: 2, bind: \"lan\" },\n  // added meanwhile\n  env: { A: 'b' },\n}\n"
    assert [(c.path, c.new) for c in result.changes] == [("gateway.bind", "lan")]


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


def test_invalid_utf8_is_a_parse_error_with_its_position(state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_bytes(b'{\n  a: "\xff"\n}\n')
    with pytest.raises(ParseError) as caught:
        load_config(resolve_paths(state_dir=str(state_dir)))
    assert (caught.value.line, caught.value.col) == (2, 7)


@pytest.mark.parametrize(("meanwhile", "expected_conflict"), [
    ('{plugins: {slots: {memory: "other-memory"}}}\n', True),  # another plugin was selected
    ("{plugins: {}}\n", True),  # the slot was unset
    ('{plugins: {slots: {memory: "my-memory"}}, env: {A: "b"}}\n', False),  # an unrelated change
])
def test_set_if_still_holds_its_expectation_on_a_changed_file(state_dir: Path, meanwhile: str,
                                                              expected_conflict: bool) -> None:
    config = state_dir / "vora.json"
    config.write_text('{plugins: {slots: {memory: "my-memory"}}}\n')
    paths = resolve_paths(state_dir=str(state_dir))
    snapshot = load_config(paths)
    config.write_text(meanwhile)
    edit = ConfigEdit.set_if(("plugins", "slots", "memory"), "memory-core", "my-memory")  # uninstall's reset
    if expected_conflict:
        with pytest.raises(VoraError) as caught:
            apply_config_edits(make_install(paths=paths), [edit], command="test", snapshot=snapshot)
        assert caught.value.code == "conflict"
        assert config.read_text() == meanwhile
    else:
        apply_config_edits(make_install(paths=paths), [edit], command="test", snapshot=snapshot)
        assert loads(config.read_text()) == {"plugins": {"slots": {"memory": "memory-core"}}, "env": {"A": "b"}}


def test_set_if_unset_expects_the_key_to_stay_unset(state_dir: Path) -> None:
    from vora_cli.core.config.loading import MISSING

    config = state_dir / "vora.json"
    config.write_text("{plugins: {}}\n")
    paths = resolve_paths(state_dir=str(state_dir))
    snapshot = load_config(paths)
    config.write_text('{plugins: {slots: {contextEngine: "theirs"}}}\n')
    with pytest.raises(VoraError) as caught:
        apply_config_edits(make_install(paths=paths), [ConfigEdit.set_if(("plugins", "slots", "contextEngine"), "mine", MISSING)],
                           command="test", snapshot=snapshot)
    assert caught.value.code == "conflict"
    assert "it is no longer unset" in caught.value.message
