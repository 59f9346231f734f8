"""What `vora context list/detail/json` share: the offline report, or a session's own, rendered."""

from __future__ import annotations

from vora_cli.cli.json_text import escape_raw_in_json
from vora_cli.cli.output import Output, write_stdout
from vora_cli.core.text import escape_controls

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from vora_cli.cli.invocation import AppState
    from vora_cli.core.context.report import ContextReport, FileReport


# --- rendering --------------------------------------------------------------------------


def _n(value: int) -> str:
    return f"{value:,}"


def _chars(value: int) -> str:
    return f"{_n(value)} chars (~{_n(-(-value // 4))} tok)"


def _file_line(f: FileReport) -> str:
    if f.status == "MISSING":
        # The human line keeps the gateway's "raw 0 | injected 0" (JSON has the marker's length).
        return f"- {f.name}: MISSING | raw 0 | injected 0"
    return f"- {f.name}: {f.status} | raw {_chars(f.raw_chars)} | injected {_chars(f.injected_chars)}"


STATUS_WORDS = {"OK": "green", "TRUNCATED": "yellow", "MISSING": "red"}


def _bars(out: Output, report: ContextReport) -> Callable[[FileReport], None] | None:
    """On a terminal: what draws a file's bar under its line (raw against injected, the per-file
    cap as a mark, every file on one scale); None when piped (the spec's lines alone)."""
    if not out.terminal:
        return None
    from vora_cli.cli.output import terminal_width
    from vora_cli.cli.pictures import file_bar, glyphs

    g = glyphs(out.run.ascii)
    cap = report.caps.max_chars
    scale = max([cap, *(f.raw_chars for f in report.files if f.status != "MISSING")])
    width = max(10, min(terminal_width() - 4, 60))

    def draw(f: FileReport) -> None:
        out.styled([("  ", None), *file_bar(f.raw_chars, f.injected_chars, cap, scale, width, g,
                                            truncated=f.status == "TRUNCATED")])

    return draw


def _causes_line(report: ContextReport) -> str:
    truncated = report.truncated
    per_file = sum(1 for f in truncated if "max/file" in f.causes)
    total = sum(1 for f in truncated if "max/total" in f.causes)
    parts = []
    if per_file:
        parts.append(f"{per_file} file(s) exceeded max/file")
    if total:
        parts.append(f"{total} file(s) cut by max/total")
    if not parts:
        parts.append("missing-file markers used part of max/total")
    return "Causes: " + "; ".join(parts) + "."


def _render(out: Output, report: ContextReport, detailed: bool) -> None:
    caps = report.caps
    out.line("🧠 Context breakdown (offline" + (", detailed)" if detailed else ")"))
    out.line(f"Workspace: {report.workspace}")
    if report.session != "main":
        out.line(f"Session: {report.session}")
    out.line(f"Bootstrap max/file: {_n(caps.max_chars)} chars ({caps.max_chars_source})")
    out.line(f"Bootstrap max/total: {_n(caps.total_max_chars)} chars ({caps.total_max_chars_source})")
    totals = report.totals
    if totals.truncated_files:
        out.line()
        out.line(
            f"⚠ Bootstrap context is over configured limits: {totals.truncated_files} file(s) truncated "
            f"({_n(totals.truncated_raw_chars)} raw chars -> {_n(totals.truncated_injected_chars)} injected chars)."
        )
        out.line(_causes_line(report))
        out.line(
            "Tip: increase `agents.defaults.bootstrapMaxChars` and/or "
            "`agents.defaults.bootstrapTotalMaxChars` if this truncation is not intentional."
        )
    out.line()
    out.line("Injected workspace files:")
    draw = _bars(out, report)
    for f in report.files:
        out.line(_file_line(f), words=STATUS_WORDS)
        if draw is not None and f.status != "MISSING":
            draw(f)
        if not detailed:
            continue
        if f.missing_reason is not None:
            from vora_cli.core.context.files import MISSING_REASON_TEXT

            out.line(f"    missing: {MISSING_REASON_TEXT[f.missing_reason]} ({f.path})")
        if f.status == "TRUNCATED":
            if f.kept_lines:
                kept = ", ".join(f"{r.start}-{r.end}" for r in f.kept_lines)
                out.line(f"    kept lines {kept}")
            for r in f.dropped_lines:
                headings = ": " + ", ".join(r.headings) if r.headings else ""
                out.line(f"    dropped lines {r.start}-{r.end}{headings}")
    if draw is not None:  # what the bars' cells mean, under them
        from vora_cli.cli.pictures import glyphs

        g = glyphs(out.run.ascii)
        out.styled([("  ", None), (g.full, "green"), (" injected  ", None), (g.cut, "red"), (" cut  ", None),
                    (g.mark, "bold"), (f" max/file ({_n(caps.max_chars)} chars)", None)])
    if detailed:
        out.line()
        near = [f for f in report.files if f.near_limit]
        out.line(f"Near limit (raw >= 85% of max/file): {', '.join(f.name for f in near) or 'none'}")
        total_state = "yes" if totals.near_limit else "no"
        out.line(
            f"Injected total: {_chars(totals.injected_chars)} of {_n(caps.total_max_chars)} "
            f"(near max/total: {total_state})"
        )
    skills = report.skills
    if skills is not None:
        out.line()
        out.line(f"Skills list (system prompt text): {_chars(skills.total_chars)} ({skills.count} skills)")
        out.line(f"Skills: {', '.join(skills.names) or '(none)'}")
        if detailed:
            if skills.skills:
                out.line()
                out.line("Top skills (prompt entry size):")
                for s in sorted(skills.skills, key=lambda s: (-s.chars, s.name)):
                    out.line(f"- {s.name}: {_chars(s.chars)}")
            if skills.dropped:
                out.line()
                out.line("Skills not listed:")
                for d in skills.dropped:
                    out.line(f"- {d.name}: {d.reason.replace('_', ' ')} ({d.path})")
    out.line()
    out.line("Tokens are estimates (chars / 4, rounded up).")
    # Each fact once: a cut file is its row (and the ⚠ summary), a dropped skill is under "Skills not
    # listed" in detail; what the report does not show is a warning. JSON keeps the gateway's words.
    shown = {"budget", "skill"} if detailed else {"budget"}
    for warning in report.warnings:
        if warning.kind not in shown:
            out.warn(warning.text)


