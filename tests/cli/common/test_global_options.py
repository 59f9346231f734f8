"""Issue 23, "Terminals": the install options (`--state-dir`, `--config`, `--profile`, `--dev`)
are taken after the command as well as before it, as gh and kubectl take theirs."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import EXAMPLES

EXAMPLE = str(EXAMPLES / "vora")


def test_after_the_command_is_the_same_as_before(vora) -> None:
    before = vora("--state-dir", EXAMPLE, "doctor", "--only", "config-file,state-dir", "--json")
    after = vora("doctor", "--only", "config-file,state-dir", "--state-dir", EXAMPLE, "--json")
    assert (after.exit_code, after.json()) == (before.exit_code, before.json())
    assert after.json()["stateDir"] == EXAMPLE


def test_at_any_depth_and_in_the_equals_form(vora) -> None:
    result = vora("config", "get", "gateway.port", f"--config={EXAMPLE}/vora.json")
    assert (result.exit_code, result.stdout) == (0, "18789\n")
    listed = vora("sessions", "list", "--state-dir", EXAMPLE, "--no-headers")
    assert listed.exit_code == 0 and "agent:main:main" in listed.stdout


def test_hints_quote_them_before_the_command(vora) -> None:
    doctor = vora("doctor", "--only", "bootstrap-size", "--state-dir", EXAMPLE)
    assert f"vora --state-dir {EXAMPLE} context detail" in doctor.stdout


def test_the_last_one_given_wins_as_for_any_repeated_option(vora, tmp_path: Path) -> None:
    result = vora("--state-dir", str(tmp_path / "first"), "doctor", "--only", "state-dir",
                  "--state-dir", EXAMPLE, "--json")
    assert result.json()["stateDir"] == EXAMPLE


def test_dev_after_the_command(vora, home: Path) -> None:
    assert vora("devices", "list", "--dev", "--json").json()["stateDir"] == str(home / ".vora-dev")


def test_a_value_of_another_option_and_everything_after_dashdash_stay(vora, tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text("{}\n")
    result = vora("config", "set", "--dry-run", "env.X", "--state-dir", str(state), "--", "--profile")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith("Would set env.X: --profile\n")
    called = vora("gateway", "call", "health", "--params", "--config")  # --config is --params' value
    assert called.exit_code == 2 and "--params is not valid JSON" in called.stderr


def test_without_its_value_it_is_a_usage_error_in_the_command_s_format(vora) -> None:
    result = vora("doctor", "--state-dir")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (2, "error: Option '--state-dir' requires an argument.")
    as_json = vora("doctor", "--json", "--state-dir")
    assert as_json.exit_code == 2 and as_json.json()["error"]["code"] == "usage"
