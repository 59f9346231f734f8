"""A negative number where a value goes (`config set gateway.port -5`) is read by click as an
option; the usage error says how to pass it (`--`), naming the command's own arguments."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.parametrize(("args", "usage"), [
    (["config", "set", "agents.defaults.bootstrapMaxChars", "-5"], "vora config set [OPTIONS] -- PATH VALUE"),
    (["settings", "set", "lock_timeout", "-1.5"], "vora settings set [OPTIONS] -- KEY VALUE"),
    (["settings", "set", "gateway.timeout", "-.5"], "vora settings set [OPTIONS] -- KEY VALUE"),
])
def test_a_negative_value_gets_the_double_dash_hint(vora, state_dir: Path, args: list[str], usage: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    result = vora(*args, "--json")
    assert result.exit_code == 2
    error = result.json()["error"]
    assert error["code"] == "usage" and error["hint"].endswith(usage)
    assert (state_dir / "vora.json").read_text() == "{}\n"
    # and the hint is right: with `--` the value reaches the type check
    fixed = vora(*args[:2], "--json", "--", *args[2:])
    assert fixed.exit_code == 1 and fixed.json()["error"]["code"] == "invalid"


@pytest.mark.parametrize("option", ["-x", "--nope"])
def test_a_real_unknown_option_keeps_the_help_hint(vora, option: str) -> None:
    error = vora("config", "set", option, "--json").json()["error"]
    assert error["hint"] == "run 'vora config set --help' for the usage"
