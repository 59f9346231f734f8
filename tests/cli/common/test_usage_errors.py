"""Usage errors the parser finds, said in one sentence with the way out, exit 2, in text and JSON:
a mistyped option gets the same guess as a mistyped command (`No such option: --fial-on; did you
mean --fail-on?`); a negative number where a value goes (`config set gateway.port -5`), which
click reads as an option, says how to pass it (`--`), naming the command's own arguments.

Issue 12 point 20: hints and errors name the flag the way the user typed it, and a suggested
command keeps the flags the user passed.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin, tar_of, write_config

from tests.conftest import Run
from vora_cli.cli.output import Run as OutputRun


@pytest.mark.parametrize(("args", "message"), [
    (["doctor", "--fial-on", "warn"], "No such option: --fial-on; did you mean --fail-on?"),
    (["--jsn", "doctor"], "No such option: --jsn; did you mean --json?"),
    (["settings", "list", "--no-header"], "No such option: --no-header; did you mean --no-headers?"),
    (["config", "set", "--stdn", "x"], "No such option: --stdn; did you mean --stdin?"),
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


@pytest.mark.parametrize(("args", "message"), [
    # click's own guess (difflib, 0.6) named --verbose for --bogus: a typo is a few edits, not a likeness
    (["plugins", "list", "--bogus"], "No such option: --bogus"),
    (["security", "audit", "--bogus"], "No such option: --bogus"),
    (["doctor", "--fix-ids"], "No such option: --fix-ids; did you mean --fix-id?"),
])
def test_a_guess_only_above_the_similarity_floor(vora, args: list[str], message: str) -> None:
    assert vora("--json", *args).json()["error"]["message"] == message


@pytest.mark.parametrize(("args", "said"), [
    (["plugins", "inspect", "nope"], None),  # not 'copyme' (issue 38): nothing rather than a wrong guess
    (["plugins", "inspect", "my-engin"], "did you mean 'my-engine'?"),
    (["doctor", "--only", "slot"], None),
    (["doctor", "--only", "slot-memroy"], "did you mean slot-memory?"),
    (["settings", "get", "colr"], "did you mean 'color'?"),
    (["settings", "get", "editorial"], None),
])
def test_every_did_you_mean_has_the_same_floor(vora, state_dir: Path, args: list[str], said: str | None) -> None:
    import shutil

    from conftest import EXAMPLES

    shutil.copytree(EXAMPLES / "plugins", state_dir.parent / "plugins")
    for name in ("my-engine", "copyme"):
        (state_dir / "extensions" / name).mkdir(parents=True)
        (state_dir / "extensions" / name / "vora.plugin.json").write_text(
            f'{{"id": "{name}", "configSchema": {{"type": "object"}}}}')
    (state_dir / "vora.json").write_text("{}\n")
    hint = vora("--json", *args).json()["error"]["hint"] or ""
    if said is None:
        assert "did you mean" not in hint, hint
    else:
        assert said in hint, hint


@pytest.mark.parametrize(("args", "said"), [
    (["version"], "No such command 'version'; did you mean 'vora --version'?"),
    (["help"], "No such command 'help'; did you mean 'vora --help'?"),
    (["config", "help"], "No such command 'help'; did you mean 'vora config --help'?"),
])
def test_an_option_typed_as_a_command_gets_the_option(vora, args: list[str], said: str) -> None:
    result = vora(*args)
    assert (result.exit_code, result.stderr.splitlines()[0]) == (2, f"error: {said}")
    assert vora("--json", *args).json()["error"]["message"] == said


# -- a negative value -------------------------------------------------------------------------

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


@pytest.mark.parametrize(("argv", "expected"), [
    (["plugins", "install", "-l", "x"], "-l"),
    (["plugins", "install", "--link", "x"], "--link"),
    (["plugins", "install", "x", "-l", "--link"], "--link"),
    (["plugins", "install", "-yl", "x"], "-l"),
    (["plugins", "install", "x"], "--link"),
    (["plugins", "install", "--", "-l"], "--link"),  # after `--` it is an argument, not a flag
])
def test_typed_flag_reads_the_command_line(argv: list[str], expected: str) -> None:
    assert OutputRun(argv).typed_flag("--link", "-l") == expected


@pytest.mark.parametrize("flag", ["-l", "--link"])
def test_force_with_link_names_the_flag_typed(flag: str, tmp_path: Path, state_dir: Path,
                                              vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", flag, str(make_plugin(tmp_path / "p", "eng")), "--force", "--json")
    assert result.exit_code == 2
    assert result.json()["error"]["message"] == f"--force cannot be used with {flag}"


@pytest.mark.parametrize("flag", ["-l", "--link"])
def test_link_of_an_archive_names_the_flag_typed(flag: str, tmp_path: Path, state_dir: Path,
                                                 vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    archive = tar_of(make_plugin(tmp_path / "p", "eng"), tmp_path / "eng.tgz")
    error = vora("plugins", "install", flag, str(archive), "--json").json()["error"]
    assert error["message"].startswith(f"{flag} needs a local folder or file")
    assert error["hint"] == f"install archives and npm packages without {flag}"


@pytest.mark.parametrize("extra", [[], ["--use"]])
def test_force_hint_keeps_the_flags_passed(extra: list[str], tmp_path: Path, state_dir: Path,
                                           vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    source = make_plugin(tmp_path / "p", "eng")
    assert vora("plugins", "install", str(source), *extra).exit_code == 0
    hint = vora("plugins", "install", str(source), *extra, "--json").json()["error"]["hint"]
    command = hint[hint.index("(") + 1:hint.rindex(")")]
    assert shlex.split(command) == ["vora", "plugins", "install", str(source), *extra, "--force"]


@pytest.mark.parametrize("args", [
    ["config", "set", "gateway.auth.token", "--Xy9SECRETDASH_Q8"],  # a base64url token may start with dashes
    ["devices", "rename", "96ce6dad", "--k3y=v4lue-s3cret"],
    ["config", "set", "channels.telegram.botToken", "--123456:AAH_token"],
])
def test_a_value_where_an_option_was_expected_is_not_repeated(vora, args: list[str]) -> None:
    """A word click reads as an option but no person would type as one is a value (perhaps a
    secret): it is not repeated in the error, in text or JSON, and the hint says how to pass it."""
    for run in (vora(*args), vora("--json", *args)):
        assert run.exit_code == 2
        assert args[-1] not in run.stdout + run.stderr
        assert args[-1].lstrip("-")[:6] not in run.stdout + run.stderr
    hint = vora("--json", *args).json()["error"]["hint"]
    assert f"goes after '--': vora {' '.join(args[:-2])} [OPTIONS] -- " in hint


def test_a_short_option_cluster_names_only_its_first_letter(vora) -> None:
    run = vora("config", "set", "gateway.auth.token", "-AbC0123456789xyz")
    assert (run.exit_code, run.stderr.splitlines()[0]) == (2, "error: No such option: -A")


@pytest.mark.parametrize(("args", "message"), [
    (["doctor", "--dry_run"], "No such option: --dry_run; did you mean --dry-run?"),
    (["doctor", "--fail_on", "warn"], "No such option: --fail_on; did you mean --fail-on?"),
    (["doctor", "--JSON"], "No such option: --JSON"),
])
def test_an_option_typed_as_people_type_them_is_named(vora, args: list[str], message: str) -> None:
    assert vora("--json", *args).json()["error"]["message"] == message


@pytest.mark.parametrize("args", [
    ["config", "set", "gateway.auth.token", "my", "secret", "phrase"],
    ["devices", "rename", "96ce6dad", "laptop", "hunter2hunter2"],
])
def test_extra_arguments_are_not_repeated(vora, args: list[str]) -> None:
    """Words past the command's last argument may be the rest of a value typed without quotes."""
    for run in (vora(*args), vora("--json", *args)):
        assert run.exit_code == 2
        assert args[-1] not in run.stdout + run.stderr
    assert "a value with blanks goes in quotes" in vora("--json", *args).json()["error"]["hint"]