def _finish(
    out: Output,
    report: ContextReport,
    fail_on_truncation: bool,
    detailed: bool,
    extra: dict[str, Any] | None = None,
) -> int:
    """Print the report; the exit code: 1 with --fail-on-truncation and a truncated file.

    The report is the data a CI job needs to see why it failed, so it is printed in both modes
    (like `vora config validate` and `vora doctor`); the failure line goes to stderr.
    """
    failing = fail_on_truncation and report.totals.truncated_files > 0
    payload = {**report.to_dict(), **(extra or {})}
    if fail_on_truncation:
        payload = {**payload, "ok": not failing}
    code = out.emit(payload, lambda o: _render(o, report, detailed), failed=failing)
    if failing:
        names = ", ".join(f.name for f in report.truncated)
        out.note(f"error: {report.totals.truncated_files} bootstrap file(s) truncated: {names}")
        out.note("hint: run `vora context detail` to see what is cut, or raise agents.defaults.bootstrapMaxChars")
    return code


def run_report(
    state: AppState,
    mode: str,
    *,
    workspace: str | None,
    agent: str | None,
    kind: str | None,
    session: str | None,
    max_chars: int | None,
    total_max_chars: int | None,
    fail_on_truncation: bool,
    json: bool,
) -> int:
    out = state.output(json or mode == "json")
    if session is not None:
        return _session(state, out, mode, session, agent=agent, kind=kind, workspace=workspace, max_chars=max_chars,
                        total_max_chars=total_max_chars, fail_on_truncation=fail_on_truncation)
    from vora_cli.core.context.operations import context_report

    report = context_report(state.install, workspace=workspace, agent=agent, kind=kind or "main",
                            max_chars=max_chars, total_max_chars=total_max_chars)
    return _finish(out, report, fail_on_truncation, mode != "list")


def _session(state: AppState, out: Output, mode: str, session: str, *, agent: str | None, kind: str | None,
             workspace: str | None, max_chars: int | None, total_max_chars: int | None,
             fail_on_truncation: bool) -> int:
    """`--session KEY`: the session's /context reply (or the offline estimate); the exit code."""
    from vora_cli.core.context.session import check_session_flags, session_context

    check_session_flags(session, kind=kind, workspace=workspace, max_chars=max_chars, total_max_chars=total_max_chars)
    mode = "json" if out.json_mode else mode
    install = state.install
    found = session_context(install, session, mode=mode, agent=agent)
    if found.reply is not None:
        out.note(_which_view(found.row.key, found.run_at_ms, install.now_ms))
        # the gateway's JSON.stringify leaves C1 controls and bidi overrides raw: escaped as --json is
        text = (escape_raw_in_json(found.reply) if mode == "json"
                else "\n".join(escape_controls(line) for line in found.reply.split("\n")))
        write_stdout(text)
        if fail_on_truncation and found.truncated_files:
            out.note(f"error: {found.truncated_files} bootstrap file(s) truncated in the last run of {found.row.key}")
            return 1
        return 0
    assert found.estimate is not None
    out.note(f"Session {found.row.key} has no run report from the gateway: this is the offline estimate of "
             "the workspace files as they are now")
    return _finish(out, found.estimate, fail_on_truncation, mode != "list",
                   found.estimate_extra if out.json_mode else None)


def _which_view(key: str, run_at_ms: int | None, now_ms: int) -> str:
    """Which view `--session` prints, and how old it is: the stdout is the gateway's reply byte for
    byte (spec sessions.md), so this is said on stderr."""
    from vora_cli.core.clock import iso_or_none
    from vora_cli.core.sessions.store import age_text

    when = "its last run (time unknown)"
    iso = iso_or_none(run_at_ms) if run_at_ms is not None else None
    if run_at_ms is not None and iso is not None:  # a date JavaScript can hold but not 1-9999: unknown
        when = f"its last run at {iso[:10]} {iso[11:16]} UTC ({age_text(now_ms - run_at_ms)})"
    return (f"the gateway's own /context report of {key}, from {when}; "
            "the files as they are now: vora context list (without --session)")
