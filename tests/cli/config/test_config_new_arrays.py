"""`config set` with an index below a member that is not there yet (found by the config fuzz test):
the missing steps are created (an index makes an array, whose only index is [0]), or the path is
refused naming the index; never an internal error, never a file change on refusal."""

from __future__ import annotations

import json
from pathlib import Path

import json5
import pytest

CONFIGS = ["{}", "{a: 1}", "// c\n{\n  a: 1,\n}\n", '{"a": 1}', '{_:{_:0,_:{_:""}},_:{A:[{A:""}]}}', "{x: []}"]


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize(("path", "expected"), [
    ("x[0]", [5]), ("x[0].y", [{"y": 5}]), ("x[0][0]", [[5]]), ("x[0].y[0]", [{"y": [5]}]),
])
def test_an_index_below_a_missing_member_makes_an_array(vora, state_dir: Path, config: str, path: str,
                                                        expected: object) -> None:
    file = state_dir / "vora.json"
    file.write_text(config)
    run = vora("config", "set", "--force", path, "5")
    assert run.exit_code == 0, run.stderr
    assert json5.loads(file.read_text())["x"] == expected
    assert vora("config", "get", path, "--json").json()["value"] == 5


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("path", ["x[1]", "x[0][3]", "x[2].y", "y.z[7]"])
def test_an_index_past_a_new_array_is_refused(vora, state_dir: Path, config: str, path: str) -> None:
    file = state_dir / "vora.json"
    file.write_text(config)
    run = vora("config", "set", "--force", path, "5", "--json")
    assert run.exit_code == 1
    error = run.json()["error"]
    assert error["code"] == "not_found" and "past the end" in error["message"]
    assert file.read_text() == config


def test_the_fuzz_finding_itself(vora, state_dir: Path) -> None:
    file = state_dir / "vora.json"
    file.write_text('{_:{_:0,_:{_:""}},_:{A:[{A:""}]}}')
    run = vora("config", "set", "--force", "x[0]", "18800")
    assert run.exit_code == 0, run.stderr
    assert json.loads(json.dumps(json5.loads(file.read_text())))["x"] == [18800]
