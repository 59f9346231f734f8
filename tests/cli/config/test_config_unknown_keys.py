"""An unknown key is named, with the known key it is a typo of (issue 38): the gateway's schema
(zod: `Unrecognized key: "prot"`), a channel's schema and a plugin's configSchema (ajv: "must NOT
have additional properties", which names neither), alike in `config validate`, `config set` and
doctor; the gateway's words stay (and its rule: refused), vora says more. Nothing is guessed for a
key far from every known one."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES, Run

CASES = [
    # (config path, value, the gateway's words, what vora adds)
    ("gateway", '{"mode": "local", "prot": 1}', 'gateway: Unrecognized key: "prot"', " — did you mean 'port'?"),
    ("channels.telegram", '{"botTokn": "x"}', "channels.telegram: invalid config: must NOT have additional properties",
     ": unknown key 'botTokn' — did you mean 'botToken'?"),
    ('plugins.entries["my-engine"].config', '{"keepTurn": 3}',
     "plugins.entries.my-engine.config: invalid config: must NOT have additional properties",
     ": unknown key 'keepTurn' — did you mean 'keepTurns'?"),
    ('plugins.entries["my-engine"].config', '{"zzzz": 3}',
     "plugins.entries.my-engine.config: invalid config: must NOT have additional properties", ": unknown key 'zzzz'"),
]


@pytest.fixture
def state(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES / "vora", tmp_path / "vora")
    shutil.copytree(EXAMPLES / "plugins", tmp_path / "plugins")
    return tmp_path / "vora"


@pytest.mark.parametrize(("path", "value", "words", "more"), CASES, ids=["zod", "channel", "plugin", "far"])
def test_set_validate_and_doctor_name_the_key(vora: Callable[..., Run], state: Path, path: str, value: str,
                                              words: str, more: str) -> None:
    before = (state / "vora.json").read_bytes()
    refused = vora("--state-dir", str(state), "config", "set", path, value)
    assert refused.exit_code == 1 and (state / "vora.json").read_bytes() == before
    assert f"{words}{more} [" in refused.stderr, refused.stderr
    assert ("did you mean" in refused.stderr) == ("did you mean" in more)
    assert vora("--state-dir", str(state), "config", "set", path, value, "--force").exit_code == 0
    validated = vora("--state-dir", str(state), "config", "validate")
    assert validated.exit_code == 1 and f"error: {words}{more}\n" in validated.stdout, validated.stdout
    doctor = vora("--state-dir", str(state), "doctor", "--only", "config-schema")
    assert f"{words}{more}" in doctor.stdout, doctor.stdout
    # JSON keeps the gateway's words; the near key is the problem's `suggestion`, as for zod's
    problem = vora("--state-dir", str(state), "config", "validate", "--json").json()["problems"][0]
    assert problem["message"] == words.split(": ", 1)[1]
    assert (problem["suggestion"] is None) == ("did you mean" not in more)


def test_the_first_near_miss_of_several_unknown_keys(vora: Callable[..., Run], state: Path) -> None:
    vora("--state-dir", str(state), "config", "set", "gateway", json.dumps({"mode": "local", "zzz": 1, "bnd": 2}),
         "--force")
    said = vora("--state-dir", str(state), "config", "validate").stdout
    assert 'gateway: Unrecognized keys: "zzz", "bnd" — did you mean \'bind\' for \'bnd\'?' in said
