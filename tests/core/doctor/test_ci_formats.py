"""The CI renderers of a DoctorReport, without the CLI: GitHub's escaping rules, XML-safe text."""

from __future__ import annotations

from pathlib import Path

from vora_cli.core.doctor.ci_formats import display_path, github_annotations, junit_xml
from vora_cli.core.doctor.model import CheckResult, DoctorReport, Location


def _report(*checks: CheckResult) -> DoctorReport:
    return DoctorReport(Path("/s"), Path("/s/vora.json"), checks)


def test_github_escapes_data_and_properties() -> None:
    check = CheckResult("config-schema", "warn", "m", locations=(
        Location("/w/a,b:c%d.json", 2, 7, "100% bad\r\nnext line: a, b"),))
    (line, summary) = github_annotations(_report(check), cwd="/w").splitlines()
    # escapeProperty: % CR LF : , ; escapeData: % CR LF only
    assert line == "::warning file=a%2Cb%3Ac%25d.json,line=2,col=7,title=vora doctor%3A config-schema::" \
                   "100%25 bad%0D%0Anext line: a, b"
    assert summary == "vora doctor: 1 warning, 0 passed"


def test_github_levels_and_silence_for_pass_and_skip() -> None:
    report = _report(
        CheckResult("a", "error", "e"), CheckResult("b", "warn", "w"), CheckResult("c", "info", "i"),
        CheckResult("d", "pass", "p"), CheckResult("e", "skip", "s"),
    )
    lines = github_annotations(report).splitlines()
    assert [ln.split(" ", 1)[0] for ln in lines[:-2]] == ["::error", "::warning", "::notice"]
    assert lines[-2] == "vora doctor: e: s"  # a skipped check: a plain log line saying why, no annotation


def test_paths_outside_the_checkout_stay_absolute() -> None:
    assert display_path("/w/x/y.json", "/w") == "x/y.json"
    assert display_path("/etc/vora.json", "/w") == "/etc/vora.json"
    assert display_path("/wx/y.json", "/w") == "/wx/y.json"


def test_junit_text_never_carries_characters_xml_cannot_hold() -> None:
    import xml.etree.ElementTree as ET

    check = CheckResult("plugin-manifests", "error", "bad \x1b[31m id \x00", ("detail \x07",))
    text = junit_xml(_report(check))
    root = ET.fromstring(text.split("\n", 1)[1])  # parses: no raw control characters
    failure = root.find("./testsuite/testcase/failure")
    assert failure is not None and "\\x1b" in failure.get("message", "") and "\\x07" in (failure.text or "")
