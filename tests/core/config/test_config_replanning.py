"""The config write path on the core (spec config.md, "Writing the file: lossless"; issue 11 point 3).

Edits are planned on one read of the file; under the lock, a file that changed meanwhile gets
the same edits planned again by their intent (append, remove a value, set a key), or a
`conflict` (exit 3, nothing written) when an edit addressed an array element by index and that
array changed. The concurrent real processes: tests/cli/config/test_writes.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from install_support import make_install

from vora_cli.core.config.loading import load_config
from vora_cli.core.config.planning import ConfigEdit
from vora_cli.core.config.writing import apply_config_edits
from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.json5.parser import loads


def test_a_removal_by_value_removes_that_value_after_the_array_shifted(state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text('{\n  plugins: {\n    allow: ["a", "x", "c"],\n  },\n}\n')
    paths = make_install(state_dir).paths
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
    paths = make_install(state_dir).paths
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
def test_an_index_into_an_array_that_changed_is_a_conflict_and_writes_nothing(state_dir: Path, edit: ConfigEdit) -> None:
    config = state_dir / "vora.json"
    config.write_text('{plugins: {allow: ["a", "x"]}, agents: {list: [{id: "main"}]}}\n')
    paths = make_install(state_dir).paths
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
    paths = make_install(state_dir).paths
    snapshot = load_config(paths)
    config.write_text("{\n  gateway: { port: 2 },\n  // added meanwhile\n  env: { A: 'b' },\n}\n")
    result = apply_config_edits(make_install(paths=paths), [ConfigEdit(("gateway", "bind"), "lan")], command="test", snapshot=snapshot)
    assert config.read_text() == "{\n  gateway: { port: 2, bind: \"lan\" },\n  // added meanwhile\n  env: { A: 'b' },\n}\n"
    assert [(c.path, c.new) for c in result.changes] == [("gateway.bind", "lan")]


def test_invalid_utf8_is_a_parse_error_with_its_position(state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_bytes(b'{\n  a: "\xff"\n}\n')
    with pytest.raises(ParseError) as caught:
        load_config(make_install(state_dir).paths)
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
    paths = make_install(state_dir).paths
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
    paths = make_install(state_dir).paths
    snapshot = load_config(paths)
    config.write_text('{plugins: {slots: {contextEngine: "theirs"}}}\n')
    with pytest.raises(VoraError) as caught:
        apply_config_edits(make_install(paths=paths), [ConfigEdit.set_if(("plugins", "slots", "contextEngine"), "mine", MISSING)],
                           command="test", snapshot=snapshot)
    assert caught.value.code == "conflict"
    assert "it is no longer unset" in caught.value.message
