"""The doctor report for CI: GitHub annotations, JUnit XML and SARIF 2.1.0, pure functions of a (scrubbed)
`DoctorReport`, each finding placed where it was found (docs/doctor.md, "CI formats").
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from vora_cli.core.doctor.model import (
    ERROR,
    INFO,
    PASS,
    SEVERITY,
    SKIP,
    WARN,
    CheckResult,
    DoctorReport,
    Location,
)
from vora_cli.core.records import dataclass, field
from vora_cli.core.text import escape_controls, one_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


@dataclass(frozen=True)
class Tool:
    """Who made the report: `vora doctor`, or another client of the same check engine
    (`vora security audit`), with the words it uses for the engine's statuses."""

    name: str = "vora doctor"
    docs: str = "docs/doctor.md, Checks"
    labels: Mapping[str, str] = field(default_factory=dict)  # engine status -> this tool's word (error -> critical)
    # SARIF rule property GitHub code scanning ranks security alerts by (0.0-10.0), per engine status
    security_severity: Mapping[str, str] = field(default_factory=dict)

    @property
    def classname(self) -> str:
        return self.name.replace(" ", ".")

    def label(self, status: str) -> str:
        return self.labels.get(status, status)


DOCTOR = Tool()


def display_path(path: str, cwd: str | None = None) -> str:
    """`path` relative to the current directory when it is inside it (a CI checkout: GitHub and
    code scanning resolve paths against the repository root), else as it is."""
    base = os.getcwd() if cwd is None else cwd
    try:
        rel = os.path.relpath(path, base)
    except ValueError:
        return path
    return path if rel == os.pardir or rel.startswith(os.pardir + os.sep) else rel


def _finding_text(check: CheckResult, location: Location | None) -> str:
    text = location.message if location is not None and location.message else check.message
    if location is not None and location.next:
        text += f"\nnext: {location.next}"
    elif check.fix is not None and check.fix.command and check.status not in (PASS, SKIP):
        text += _next_text(check)
    return text


def _next_text(check: CheckResult) -> str:
    """`next: COMMAND` (and `or: OTHER` for each alternative), each on a line of its own."""
    assert check.fix is not None
    return f"\nnext: {one_line(check.fix.command or '')}" + "".join(f"\nor: {one_line(c)}" for c in check.fix.alternatives)


def _status_at(check: CheckResult, location: Location | None) -> str:
    return location.status if location is not None and location.status else check.status


# -- GitHub Actions workflow commands ----------------------------------------------------------

GITHUB_COMMAND = {ERROR: "error", WARN: "warning", INFO: "notice"}


