"""`$include` graphs of any shape load in work linear in the files, or stop with one line naming
the chain (issue 35, point 2). The commands' side: tests/cli/config/test_includes.py.

The oracle is the spec's own definition, resolved the naive way (config.md, "`${VAR}` and
`$include`": one include replaces the object holding it, an array deep-merges in order — objects
merge, arrays concatenate, later scalars win — sibling keys merge over the included content), every
include expanded again where it is reached, with no memo and no budget; it also counts what each
load brings in, so it says when the budget must stop a load. vora must agree with it, read each
file once, resolve each file once, and never build what it refuses.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vora_cli.core.config import includes, loading
from vora_cli.core.config.includes import MAX_INCLUDE_DEPTH, deep_merge_all
from vora_cli.core.config.loading import load_config
from vora_cli.core.errors import VoraError

NAMES = [f"f{i}.json5" for i in range(13)]
KEYS = ["a", "b", "list", "x"]


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            merged[key] = _merge(merged[key], value) if key in merged else value
        return merged
    if isinstance(base, list) and isinstance(over, list):
        return base + over
    return over


def _sites(node: Any) -> list[list[str]]:
    """The include lists of a file, in the order its walk meets them."""
    if isinstance(node, list):
        return [site for v in node for site in _sites(v)]
    if not isinstance(node, dict):
        return []
    found = [site for k, v in node.items() if k != "$include" for site in _sites(v)]
    if "$include" in node:
        spec = node["$include"]
        found.append(spec if isinstance(spec, list) else [spec])
    return found


def _own(node: Any) -> int:
    """A file's own values: every node but its include lists."""
    if isinstance(node, list):
        return 1 + sum(map(_own, node))
    if isinstance(node, dict):
        return 1 + sum(_own(v) for k, v in node.items() if k != "$include")
    return 1


class Oracle:
    """The spec's answer for a graph of files: which stops apply (a cycle, the depth limit, the
    budget on what a file's includes bring in), and else the merged value."""

    def __init__(self, files: dict[str, Any], budget: int) -> None:
        self.files = files
        self.budget = budget

    def stops(self) -> set[str]:
        edges = {name: [t for site in _sites(value) for t in site] for name, value in self.files.items()}
        state: dict[str, int] = {}  # 1: on the walk, 2: done
        height: dict[str, int] = {}
        cyclic = False

        def visit(name: str) -> int:
            nonlocal cyclic
            state[name] = 1
            best = 0
            for target in edges[name]:
                if state.get(target) == 1:
                    cyclic = True
                elif state.get(target) != 2:
                    best = max(best, visit(target))
                else:
                    best = max(best, height[target])
            state[name] = 2
            height[name] = best + 1
            return height[name]

        deep = visit("vora.json") > MAX_INCLUDE_DEPTH + 1
        if cyclic:  # a cycle's load stops at the cycle, or at the depth or budget on the way there
            return {"cycle", "nested deeper", "brings in more than"}
        count: dict[str, int] = {}

        def brought(name: str) -> int:
            if name not in count:
                count[name] = _own(self.files[name]) + sum(brought(t) for site in _sites(self.files[name]) for t in site)
            return count[name]

        over = any(sum(brought(t) for site in _sites(self.files[name]) for t in site) > self.budget
                   for name in state)
        # a load past both stops at whichever its walk meets first
        return ({"brings in more than"} if over else set()) | ({"nested deeper"} if deep else set())

    def value(self, node: Any) -> Any:
        """`node` resolved the naive way: every include expanded where it is met."""
        if isinstance(node, list):
            return [self.value(v) for v in node]
        if not isinstance(node, dict):
            return node
        siblings = {key: self.value(child) for key, child in node.items() if key != "$include"}
        if "$include" not in node:
            return siblings
        spec = node["$include"]
        base: Any = None
        for name in spec if isinstance(spec, list) else [spec]:
            value = self.value(self.files[name])
            base = value if base is None else _merge(base, value)
        if not siblings:
            return base
        return _merge(base if base is not None else {}, siblings)


def _includes(names: tuple[str, ...]) -> st.SearchStrategy[Any]:
    return st.lists(st.sampled_from(names), min_size=1, max_size=5).map(
        lambda chosen: chosen[0] if len(chosen) == 1 else chosen)


LEAF = st.one_of(st.integers(0, 3), st.sampled_from(["s", "t"]), st.booleans())


