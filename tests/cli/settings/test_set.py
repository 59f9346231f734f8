"""`vora settings set` refusals name the key AND the settings file, and write nothing (issue 15 §2);
`doctor.skip` takes the same check ids as `vora doctor --skip`, live checks included."""

from __future__ import annotations

from pathlib import Path

import pytest

REFUSALS = [
    # (key, value, exit code, error code, words in the message)
    ("colr", "never", 2, "usage", "unknown setting 'colr'"),
    ("doctor.fial_on", "warn", 2, "usage", "unknown setting 'doctor.fial_on'"),
    ("color", "blue", 1, "invalid", "setting 'color'"),
    ("json_indent", "two", 1, "invalid", "setting 'json_indent'"),
    ("doctor.skip", "no-such-check", 1, "invalid", "setting 'doctor.skip': unknown check 'no-such-check'"),
    ("doctor.skip", "skills,devices-pending", 1, "invalid", "unknown check 'devices-pending'"),
]


@pytest.mark.parametrize("existing", [None, "# mine\npager = 'less'\n"])
@pytest.mark.parametrize(("key", "value", "exit_code", "code", "words"), REFUSALS)
def test_a_refused_set_names_the_key_and_the_file_and_writes_nothing(
        vora, settings_path: Path, existing: str | None, key: str, value: str, exit_code: int, code: str,
        words: str) -> None:
    if existing is not None:
        settings_path.parent.mkdir(parents=True)
        settings_path.write_text(existing)
    result = vora("settings", "set", "--json", "--", key, value)
    assert result.exit_code == exit_code
    error = result.json()["error"]
    assert error["code"] == code and words in error["message"]
    assert f"nothing was written to {settings_path}" in error["hint"]
    if existing is None:
        assert not settings_path.parent.exists()
    else:
        assert settings_path.read_text() == existing

    human = vora("settings", "set", "--", key, value)
    assert human.exit_code == exit_code and human.stdout == ""
    assert str(settings_path) in human.stderr and f"'{key}'" in human.stderr


@pytest.mark.parametrize("ids", ["last-gateway-start", "gateway-reachable,live-memory", "skills,live-slot-memory"])
def test_doctor_skip_takes_every_id_doctor_skip_takes(vora, settings_path: Path, state_dir: Path,
                                                      ids: str) -> None:
    assert vora("doctor", "--skip", ids, "--json").exit_code == 0  # the flag takes them
    result = vora("settings", "set", "doctor.skip", ids, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["new"] == ids.split(",")
    doc = vora("doctor", "--json").json()  # and doctor reads them back from the file
    assert "error" not in doc
    ran = {c["id"] for c in doc["checks"] if c["status"] != "skip"}
    assert not ran & set(ids.split(","))


def test_a_hand_written_live_id_in_doctor_skip_does_not_fail_doctor(vora, settings_path: Path,
                                                                     state_dir: Path) -> None:
    settings_path.parent.mkdir(parents=True)
    settings_path.write_text('[doctor]\nskip = ["gateway-version", "skills"]\n')
    doc = vora("doctor", "--json").json()
    assert "error" not in doc
    assert {c["id"]: c["status"] for c in doc["checks"]}["skills"] == "skip"
    settings_path.write_text('[doctor]\nskip = ["nope"]\n')
    bad = vora("doctor", "--json")
    assert bad.exit_code == 1
    assert "'nope'" in bad.json()["error"]["message"] and str(settings_path) in bad.json()["error"]["message"]