def _escape_data(text: str) -> str:
    # GitHub's toolkit (`escapeData`): %, CR and LF in the message. First every other control
    # character from file content (ESC, OSC, C1, U+2028, bidi overrides) as an escape, as the text,
    # JUnit and SARIF forms show it: the workflow log renders ANSI, and a raw one there could
    # rewrite what the operator sees.
    return escape_controls(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    # `escapeProperty`: also ':' and ',' which separate the properties.
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotations(report: DoctorReport, cwd: str | None = None, *, tool: Tool = DOCTOR,
                       summary: str | None = None) -> str:
    """One `::error`/`::warning`/`::notice` line per finding (per location), then the summary;
    each line ends with a newline. `pass` and `skip` make no annotation; a skipped check is a
    plain log line saying why."""
    lines: list[str] = []
    for check in report.checks:
        if check.status == SKIP:  # a plain log line, one line: a newline in it would start a `::command`
            lines.append(one_line(f"{tool.name}: {check.id}: {check.message}"))
        if check.status not in GITHUB_COMMAND:
            continue
        for location in check.locations or (None,):
            command = GITHUB_COMMAND.get(_status_at(check, location), "notice")
            props: list[str] = []
            if location is not None:
                props.append(f"file={_escape_property(display_path(location.file, cwd))}")
                if location.line is not None:
                    props.append(f"line={location.line}")
                    if location.col is not None:
                        props.append(f"col={location.col}")
            props.append(f"title={_escape_property(f'{tool.name}: {check.id}')}")
            lines.append(f"::{command} {','.join(props)}::{_escape_data(_finding_text(check, location))}")
    lines.append(one_line(f"{tool.name}: {summary if summary is not None else report.summary.text()}"))
    return "\n".join(lines) + "\n"


# -- JUnit XML ----------------------------------------------------------------------------------

# Characters XML 1.0 cannot carry at all, even escaped: shown as \\xNN instead.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _XML_INVALID.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), escape_controls(text))


def junit_xml(report: DoctorReport, fail_on: str = ERROR, area_of: Mapping[str, str] | None = None, *,
              tool: Tool = DOCTOR, cwd: str | None = None) -> str:
    """A JUnit XML document: one test case per check, in a test suite named after the tool.

    Files are relative to the current directory when inside it, else absolute (`display_path`),
    as in the GitHub and SARIF formats. A check at or above `fail_on` is a `<failure>` (so the
    results agree with the exit code); `skip` is `<skipped>`; the rest pass, message in
    `<system-out>`.
    """
    import xml.etree.ElementTree as ET

    areas = area_of or {}
    failing = [c for c in report.checks if c.status != SKIP and SEVERITY[c.status] >= SEVERITY[fail_on]]
    skipped = [c for c in report.checks if c.status == SKIP]
    counts = {"tests": str(len(report.checks)), "failures": str(len(failing)), "errors": "0",
              "skipped": str(len(skipped)), "time": "0"}
    suites = ET.Element("testsuites", {"name": tool.name, **counts})
    suite = ET.SubElement(suites, "testsuite", {"name": tool.name, **counts})
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", {"name": "stateDir", "value": _xml_text(str(report.state_dir))})
    ET.SubElement(props, "property", {"name": "configPath", "value": _xml_text(str(report.config_path))})
    for check in report.checks:
        attrs = {"classname": f"{tool.classname}.{areas.get(check.id, 'Other').lower()}", "name": check.id,
                 "time": "0"}
        if check.location is not None:
            attrs["file"] = _xml_text(display_path(check.location.file, cwd))
            if check.location.line is not None:
                attrs["line"] = str(check.location.line)
        case = ET.SubElement(suite, "testcase", attrs)
        # one line per part: a newline inside a name must not start a line of its own (a CI step
        # that prints this report runs every `::command` line it sees)
        body = "\n".join(one_line(part) for part in (check.message, *check.details, *_location_lines(check, tool, cwd)))
        if check.fix is not None and check.fix.command and check.status not in (PASS, SKIP):
            body += _next_text(check)
        if check in failing:
            failure = ET.SubElement(case, "failure", {"message": _xml_text(check.message),
                                                      "type": tool.label(check.status)})
            failure.text = _xml_text(body)
        elif check.status == SKIP:
            ET.SubElement(case, "skipped", {"message": _xml_text(check.message)})
        else:
            out = ET.SubElement(case, "system-out")
            out.text = _xml_text(f"{tool.label(check.status)}: {body}")
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _location_lines(check: CheckResult, tool: Tool = DOCTOR, cwd: str | None = None) -> list[str]:
    out = []
    for loc in check.locations:
        where = display_path(loc.file, cwd) + (f":{loc.line}" if loc.line is not None else "") + (
            f":{loc.col}" if loc.line is not None and loc.col is not None else "")
        level = f"{tool.label(loc.status)}: " if loc.status and tool.labels else ""
        out.append(f"at {where}" + (f": {level}{loc.message}" if loc.message else ""))
        if loc.next:
            out.append(f"  next: {loc.next}")
    return out


# -- SARIF 2.1.0 --------------------------------------------------------------------------------

SARIF_LEVEL = {ERROR: "error", WARN: "warning", INFO: "note"}


def _artifact_uri(path: str, cwd: str | None) -> dict[str, str]:
    shown = display_path(path, cwd)
    if os.path.isabs(shown):
        from pathlib import Path

        return {"uri": Path(shown).as_uri()}
    # A relative reference (RFC 3986), resolved against the checkout: SRCROOT.
    from urllib.parse import quote

    return {"uri": quote(shown.replace(os.sep, "/")), "uriBaseId": "SRCROOT"}


def sarif_log(
    report: DoctorReport,
    *,
    version: str,
    area_of: Mapping[str, str] | None = None,
    cwd: str | None = None,
    tool: Tool = DOCTOR,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run of the tool, a rule per check run, a result per finding.

    `pass` and `skip` checks are rules without results; a skipped one is also an invocation
    notification saying why (SARIF §3.20.21). A finding without a location is placed on the
    config file (code scanning wants a location on every result).
    """
    areas = area_of or {}
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for check in report.checks:
        if check.id in index:
            continue
        index[check.id] = len(rules)
        rule: dict[str, Any] = {
            "id": check.id,
            "name": "".join(part.capitalize() for part in check.id.split("-")),
            "shortDescription": {"text": f"{areas.get(check.id, 'Other')} check {check.id} ({tool.docs})"},
        }
        if tool.security_severity:
            worst = max((_status_at(check, loc) for loc in check.locations or (None,)), key=lambda s: SEVERITY[s])
            if worst in tool.security_severity:
                rule["properties"] = {"tags": ["security"], "security-severity": tool.security_severity[worst]}
        rules.append(rule)
    results: list[dict[str, Any]] = []
    for check in report.checks:
        if check.status not in SARIF_LEVEL:
            continue
        for location in check.locations or (Location(str(report.config_path)),):
            level = SARIF_LEVEL.get(_status_at(check, location), "note")
            region: dict[str, int] = {}
            if location.line is not None:
                region["startLine"] = location.line
                if location.col is not None:
                    region["startColumn"] = location.col
            physical: dict[str, Any] = {"artifactLocation": _artifact_uri(location.file, cwd)}
            if region:
                physical["region"] = region
            where: dict[str, Any] = {"physicalLocation": physical}
            if location.key:  # a config key: the finding's logical place, beside the file it is in
                where["logicalLocations"] = [{"fullyQualifiedName": location.key, "kind": "member"}]
            results.append({
                "ruleId": check.id,
                "ruleIndex": index[check.id],
                "level": level,
                "message": {"text": escape_controls(_finding_text(check, location))},
                "locations": [where],
            })
    run: dict[str, Any] = {
        "tool": {"driver": {"name": tool.name, "version": version, "rules": rules}},
        "originalUriBaseIds": {"SRCROOT": {"uri": _dir_uri(os.getcwd() if cwd is None else cwd)}},
        "invocations": [_invocation(report, index)],
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _invocation(report: DoctorReport, index: Mapping[str, int]) -> dict[str, Any]:
    notes = [{"level": "note", "message": {"text": f"{check.id}: {check.message}"},
              "associatedRule": {"id": check.id, "index": index[check.id]}}
             for check in report.checks if check.status == SKIP]
    return {"executionSuccessful": True, **({"toolConfigurationNotifications": notes} if notes else {})}


def _dir_uri(path: str) -> str:
    from pathlib import Path

    uri = Path(os.path.abspath(path)).as_uri()
    return uri if uri.endswith("/") else uri + "/"
