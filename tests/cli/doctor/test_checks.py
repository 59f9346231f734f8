"""Issue 23, "Terminals": a check `--skip` or the `doctor.skip` setting leaves out is in the
report as skipped, saying what left it out, in every format (text, JSON, GitHub, JUnit, SARIF).

Every check id an example names (help epilogs, docs/, README) is one `vora doctor` knows.

`vora settings set --help` showed `doctor.skip devices-pending,workspace-files`, two ids that never
existed: copying the example failed. The examples are read where a user reads them.

Issue 23, "Terminals": `vora doctor --list-checks` names every check id with its group and what
it verifies, runs nothing, and agrees with what --only/--skip take and what --fix can mend.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from completion_support import REPO, vora_tree
from devices_support import paired, write_store
from doctor_helpers import make_state

from tests.conftest import Run
from vora_cli.core.doctor.fixes import FIXABLE, ONLY_WHEN_NAMED
from vora_cli.core.doctor_names import AREA_OF, LIVE_CHECK_IDS, SELECTABLE_IDS, VERIFIES


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


# `--only a,b`, `--skip=a`, `--fix-id a`, `--fix a b`, `doctor.skip a,b`: the ids that follow
ID_LIST = re.compile(r"(?:--only|--skip|--fix-id|--fix|doctor\.skip)[ =]((?:[a-z][a-z0-9-]*[a-z0-9](?:,| )?)+)")
NOT_IDS = {"a", "b", "c", "alone", "asks", "given", "and", "repeat", "never", "applies", "or", "only", "with", "id",
           "ids", "the", "is", "are", "to", "takes", "names", "in", "of", "for", "from", "when", "each", "any"}


def named_ids(text: str) -> set[str]:
    found: set[str] = set()
    for match in ID_LIST.finditer(text):
        for word in re.split(r"[, ]", match.group(1)):
            if word and word not in NOT_IDS and "-" in word:
                found.add(word)
    return found


def known_ids() -> set[str]:
    """The ids `vora doctor` and `vora security audit` know (an example may be of either)."""
    from vora_cli.core.doctor_names import SELECTABLE_IDS
    from vora_cli.core.security import runner as security

    return set(SELECTABLE_IDS) | set(security.SELECTABLE_IDS)


def test_the_scanner_finds_ids() -> None:
    assert named_ids("vora doctor --only slot-memory,skills; vora settings set doctor.skip devices-pending,x-y") == {
        "slot-memory", "devices-pending", "x-y"}


def test_help_epilogs_name_only_real_check_ids() -> None:
    named = set()
    for command in vora_tree().walk():
        named |= named_ids(command.epilog) | named_ids(command.help)
    assert named  # the doctor and settings examples are there
    assert named - known_ids() == set()


def test_docs_and_readme_name_only_real_check_ids() -> None:
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    unknown = {(page.name, word) for page in pages for word in named_ids(page.read_text()) - known_ids()}
    assert unknown == set()


def test_json_lists_every_selectable_id_once_with_its_group(vora, tmp_path: Path) -> None:
    result = vora("--state-dir", str(tmp_path / "nowhere"), "doctor", "--list-checks", "--json")
    assert result.exit_code == 0
    checks = result.json()["checks"]
    assert sorted(c["id"] for c in checks) == sorted(SELECTABLE_IDS)
    for check in checks:
        assert check["area"] == AREA_OF[check["id"]] and check["verifies"] == VERIFIES[check["id"]]
        assert check["runs"] == ("live" if check["id"] in LIVE_CHECK_IDS else
                                 "log" if check["id"] == "last-gateway-start" else "offline")
        assert check["fix"] == ("named" if check["id"] in ONLY_WHEN_NAMED else
                                "auto" if check["id"] in FIXABLE else None)
    areas = [c["area"] for c in checks]
    assert areas == sorted(areas, key=areas.index)  # each group once, together
    assert not (tmp_path / "nowhere").exists()  # ran nothing, created nothing


def test_text_groups_them_and_fits_80_columns(vora, monkeypatch) -> None:
    monkeypatch.setattr("vora_cli.cli.output.stream_is_terminal", lambda stream: True)
    out = vora("doctor", "--list-checks", env={"COLUMNS": "80"}).stdout
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert lines[0] == "Config"
    listed = [m.group(1) for line in lines if (m := re.match(r"  ([a-z][a-z-]+)  ", line))]
    assert sorted(listed) == sorted(SELECTABLE_IDS)
    text = " ".join(out.split())
    assert "state-dir the state dir is a folder that group and others cannot write to [--fix]" in text
    assert "plugin-settings settings kept in plugins.entries belong to a plugin that is there [--fix ID]" in text
    assert "gateway-reachable a gateway answers at the URL and completes the handshake (with --live)" in text
    assert f"\n{len(SELECTABLE_IDS)} checks. Select with --only" in out


# doctor's config-secrets and pairing-store know hard links: a file with other names is named as the audit names
# it, and no fix is offered that must then fail (a chmod would change the other names too).

TOKEN = "0123456789abcdef0123456789abcdef"


def _link(path: Path, elsewhere: Path, count: int) -> None:
    elsewhere.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        os.link(path, elsewhere / f"copy-{i}")


@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("check", ["config-secrets", "pairing-store"])
def test_a_linked_file_gets_a_next_step_not_a_failing_fix(check: str, count: int, state_dir: Path, tmp_path: Path,
                                                          vora: Callable[..., Run]) -> None:
    config = state_dir / "vora.json"
    config.write_text(f'{{ gateway: {{ auth: {{ mode: "token", token: "{TOKEN}" }} }} }}\n')
    write_store(state_dir, devices=[paired("laptop")])
    target = config if check == "config-secrets" else state_dir / "devices" / "paired.json"
    for path in (config, state_dir / "devices" / "paired.json"):
        path.chmod(0o600)
    target.chmod(0o644)
    _link(target, tmp_path / "pub", count)
    found = {c["id"]: c for c in vora("doctor", "--json").json()["checks"]}[check]
    assert found["status"] == "warn"
    names = f"{count} other name{'s' if count > 1 else ''} (hard links, {count + 1} in all)"
    assert names in found["message"] + " ".join(found["details"])
    assert found["fix"]["automatic"] is False and "cp -p" in found["fix"]["command"]
    fixed = vora("doctor", "--fix", check, "--yes", "--json")
    assert [f["status"] for f in fixed.json()["fixes"]] in ([], ["skipped"]), fixed.stdout
    assert (target.stat().st_mode & 0o777) == 0o644  # neither this name nor its others changed
    assert all((p.stat().st_mode & 0o777) == 0o644 for p in (tmp_path / "pub").iterdir())
