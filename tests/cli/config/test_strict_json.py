"""`--strict-json` means RFC 8259, and a strict-JSON file stays strict JSON (issue 12, point 15)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

STRICT = '{\n  "gateway": {\n    "port": 18789\n  },\n  "list": [1, 2]\n}\n'


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "[1, NaN]", '{"a": {"b": Infinity}}'])
def test_strict_json_refuses_nan_and_infinity(vora, state_dir: Path, value: str) -> None:
    config = state_dir / "vora.json"
    config.write_text("{a: 1}\n")
    result = vora("config", "set", "--force", "--strict-json", "--", "x", value)
    assert result.exit_code == 2
    assert "not strict JSON" in result.stderr and "JSON5 only" in result.stderr
    assert config.read_text() == "{a: 1}\n"
    assert vora("config", "set", "--force", "--type", "json", "--", "x", value).exit_code == 2


@pytest.mark.parametrize(
    "args",
    [
        ("config", "set", "x", "NaN"),
        ("config", "set", "list[0]", "Infinity"),
        ("config", "set", "gateway.extra", "{a: [-Infinity]}"),
    ],
)
def test_a_strict_json_file_stays_strict_json(vora, state_dir: Path, args: tuple[str, ...]) -> None:
    config = state_dir / "vora.json"
    config.write_text(STRICT)
    result = vora(*args)
    assert result.exit_code == 1
    assert "strict JSON" in result.stderr and "nothing was written" in result.stderr
    assert config.read_text() == STRICT


def test_a_strict_json_file_stays_strict_json_through_a_patch(vora, state_dir: Path, tmp_path: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(STRICT)
    assert vora("config", "patch", "--force", "-", input="{gateway: {ratio: NaN}}").exit_code == 1
    assert config.read_text() == STRICT
    # Every other edit keeps it parseable by a strict reader.
    for args in (("config", "set", "--force", "gateway.bind", "lan"),
                 ("config", "set", "--force", "new.key", "{a: 'b', c: [1,]}"),
                 ("config", "unset", "--force", "list[1]"), ("config", "set", "--force", "plugins.allow", "['x']")):
        assert vora(*args).exit_code == 0
        json.loads(config.read_text())


def test_a_json5_file_still_takes_nan(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text("{\n  // JSON5\n  a: 1,\n}\n")
    assert vora("config", "set", "--force", "x", "NaN").exit_code == 0
    assert "x: NaN" in config.read_text() or '"x": NaN' in config.read_text()
