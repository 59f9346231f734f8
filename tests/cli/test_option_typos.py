"""A mistyped option gets the same one-sentence guess as a mistyped command
(`No such option: --fial-on; did you mean --fail-on?`), exit 2, in text and in JSON."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("args", "message"), [
    (["doctor", "--fial-on", "warn"], "No such option: --fial-on; did you mean --fail-on?"),
    (["--jsn", "doctor"], "No such option: --jsn; did you mean --json?"),
    (["settings", "list", "--no-header"], "No such option: --no-header; did you mean --no-headers?"),
    (["config", "set", "--stdn", "x"], "No such option: --stdn; did you mean --stdin or --json?"),
])
def test_a_mistyped_option_gets_a_guess(vora, args: list[str], message: str) -> None:
    human = vora(*args)
    assert human.exit_code == 2
    assert human.stderr.splitlines()[0] == f"error: {message}"
    error = vora("--json", *args).json()["error"]
    assert error["code"] == "usage" and error["message"] == message


def test_no_guess_when_nothing_is_near(vora) -> None:
    error = vora("--json", "doctor", "--zzzzzz").json()["error"]
    assert error["message"] == "No such option: --zzzzzz"
    assert error["hint"] == "run 'vora doctor --help' for the usage"


@pytest.mark.parametrize(("args", "said"), [
    (["version"], "No such command 'version'; did you mean 'vora --version'?"),
    (["help"], "No such command 'help'; did you mean 'vora --help'?"),
    (["config", "help"], "No such command 'help'; did you mean 'vora config --help'?"),
])
def test_an_option_typed_as_a_command_gets_the_option(vora, args: list[str], said: str) -> None:
    result = vora(*args)
    assert (result.exit_code, result.stderr.splitlines()[0]) == (2, f"error: {said}")
    assert vora("--json", *args).json()["error"]["message"] == said
