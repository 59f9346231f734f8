"""What the check engine's commands (`vora doctor`, `vora security audit`) share: their output
formats, id lists, next steps and CI output. Typer-free: `vora doctor` runs without Typer
(`cli/declare.py`)."""

from __future__ import annotations

from vora_cli.core.errors import VoraError
from vora_cli.core.records import replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from vora_cli.cli.output import Run
    from vora_cli.core.doctor.ci_formats import Tool
    from vora_cli.core.doctor.model import CheckResult, DoctorReport

FORMATS = ("text", "json", "github", "junit", "sarif")


def id_list(values: list[str] | None) -> list[str]:
    """Repeated options and comma lists, flattened: `--only a,b --only c`."""
    out: list[str] = []
    for value in values or []:
        out += [v.strip() for v in value.split(",") if v.strip()]
    return out


def choose_format(format: str | None, json: bool) -> str:
    if format is not None and format not in FORMATS:
        raise VoraError("usage", f"invalid --format {format!r}", f"use one of: {', '.join(FORMATS)}")
    if json and format not in (None, "json"):
        raise VoraError("usage", f"--json and --format {format} ask for two outputs",
                        f"use one: --format {format}, or --json")
    return "json" if json else format or "text"


def with_global_args(run: Run, checks: Sequence[CheckResult]) -> tuple[CheckResult, ...]:
    """`checks` with every `vora ...` command they show (a fix, its alternatives, a detail, a
    finding's next step) carrying the global options the operator typed (`vora --state-dir
    /srv/vora doctor --fix state-dir`), in every format, JSON included."""

    def fixed(check: CheckResult) -> CheckResult:
        fix = check.fix
        if fix is not None and fix.command:
            fix = replace(fix, command=run.with_global_args(fix.command),
                          alternatives=tuple(run.with_global_args(c) for c in fix.alternatives))
        locations = tuple(replace(loc, next=run.with_global_args(loc.next)) if loc.next else loc
                          for loc in check.locations)
        return replace(check, fix=fix, details=tuple(run.with_global_args(d) for d in check.details),
                       locations=locations)

    return tuple(fixed(c) for c in checks)


def emit_ci(run: Run, chosen: str, report: DoctorReport, fail_on: str, areas: Mapping[str, str], *,
            tool: Tool | None = None, summary: str | None = None) -> int:
    """GitHub annotations, JUnit XML or SARIF on stdout; exit 1 when a check is at `fail_on` (a
    status) or worse, as for the other formats."""
    from vora_cli.cli.output import write_stdout
    from vora_cli.core.doctor import ci_formats

    tool = tool or ci_formats.DOCTOR
    if chosen == "github":
        text = ci_formats.github_annotations(report, tool=tool, summary=summary)
    elif chosen == "junit":
        text = ci_formats.junit_xml(report, fail_on, areas, tool=tool)
    else:
        from vora_cli import __version__
        from vora_cli.cli.json_text import to_json

        text = to_json(ci_formats.sarif_log(report, version=__version__, area_of=areas, tool=tool),
                       indent=run.json_indent()) + "\n"
    write_stdout(text)
    return 1 if report.failed(fail_on) else 0
