"""`vora context`: what the gateway injects from the workspace files, computed offline."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from vora_cli.cli.common import JsonOption, add_command, command_group, output, paths_of
from vora_cli.cli.output import Output
from vora_cli.core.errors import VoraError

if TYPE_CHECKING:
    from vora_cli.core.context.caps import Caps
    from vora_cli.core.context.report import ContextReport, FileReport
    from vora_cli.core.context.workspace import WorkspaceChoice
    from vora_cli.core.paths import VoraPaths

app = command_group(
    help="What the gateway injects from the workspace bootstrap files, and what it cuts.",
    no_args_is_help=True,
)

WorkspaceOption = Annotated[
    str | None, typer.Option("--workspace", help="Report on this workspace directory (default: the agent's).")
]
AgentOption = Annotated[
    str | None, typer.Option("--agent", help="The agent whose workspace to use (default: the default agent).")
]
KindOption = Annotated[
    str | None, typer.Option("--kind", metavar="main|subagent|cron",
                             help="Session kind: main, subagent or cron (the last two get 5 files).")
]
SessionOption = Annotated[
    str | None,
    typer.Option("--session", metavar="KEY",
                 help="A stored session (key, request key or id): the gateway's own /context reply for it."),
]
MaxCharsOption = Annotated[
    int | None, typer.Option("--max-chars", help="What-if: per-file cap instead of bootstrapMaxChars.")
]
TotalOption = Annotated[
    int | None,
    typer.Option("--total-max-chars", help="What-if: total cap instead of bootstrapTotalMaxChars."),
]
FailOption = Annotated[
    bool, typer.Option("--fail-on-truncation", help="Exit 1 when any file is truncated (for CI).")
]


def _load_config(paths: VoraPaths) -> dict[str, Any]:
    """The effective config ($include merged, ${VAR} resolved); an absent file is empty."""
    from vora_cli.core.config.loading import load_config

    return load_config(paths).effective


def _inputs(
    ctx: typer.Context,
    workspace: str | None,
    agent: str | None,
    session: str,
    max_chars: int | None,
    total: int | None,
) -> tuple[WorkspaceChoice, Caps, dict[str, Any], VoraPaths]:
    from vora_cli.core.context.caps import resolve_caps
    from vora_cli.core.context.files import SESSIONS
    from vora_cli.core.context.workspace import resolve_workspace

    if session not in SESSIONS:
        raise VoraError("usage", f"invalid --kind {session!r}", "use --kind main, subagent or cron")
    paths = paths_of(ctx)
    config = _load_config(paths)
    caps = resolve_caps(config, max_chars, total)
    choice = resolve_workspace(
        config,
        agent_id=agent,
        workspace_flag=workspace,
        home=paths.home,
        state_dir=paths.state_dir,
        profile=paths.profile,
        config_dir=paths.config_dir,
    )
    return choice, caps, config, paths


def _report(
    ctx: typer.Context,
    workspace: str | None,
    agent: str | None,
    session: str,
    max_chars: int | None,
    total: int | None,
) -> ContextReport:
    from vora_cli.core.context.report import build_context_report
    from vora_cli.core.context.skills import load_skills

    choice, caps, config, paths = _inputs(ctx, workspace, agent, session, max_chars, total)
    skills = load_skills(config, home=paths.home, workspace=choice.path, config_dir=paths.config_dir)
    return build_context_report(choice.path, caps, session=session, skills=skills)


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
    for f in report.files:
        out.line(_file_line(f))
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
    for warning in report.warnings:
        out.warn(warning)


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


def _run(
    ctx: typer.Context,
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
    out = output(json or mode == "json")
    if session is not None:
        from vora_cli.cli.commands.context_session import session_context

        def offline(workspace: str | None, agent_id: str, kind: str, extra: dict[str, Any] | None) -> int:
            report = _report(ctx, workspace, agent_id, kind, None, None)
            return _finish(out, report, fail_on_truncation, mode != "list", extra)

        return session_context(
            ctx, out, mode, session, offline, agent=agent, kind=kind, workspace=workspace, max_chars=max_chars,
            total_max_chars=total_max_chars, fail_on_truncation=fail_on_truncation,
        )
    report = _report(ctx, workspace, agent, kind or "main", max_chars, total_max_chars)
    return _finish(out, report, fail_on_truncation, mode != "list")


def context_list(
    ctx: typer.Context,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    session: SessionOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalOption = None,
    fail_on_truncation: FailOption = False,
    json: JsonOption = False,
) -> int:
    """Show each bootstrap file's raw and injected size, and the skills list size."""
    return _run(ctx, "list", workspace=workspace, agent=agent, kind=kind, session=session, max_chars=max_chars,
                total_max_chars=total_max_chars, fail_on_truncation=fail_on_truncation, json=json)


def context_detail(
    ctx: typer.Context,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    session: SessionOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalOption = None,
    fail_on_truncation: FailOption = False,
    json: JsonOption = False,
) -> int:
    """Like list, plus the lines and headings each truncated file loses, and skills by size."""
    return _run(ctx, "detail", workspace=workspace, agent=agent, kind=kind, session=session, max_chars=max_chars,
                total_max_chars=total_max_chars, fail_on_truncation=fail_on_truncation, json=json)


def context_json(
    ctx: typer.Context,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    session: SessionOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalOption = None,
    fail_on_truncation: FailOption = False,
    json: JsonOption = True,
) -> int:
    """Print the whole report as one JSON document (same as list --json)."""
    return _run(ctx, "json", workspace=workspace, agent=agent, kind=kind, session=session, max_chars=max_chars,
                total_max_chars=total_max_chars, fail_on_truncation=fail_on_truncation, json=True)


def context_preview(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(help="One bootstrap file, e.g. TOOLS.md (default: all).")] = None,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalOption = None,
    json: JsonOption = False,
) -> None:
    """Print exactly the text the gateway would inject (one file, or all under ## headings)."""
    from vora_cli.core.context.budget import injected_text
    from vora_cli.core.context.text import utf16_len

    out = output(json)
    choice, caps, _config, _paths = _inputs(ctx, workspace, agent, kind or "main", max_chars, total_max_chars)
    text = injected_text(choice.path, caps, session=kind or "main", name=name)
    # The per-file trim may leave half a surrogate pair; a UTF-8 writer (the gateway's too)
    # turns it into U+FFFD.
    printable = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    payload = {"workspace": str(choice.path), "name": name, "chars": utf16_len(text), "text": printable}

    def human(o: Output) -> None:
        o.paged(printable)

    out.emit(payload, human)


add_command(app, "list", context_list,
            epilog="Examples: vora context list --max-chars 30000; vora context list --session agent:main:main")
add_command(app, "detail", context_detail,
            epilog="Examples: vora context detail --agent ops; vora context detail --session main")
add_command(app, "json", context_json, json_only=True,
            epilog="Examples: vora context json --fail-on-truncation > context.json; vora context json --session main")
add_command(app, "preview", context_preview, epilog="Example: vora context preview TOOLS.md | less")
