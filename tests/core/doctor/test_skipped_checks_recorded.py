"""The doctor's skipped checks (issue 23): a check `--skip` or `doctor.skip` leaves out is in
the report as `skip` with what left it out, the live checks `--live` adds included."""

from __future__ import annotations

from pathlib import Path

from doctor_helpers import make_state
from install_support import make_install

from vora_cli.core.doctor.live_checks import live_checks_failed, merge_live
from vora_cli.core.doctor.runner import run_doctor
from vora_cli.core.errors import VoraError


def test_a_live_check_the_setting_names_is_skipped_the_same_way(tmp_path: Path) -> None:
    state = make_state(tmp_path / "state", "{}\n")
    install = make_install(state, settings={"doctor.skip": ["gateway-version"]})
    report = run_doctor(install)
    merged = merge_live(report, live_checks_failed(VoraError("gateway-unreachable", "no gateway on 127.0.0.1:1", None)), None)
    version = next(c for c in merged.checks if c.id == "gateway-version")
    settings_file = install.settings.path
    assert (version.status, version.message) == ("skip", f"skipped by the doctor.skip setting ({settings_file})")


def test_a_skip_flag_is_recorded_for_the_live_checks_too(tmp_path: Path) -> None:
    state = make_state(tmp_path / "state", "{}\n")
    report = run_doctor(make_install(state), skip=["live-memory", "skills"])
    assert dict(report.skipped_by) == {"live-memory": "--skip", "skills": "--skip"}
    assert report.get("skills") is not None and report.get("skills").status == "skip"
    merged = merge_live(report, live_checks_failed(VoraError("gateway-unreachable", "no gateway", None)), None)
    assert merged.get("live-memory").message == "skipped by --skip"
