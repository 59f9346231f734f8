"""Issue 23, "Terminals": a check `--skip` or the `doctor.skip` setting leaves out is in the
report as skipped, saying what left it out, in every format (text, JSON, GitHub, JUnit, SARIF)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from doctor_helpers import make_state


@pytest.fixture
def state(tmp_path: Path, vora) -> Path:
    folder = make_state(tmp_path / "state", "{}\n")
    assert vora("settings", "set", "doctor.skip", "skills,pairing-store", "-q").exit_code == 0
    return folder


def _why(vora) -> str:
    path = vora("settings", "path").stdout.strip()
    return f"skipped by the doctor.skip setting ({path})"


def test_text_shows_each_skipped_check_and_how_to_run_it(vora, state: Path) -> None:
    out = vora("--state-dir", str(state), "doctor").stdout.splitlines()
    at = out.index(f"  - skills: {_why(vora)}")
    assert out[at + 1] == f"      to run it anyway: vora --state-dir {state} doctor --only skills"
    assert f"  - pairing-store: {_why(vora)}" in out
    assert out[-1].endswith("2 skipped") or any(line.endswith("2 skipped") for line in out)


def test_json_counts_them_and_says_why(vora, state: Path) -> None:
    doc = vora("--state-dir", str(state), "doctor", "--json").json()
    skipped = {c["id"]: c for c in doc["checks"] if c["status"] == "skip"}
    assert set(skipped) == {"skills", "pairing-store"} and doc["summary"]["skip"] == 2
    assert skipped["skills"]["message"] == _why(vora) and skipped["skills"]["fix"] is None
    ids = [c["id"] for c in doc["checks"]]
    assert ids.index("bootstrap-size") < ids.index("skills") < ids.index("device-identity")  # in the table's order


def test_ci_formats_say_it_too(vora, state: Path) -> None:
    base = ("--state-dir", str(state), "doctor", "--format")
    github = vora(*base, "github").stdout.splitlines()
    assert f"vora doctor: skills: {_why(vora)}" in github
    assert not any(line.startswith("::") and "skills" in line for line in github)
    junit = ET.fromstring(vora(*base, "junit").stdout)
    case = next(c for c in junit.iter("testcase") if c.get("name") == "skills")
    assert case.find("skipped").get("message") == _why(vora)
    assert junit.get("skipped") == "2"
    sarif = json.loads(vora(*base, "sarif").stdout)["runs"][0]
    notes = sarif["invocations"][0]["toolConfigurationNotifications"]
    assert {n["associatedRule"]["id"] for n in notes} == {"skills", "pairing-store"}
    rules = sarif["tool"]["driver"]["rules"]
    assert all(rules[n["associatedRule"]["index"]]["id"] == n["associatedRule"]["id"] for n in notes)
    assert not any(r["ruleId"] in ("skills", "pairing-store") for r in sarif["results"])


def test_only_names_a_skipped_check_and_it_runs(vora, state: Path) -> None:
    doc = vora("--state-dir", str(state), "doctor", "--only", "skills", "--json").json()
    assert [(c["id"], c["status"]) for c in doc["checks"]] == [("skills", "pass")]


def test_the_flag_wins_over_the_setting_and_says_so(vora, state: Path) -> None:
    doc = vora("--state-dir", str(state), "doctor", "--skip", "workspace", "--json").json()
    skipped = {c["id"]: c["message"] for c in doc["checks"] if c["status"] == "skip"}
    assert skipped == {"workspace": "skipped by --skip"}
