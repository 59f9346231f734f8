"""`config validate` does work in proportion to the keys vora knows, not to the file (issue 24:
`config validate` on 2 MB no steeper than `config get`). Counted, never timed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from install_support import make_install

from vora_cli.core.config import keys
from vora_cli.core.config.keys import KNOWN_KEYS, KeyNode, matches_pattern, spec_for
from vora_cli.core.config.validation import validate_config, validate_tree


def _linear_spec_for(path: tuple[Any, ...]) -> Any:
    """The table's own definition: the first entry whose pattern matches."""
    return next((spec for spec in KNOWN_KEYS if matches_pattern(spec.pattern, path)), None)


NAMES = sorted({seg for spec in KNOWN_KEYS for seg in spec.pattern if seg not in ("*", "[]")} | {"x", "port2"})
SEGMENTS = st.one_of(st.sampled_from(NAMES), st.integers(0, 3), st.text(max_size=4))


@given(st.lists(SEGMENTS, max_size=6).map(tuple))
def test_the_index_finds_the_spec_the_table_lists_first(path: tuple[Any, ...]) -> None:
    assert spec_for(path) is _linear_spec_for(path)


def test_every_pattern_of_the_table_is_found_through_the_index() -> None:
    for spec in KNOWN_KEYS:
        path = tuple(0 if seg == "[]" else "some-id" if seg == "*" else seg for seg in spec.pattern)
        assert spec_for(path) is _linear_spec_for(path)


def _counting_children(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    original = KeyNode.children

    def children(self: KeyNode, seg: Any) -> tuple[KeyNode, ...]:
        calls[0] += 1
        return original(self, seg)

    monkeypatch.setattr(KeyNode, "children", children)
    return calls


def test_members_no_known_key_reaches_are_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting_children(monkeypatch)
    unknown = {f"section{i}": {"name": f"block {i}", "values": [1, 2, {"deep": {"port": "x"}}]} for i in range(2000)}
    tree = {**unknown, "gateway": {"port": "high", "custom": {"a": {"b": 1}}}, "agents": {"list": [{"id": 5}]}}
    problems = validate_tree(tree)
    assert [(p.path, p.expected) for p in problems] == [
        (("gateway", "port"), "an integer 1-65535"), (("agents", "list", 0, "id"), "a string")]
    # the table's own top-level names looked up in the object (gateway, agents), then only inside
    # gateway (port, custom) and agents (list, its element 0, that element's id): not one per
    # unknown top-level key, nor one per node of the file
    assert calls[0] == 2 + 2 + 3


WRONG = {"gateway": {"port": "high"}, "agents": {"list": 5}, "plugins": {"enabled": "yes"},
         "skills": {"load": {"extraDirs": "one"}}, "env": {"A": 1}}


@given(st.permutations(sorted(WRONG)), st.integers(0, 400), st.randoms(use_true_random=False))
def test_problems_come_in_the_object_order_whatever_its_size(order: list[str], unknown: int, rng: Any) -> None:
    """A big object is walked by the table's names (`validate_tree`), a small one member by
    member: both report in the config's own order, the same problems."""
    members: list[tuple[str, Any]] = [(f"section{i}", {"port": "x"}) for i in range(unknown)]
    for key in order:
        members.insert(rng.randint(0, len(members)), (key, WRONG[key]))
    tree = dict(members)
    problems = validate_tree(tree)
    alone = [p for key in tree if key in WRONG for p in validate_tree({key: WRONG[key]})]
    assert problems == alone
    assert [p.path[0] for p in problems] == [k for k in tree if k in WRONG]


def test_type_errors_are_all_the_table_reports() -> None:
    tree = {"gateway": {"prot": 1, "auth": {"mode": "tokn", "extra": True}}, "plugins": {"slotz": {}}, "sessoin": {}}
    assert [(p.path, p.severity) for p in validate_tree(tree)] == [(("gateway", "auth", "mode"), "error")]


def _validated_counting_guesses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                members: list[str]) -> tuple[Any, list[str]]:
    """`config validate` of a config of these top-level members, and each key a "did you mean"
    was looked for (`wording.closest`'s calls)."""
    from vora_cli.core import wording

    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text("{ " + ", ".join(members) + " }\n")
    compared: list[str] = []
    original = wording.closest

    def counting(word: str, *args: Any, **kwargs: Any) -> str | None:
        compared.append(word)
        return original(word, *args, **kwargs)

    monkeypatch.setattr(wording, "closest", counting)
    return validate_config(make_install(state)), compared


def test_did_you_mean_compares_until_the_first_near_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    members = [f"zz{i}: 1" for i in range(2)] + ["gatway: {}"] + [f"block{i}: 1" for i in range(5000)]
    report, compared = _validated_counting_guesses(tmp_path, monkeypatch, members)
    assert [p.suggestion for p in report.problems] == ["gateway"]
    assert compared == ["zz0", "zz1", "gatway"]


def test_the_index_is_built_once() -> None:
    assert keys.key_tree() is keys.key_tree()


@pytest.mark.parametrize(("text", "asked", "valid"), [
    ("{ gateway: { port: 18789 } }", False, True),  # no plugins, no channels: nothing of theirs to check
    ("{ plugins: { enabled: true }, gateway: { port: 'x' } }", False, False),  # refused by the schema first
    ("{ section0: {}, plugins: {} }", False, False),  # an unknown key: refused before the plugin phase
    ("{ channels: [] }", False, False),  # refused by the schema (channels must be an object)
    ("{ channels: null }", False, False),  # likewise (openclaw 2026.4.12: case channels-null)
    ("{ plugins: null }", False, False),  # a plugins key, but refused first (case plugins-null)
    ("{ plugins: { entries: {} } }", True, True),
    ("{ channels: {} }", False, True),  # no channel to look up: the gateway loads no registry
    ("{ channels: { '  ': {} } }", False, True),  # a blank key is passed over
    ("{ channels: { telegram: {} } }", True, True),  # a channel to look up loads the registry
])
def test_plugins_are_discovered_only_when_the_verdict_checks_them(tmp_path: Path, text: str, asked: bool,
                                                                  valid: bool) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text(text)
    calls: list[object] = []

    def facts(config: Any) -> Any:
        from vora_cli.core.config.gateway import PluginFacts

        calls.append(config)
        return PluginFacts()

    report = validate_config(make_install(state), plugin_facts=facts)
    assert len(calls) == (1 if asked else 0), report.problems
    assert report.valid == valid, report.problems


def test_did_you_mean_looks_at_a_bounded_number_of_unknown_keys(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of unknown keys with no near miss among them cost `NEAR_LOOKS` comparisons; a typo
    behind them gets no guess (the keys are still all named)."""
    from vora_cli.core.config.gateway import NEAR_LOOKS

    members = [f"section{i}: 1" for i in range(5000)] + ["sesion: {}"]
    report, compared = _validated_counting_guesses(tmp_path, monkeypatch, members)
    assert compared == [f"section{i}" for i in range(NEAR_LOOKS)]
    assert [p.suggestion for p in report.problems] == [None]
    assert "sesion" in report.problems[0].message and "section4999" in report.problems[0].message