# one strategy per shape, built once: a strategy made afresh in every draw is validated afresh too,
# which costs far more than the draw
@functools.cache
def _object(depth: int, names: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    child: st.SearchStrategy[Any] = LEAF if depth == 0 else st.one_of(
        LEAF, st.lists(LEAF, max_size=3), _object(depth - 1, names))
    include = st.none() | _includes(names) if names else st.none()
    return st.builds(lambda members, chosen: {**members, **({"$include": chosen} if chosen is not None else {})},
                     st.dictionaries(st.sampled_from(KEYS), child, max_size=3), include)


@st.composite
def _graphs(draw: st.DrawFn) -> dict[str, Any]:
    """A main file and up to 13 others: each including any file (cycles), only later ones (long
    chains, files included again and again), or at least the next one (a line past the depth)."""
    count = draw(st.integers(1, len(NAMES)))
    names = tuple(NAMES[:count])
    shape = draw(st.sampled_from(["any", "later", "line"]))
    files = {"vora.json": draw(_object(1, names))}
    if shape == "line":
        files["vora.json"]["$include"] = names[0]
    for i, name in enumerate(names):
        files[name] = draw(_object(1, names if shape == "any" else names[i + 1:]))
        if shape == "line" and i + 1 < count:
            files[name]["$include"] = names[i + 1]
    return files


GRAPHS = _graphs()


def _write(state: Path, files: dict[str, Any]) -> None:
    state.mkdir(exist_ok=True)
    for name, value in files.items():
        (state / name).write_text(json.dumps(value))


@pytest.mark.slow  # 150 graphs of up to 14 files on disk
@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(GRAPHS, st.sampled_from([40, 400, 10_000]))
def test_an_include_graph_loads_as_the_spec_says_or_stops_naming_the_chain(
        tmp_path_factory: pytest.TempPathFactory, files: dict[str, Any], budget: int) -> None:
    state = tmp_path_factory.mktemp("graph")
    _write(state, files)
    oracle = Oracle(files, budget)
    stops = oracle.stops()
    reads: list[Path] = []
    real_read = loading.read_config_file

    def counting_read(path: Path, included: bool = False) -> Any:
        reads.append(path)
        return real_read(path, included)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loading, "read_config_file", counting_read)
        patch.setattr(includes, "MAX_INCLUDED_VALUES", budget)
        try:
            loaded = load_config(state / "vora.json", {"HOME": str(state)})
        except VoraError as error:
            assert stops, error.message
            assert error.code == "invalid" and "\n" not in error.message
            assert any(stop in error.message for stop in stops), (stops, error.message)
            assert len(reads) == len(set(reads))
            return
    assert not stops, f"vora loaded what the spec stops at: {stops}"
    expected = oracle.value(files["vora.json"])
    assert loaded.value == expected
    assert len(reads) == len(set(reads))  # each file read once
    assert set(loaded.included) == set(reads) - {state / "vora.json"}  # and resolved once


def test_eleven_small_files_each_including_the_next_four_times_stop_at_once(tmp_path: Path) -> None:
    """The issue's example: before, every command ran for minutes, memory growing."""
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text('{ agents: { "$include": ["f0.json5", "f0.json5", "f0.json5", "f0.json5"] } }')
    for i in range(10):
        targets = ", ".join([f'"f{i + 1}.json5"'] * 4)
        include = f', "$include": [{targets}]' if i < 9 else ""
        (state / f"f{i}.json5").write_text(f'{{ list: [{{ id: "a" }}]{include} }}')
    walked: list[int] = []
    real_walk = includes.IncludeResolver._walk

    def counting_walk(self: Any, *args: Any) -> Any:
        walked.append(1)
        return real_walk(self, *args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(includes.IncludeResolver, "_walk", counting_walk)
        with pytest.raises(VoraError) as raised:
            load_config(state / "vora.json", {"HOME": str(tmp_path)})
    message = raised.value.message
    assert message == (f"{state / 'vora.json'}: $include brings in more than 1,000,000 values, through vora.json -> "
                       "f0.json5 -> f1.json5 (x3) -> " + " -> ".join(f"f{i}.json5 (x4)" for i in range(2, 10)))
    # each file's values walked once: no copy per path that reaches it
    assert len(walked) < 200


def test_a_file_included_from_many_places_is_read_and_resolved_once(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    agents = ", ".join(f'a{i}: {{ "$include": "./shared.json5", id: "a{i}" }}' for i in range(300))
    (state / "vora.json").write_text(f"{{ agents: {{ {agents} }} }}")
    (state / "shared.json5").write_text('{ model: "m", tools: ["x", "y"], "$include": "./base.json5" }')
    (state / "base.json5").write_text('{ tools: ["z"], sandbox: { mode: "off" } }')
    loaded = load_config(state / "vora.json", {"HOME": str(tmp_path)})
    assert loaded.value["agents"]["a7"] == {"model": "m", "tools": ["z", "x", "y"], "sandbox": {"mode": "off"}, "id": "a7"}
    assert [f.path.name for f in loaded.files] == ["vora.json", "shared.json5", "base.json5"]
    assert set(loaded.included) == {state / "shared.json5", state / "base.json5"}


def test_the_bytes_budget_stops_big_files_included_again_and_again(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "big.json5").write_text('{ notes: "' + "n" * 1_900_000 + '" }')
    (state / "vora.json").write_text('{ "$include": ["big.json5", "big.json5", "big.json5", "big.json5", "big.json5"] }')
    with pytest.raises(VoraError) as raised:
        load_config(state / "vora.json", {"HOME": str(tmp_path)})
    assert raised.value.message == (f"{state / 'vora.json'}: $include brings in more than 8,388,608 bytes, through "
                                    "vora.json -> big.json5 (x5)")


@given(st.lists(st.one_of(LEAF, st.lists(LEAF, max_size=3), st.dictionaries(st.sampled_from(KEYS), LEAF, max_size=3)),
                min_size=1, max_size=8))
def test_merging_many_at_once_is_merging_them_in_turn(values: list[Any]) -> None:
    folded = values[0]
    for value in values[1:]:
        folded = _merge(folded, value)
    assert deep_merge_all(values) == folded
