"""`config set` of a number the gateway already reads there is "No change"; `config get` prints
numbers as the gateway (JavaScript) reads them. The spellings and JavaScript's answers are Node's
(`tests/data/upstream/js-numbers-node.json`, scripts/gen_js_numbers.py).

An integer past the largest double, in a config or a session store, is what JavaScript's
`JSON.parse` reads as Infinity: vora treats it as not finite, and no command crashes on it (a
`math.isfinite`, `float()` or `/` of it raised OverflowError, reported as a bug in vora).
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import Run

from vora_cli.core.strict_json import MAX_DOUBLE, as_double, is_finite

VoraRun = Callable[..., Run]
DATA = json.loads((Path(__file__).resolve().parents[2] / "data" / "upstream" / "js-numbers-node.json").read_text())
# Groups of spellings of one positive finite Number (mediaMaxMb takes any number > 0), each with
# what JavaScript prints for it: the fixed groups first, then a few of the random ones.
POSITIVE = [[(lit, string) for lit, string, _js in group if string is not None]
            for group in DATA["groups"]]
POSITIVE = [g for g in POSITIVE if g and all(not s.startswith("-") and s not in ("0", "NaN", "Infinity") for _l, s in g)
            and len({s for _l, s in g}) == 1 and len(g) > 2]
CASES = POSITIVE[:12] + POSITIVE[40:200:20]
KEY = "agents.defaults.mediaMaxMb"


def _config(state: Path, literal: str) -> Path:
    state.mkdir(exist_ok=True)
    config = state / "vora.json"
    config.write_text(f"{{\n  // media cap, in MB\n  agents: {{ defaults: {{ mediaMaxMb: {literal} /* as typed */ }} }},\n}}\n")
    return config


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("group", CASES, ids=[g[0][0] for g in CASES])
def test_setting_another_spelling_of_the_number_is_no_change(vora: VoraRun, tmp_path: Path,
                                                             group: list[tuple[str, str]]) -> None:
    state = tmp_path / "state"
    (first, string), *others = group
    config = _config(state, first)
    before = _digest(config)
    for literal, _ in others:
        run = vora("--state-dir", str(state), "config", "set", KEY, literal)
        assert (run.exit_code, run.stdout, run.stderr) == (0, "No change\n", ""), literal
        doc = vora("--state-dir", str(state), "config", "set", KEY, literal, "--json").json()
        assert doc == {"changed": False, "dryRun": False, "changes": [], "files": [], "warnings": []}
    assert _digest(config) == before
    assert sorted(p.name for p in state.iterdir()) == ["vora.json"]  # no backup, no audit log
    got = vora("--state-dir", str(state), "config", "get", KEY)
    assert got.stdout == string + "\n"
    assert vora("--state-dir", str(state), "config", "get", "agents.defaults", "--json").json()["value"] == {
        "mediaMaxMb": json.loads(string)}


def test_a_different_number_is_written_and_reported_as_javascript_prints_it(vora: VoraRun, tmp_path: Path) -> None:
    state = tmp_path / "state"
    config = _config(state, "2.50")
    run = vora("--state-dir", str(state), "config", "set", KEY, "0x3")
    assert run.stdout == "Updated agents.defaults.mediaMaxMb: 2.5 -> 3\n"
    assert "mediaMaxMb: 3 /* as typed */" in config.read_text()  # new values are written as plain JSON
    run = vora("--state-dir", str(state), "config", "set", KEY, "1.5e-7", "--json")
    assert run.json()["changes"][0] | {"file": ""} == {"key": KEY, "old": 3, "new": 1.5e-7, "action": "set",
                                                      "file": ""}
    assert '"old": 3, "new": 1.5e-7,' in run.stdout
    run = vora("--state-dir", str(state), "config", "set", KEY, "1e21")
    assert run.stdout == "Updated agents.defaults.mediaMaxMb: 1.5e-7 -> 1e+21\n"


@pytest.mark.parametrize(("literal", "shown"), [
    ("3.00", "3"), ("1e3", "1000"), ("0x10", "16"), ("-0", "0"), ("-0.0", "0"), ("1e21", "1e+21"),
    ("1.5e-7", "1.5e-7"), ("0.00001", "0.00001"), ("123456789012345678901", "123456789012345680000"),
    ("9007199254740993", "9007199254740992"), ("1e400", "Infinity"), ("-NaN", "NaN"),
])
def test_config_get_prints_numbers_as_javascript(vora: VoraRun, tmp_path: Path, literal: str, shown: str) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text(f"{{ x: {{ n: {literal}, list: [{literal}, 1.0] }} }}\n")
    assert vora("--state-dir", str(state), "config", "get", "x.n").stdout == shown + "\n"
    listed: Any = json.loads(shown) if shown not in ("Infinity", "NaN") else shown
    assert json.loads(vora("--state-dir", str(state), "config", "get", "x.list").stdout) == [listed, 1]
    doc = vora("--state-dir", str(state), "config", "get", "x", "--json")
    assert f'"n": {json.dumps(listed) if isinstance(listed, str) else shown}' in doc.stdout


EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "vora"
HUGE = int("9" * 400)


@pytest.mark.parametrize(("value", "finite", "double"), [
    (HUGE, False, math.inf), (-HUGE, False, -math.inf), (int(MAX_DOUBLE), True, MAX_DOUBLE), (2**1024, False, math.inf),
    (10**308, True, 1e308), (7, True, 7.0), (True, True, 1.0), (math.inf, False, math.inf), (1.5, True, 1.5),
])
def test_an_integer_past_the_largest_double_is_not_finite(value: Any, finite: bool, double: float) -> None:
    assert is_finite(value) is finite
    assert as_double(value) == double
    if not isinstance(value, int) or abs(value) <= MAX_DOUBLE:
        assert is_finite(value) == math.isfinite(value)


def _state(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    shutil.copytree(EXAMPLE, state, symlinks=True)
    return state


@pytest.mark.parametrize("key", ["port: 18789", "bootstrapMaxChars: 20000", "bootstrapTotalMaxChars: 150000"])
@pytest.mark.parametrize("sign", ["", "-"])
def test_a_huge_integer_in_the_config_is_reported_not_crashed_on(key: str, sign: str, tmp_path: Path,
                                                                 vora: Callable[..., Any]) -> None:
    state = _state(tmp_path)
    config = state / "vora.json"
    name = key.split(":")[0]
    config.write_text(config.read_text().replace(key, f"{name}: {sign}{HUGE}"))
    for args in (["config", "validate"], ["doctor"], ["context", "list"], ["context", "json"], ["security", "audit"],
                 ["config", "get", "gateway", "--json"]):
        run = vora("--state-dir", str(state), *args)
        assert "bug in vora" not in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)
        assert run.exit_code in (0, 1), (args, run.stderr)
    validated = vora("--state-dir", str(state), "config", "validate")
    assert validated.exit_code == 1 and name in validated.stdout + validated.stderr
    refused = vora("--state-dir", str(state), "config", "set", "agents.defaults.bootstrapTotalMaxChars", f"{sign}{HUGE}")
    assert refused.exit_code != 0 and "bug in vora" not in refused.stderr


@pytest.mark.parametrize("field", ["totalTokens", "contextTokens", "inputTokens", "outputTokens", "updatedAt",
                                   "totalTokensFresh", "compactionCount"])
def test_a_huge_integer_in_a_session_store_is_shown_not_crashed_on(field: str, tmp_path: Path,
                                                                   vora: Callable[..., Any]) -> None:
    state = _state(tmp_path)
    store = state / "agents" / "main" / "sessions" / "sessions.json"
    data = json.loads(store.read_text())
    for entry in data.values():
        entry[field] = HUGE
    store.write_text(json.dumps(data))
    key = next(iter(data))
    for args in (["sessions", "list"], ["sessions", "list", "--json"], ["sessions", "show", key],
                 ["sessions", "show", key, "--json"], ["context", "list", "--session", key], ["doctor"]):
        run = vora("--state-dir", str(state), *args)
        assert "bug in vora" not in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)
        assert run.exit_code in (0, 1), (args, run.stderr)
